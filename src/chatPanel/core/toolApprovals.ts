import type { ToolDecision } from '../webview/protocol';

/** What became of a tool call that waited for the user: run it, refuse it, or Stop ended the wait. */
export type ApprovalOutcome = 'allow' | 'deny' | 'stopped';

interface Waiting {
  conversationId: string;
  toolName: string;
  readOnly: boolean;
  resolve(outcome: ApprovalOutcome): void;
}

/** The answer to a decision from the page: which read-only tool the user allowed for the rest of the chat, if any. */
export interface DecisionTaken {
  allowedForChat?: string;
}

/**
 * The tool calls waiting for the user's Allow or Deny, per chat. A call waits from the moment it is shown, so the
 * user may answer the second call of a round before the first has run. Stop ends every wait of its chat at once.
 */
export class ToolApprovals {
  private readonly waiting = new Map<string, Waiting>();

  /**
   * Starts the wait of one call (ids are distinct within a chat: `ToolCallIds`); the promise settles on the user's
   * decision, or `stopped` when the signal aborts, whatever became of the other waits.
   */
  expect(conversationId: string, call: { id: string; name: string; readOnly: boolean }, signal: AbortSignal): Promise<ApprovalOutcome> {
    const key = keyOf(conversationId, call.id);
    return new Promise<ApprovalOutcome>((resolve) => {
      if (signal.aborted) return resolve('stopped');
      const settle = (outcome: ApprovalOutcome) => {
        if (this.waiting.get(key) === entry) this.waiting.delete(key);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const onAbort = () => settle('stopped');
      const entry: Waiting = { conversationId, toolName: call.name, readOnly: call.readOnly, resolve: settle };
      this.waiting.set(key, entry);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  isWaiting(conversationId: string, callId: string): boolean {
    return this.waiting.has(keyOf(conversationId, callId));
  }

  /**
   * Applies the user's decision. "Allow for this chat" (read-only tools only) also lets the other waiting calls of
   * that tool in the chat run. Undefined when the call is not waiting (answered already, or stopped).
   */
  decide(conversationId: string, callId: string, decision: ToolDecision): DecisionTaken | undefined {
    const entry = this.waiting.get(keyOf(conversationId, callId));
    if (!entry) return undefined;
    if (decision === 'deny') {
      entry.resolve('deny');
      return {};
    }
    entry.resolve('allow');
    if (decision !== 'allowForChat' || !entry.readOnly) return {};
    for (const other of [...this.waiting.values()]) {
      if (other.conversationId === conversationId && other.toolName === entry.toolName && other.readOnly) other.resolve('allow');
    }
    return { allowedForChat: entry.toolName };
  }
}

function keyOf(conversationId: string, callId: string): string {
  return `${conversationId}\n${callId}`;
}
