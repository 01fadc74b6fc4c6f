/** How many tool-call turns are remembered (a long agent session makes many; the oldest are dropped). */
const DEFAULT_CAPACITY = 500;

/**
 * The reasoning of the replies that made tool calls, by tool-call id. VS Code hands a provider back only its own
 * parts of earlier turns, but DeepSeek-style models refuse the next request unless a tool-call turn carries its
 * `reasoning_content` again.
 */
export class ReasoningMemory {
  private readonly byCallId = new Map<string, string>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  remember(callIds: readonly string[], reasoning: string): void {
    if (!reasoning) return;
    for (const id of callIds) {
      this.byCallId.delete(id);
      this.byCallId.set(id, reasoning);
    }
    while (this.byCallId.size > this.capacity) {
      const oldest = this.byCallId.keys().next().value;
      if (oldest === undefined) break;
      this.byCallId.delete(oldest);
    }
  }

  /** The reasoning of the turn that made these calls, if it is remembered. */
  recall(callIds: readonly string[]): string | undefined {
    for (const id of callIds) {
      const reasoning = this.byCallId.get(id);
      if (reasoning) return reasoning;
    }
    return undefined;
  }
}
