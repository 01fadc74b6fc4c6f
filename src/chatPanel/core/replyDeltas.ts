import type { AssistantMessage, ToolCallRecord } from './model';

/** What one stream event added to the reply (`applyStreamEvent`'s answer). */
export interface ReplyDelta {
  text: string;
  reasoning: string;
  toolCallsChanged: boolean;
}

export interface CoalescedDelta {
  text: string;
  /** Where `text` starts in the message's text. */
  textOffset: number;
  reasoning: string;
  reasoningOffset: number;
}

/**
 * Coalesces what a reply streams, so the views get about one delta per `intervalMs` (and the tool calls as they
 * stand then), not one message per network read.
 */
export class ReplyDeltas {
  private text = '';
  private reasoning = '';
  private toolCalls = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly message: AssistantMessage,
    private readonly intervalMs: number,
    private readonly onDelta: (delta: CoalescedDelta) => void,
    private readonly onToolCalls: (calls: ToolCallRecord[]) => void,
  ) {}

  push(delta: ReplyDelta): void {
    this.text += delta.text;
    this.reasoning += delta.reasoning;
    this.toolCalls ||= delta.toolCallsChanged;
    if ((this.text || this.reasoning || this.toolCalls) && !this.timer) this.timer = setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Hands over what is pending now. */
  flush(): void {
    this.dispose();
    const { message } = this;
    if (this.text || this.reasoning) {
      this.onDelta({
        text: this.text,
        textOffset: message.text.length - this.text.length,
        reasoning: this.reasoning,
        reasoningOffset: message.reasoning.length - this.reasoning.length,
      });
      this.text = '';
      this.reasoning = '';
    }
    if (this.toolCalls) {
      this.toolCalls = false;
      this.onToolCalls(message.toolCalls.map((call) => ({ ...call })));
    }
  }

  /** Drops the pending timer (what is pending stays until the next flush). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
