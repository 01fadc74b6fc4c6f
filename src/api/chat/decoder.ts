// Pinned by `npm run bench -- --only throughput,ttft`: throughput at least the openai SDK's, and the first token within 1 ms of a raw undici read.
import { ApiError } from '../errors';
import { hintForStatus } from '../httpErrors';
import { extractRequestId } from '../errorBodies';
import type { ApiLogger } from '../apiLogger';
import type { ChatStreamEvent, ToolCall } from './events';
import { chunkSchema, toUsage, type ChatChunk } from './schemas';
import { ThinkSplitter } from './thinkSplitter';
import { MAX_REPLY_CHARS, MAX_TOOL_CALLS, replyTooLarge, tooManyToolCalls } from './replyBounds';
import { t } from '../l10n';

/**
 * Turns the `data:` payloads of a chat completion stream into typed events. Synchronous and allocation-light:
 * it runs once per chunk on the hot path. Every chunk is parsed and validated by `chunkSchema`. Throws an ApiError for a
 * mid-stream `{"error": …}`.
 */
export class ChatStreamDecoder {
  private readonly think = new ThinkSplitter();
  private readonly toolCalls = new Map<number, ToolCall>();
  /**
   * How much answer text arrived. The text itself is not kept: the reader has it from the events, and a copy here would
   * keep every delta alive, which the garbage collector pays for chunk by chunk.
   */
  private receivedChars = 0;
  /** Text, reasoning and tool-call arguments so far: what MAX_REPLY_CHARS bounds. */
  private replyChars = 0;
  /** The event deltas are being joined into (coalescing), and its pieces. */
  private openEvent: { type: 'text' | 'reasoning'; text: string } | undefined;
  private openPieces: string[] = [];
  private finishReason: string | undefined;
  private sawDone = false;
  /** Once text came out of the `<think>` splitter, it passes everything through: it is bypassed from then on. */
  private answering = false;

  /**
   * @param coalesce appends a text (or reasoning) delta to the event just before it in `out` when that one is of the
   * same type, instead of adding an event: for a reader that hands out the events of one network read only after
   * they were all decoded (one read often carries hundreds of chunks).
   */
  constructor(
    private readonly log?: ApiLogger,
    private readonly coalesce = false,
  ) {}

  get done(): boolean {
    return this.sawDone;
  }

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /**
   * Ends the event deltas are being joined into (coalescing): call it before handing out the events appended to `out`.
   * The deltas are joined into one flat string: a reader that keeps the text keeps a few strings rather than a rope of
   * one node per chunk, which the garbage collector would carry from the young generation into the old one, node by
   * node (about a third of the decoding time on a stream of tiny chunks).
   */
  settle(): void {
    const open = this.openEvent;
    if (!open) return;
    if (this.openPieces.length > 1) open.text = this.openPieces.join('');
    this.openEvent = undefined;
    this.openPieces = [];
  }

  /** Decodes one `data:` payload, appending its events to `out`. */
  accept(data: string, out: ChatStreamEvent[]): void {
    if (data === '[DONE]') {
      this.sawDone = true;
      this.flushThink(out);
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      this.log?.warn(`[chat] dropped a stream event that is not JSON: ${data.slice(0, 80)}`);
      return;
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) {
      this.log?.warn(`[chat] dropped a stream chunk of unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    this.decodeChunk(parsed.data, out);
  }

  private decodeChunk(chunk: ChatChunk, out: ChatStreamEvent[]): void {
    if (chunk.error) throw this.streamError(chunk.error);
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (delta) {
        if (delta.role) out.push({ type: 'role', role: delta.role });
        const reasoning = delta.reasoning_content || delta.reasoning;
        if (reasoning) this.emit('reasoning', reasoning, out);
        if (delta.content) this.pushContent(delta.content, out);
        if (delta.tool_calls) this.pushToolCalls(delta.tool_calls, out);
      }
      if (choice.finish_reason) {
        this.flushThink(out);
        if (this.toolCalls.size > 0) out.push({ type: 'tool-calls', calls: [...this.toolCalls.values()] });
        this.finishReason = choice.finish_reason;
        out.push({ type: 'finish', reason: choice.finish_reason });
      }
    }
    if (chunk.usage) out.push({ type: 'usage', usage: toUsage(chunk.usage) });
  }

  private pushContent(content: string, out: ChatStreamEvent[]): void {
    if (this.answering) {
      this.emit('text', content, out);
      return;
    }
    for (const piece of this.think.push(content)) {
      if (piece.kind === 'text') {
        this.answering = true;
        this.emit('text', piece.text, out);
      } else {
        this.emit('reasoning', piece.text, out);
      }
    }
  }

  private emit(type: 'text' | 'reasoning', text: string, out: ChatStreamEvent[]): void {
    if (type === 'text') this.receivedChars += text.length;
    this.count(text.length);
    if (!this.coalesce) {
      out.push({ type, text });
      return;
    }
    const open = this.openEvent;
    if (open && open.type === type && out.length > 0 && out[out.length - 1] === open) {
      this.openPieces.push(text);
      return;
    }
    this.settle();
    const event = { type, text };
    out.push(event);
    this.openEvent = event;
    this.openPieces = [text];
  }

  private pushToolCalls(fragments: NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>, out: ChatStreamEvent[]): void {
    for (const fragment of fragments) {
      const index = fragment.index ?? 0;
      let call = this.toolCalls.get(index);
      if (!call) {
        if (this.toolCalls.size >= MAX_TOOL_CALLS) throw tooManyToolCalls(this.receivedChars);
        call = { id: '', name: '', arguments: '' };
        this.toolCalls.set(index, call);
      }
      if (fragment.id) call.id = fragment.id;
      const name = fragment.function?.name ?? undefined;
      if (name) call.name += name;
      const argumentsDelta = fragment.function?.arguments ?? '';
      this.count(argumentsDelta.length + (name?.length ?? 0));
      call.arguments += argumentsDelta;
      out.push({ type: 'tool-call', index, id: fragment.id ?? undefined, name, argumentsDelta });
    }
  }

  private count(chars: number): void {
    this.replyChars += chars;
    if (this.replyChars > MAX_REPLY_CHARS) throw replyTooLarge(this.receivedChars);
  }

  private flushThink(out: ChatStreamEvent[]): void {
    for (const piece of this.think.flush()) {
      this.emit(piece.kind === 'text' ? 'text' : 'reasoning', piece.text, out);
    }
  }

  private streamError(error: NonNullable<ChatChunk['error']>): ApiError {
    const message = typeof error === 'string' ? error : error.message;
    const code = typeof error === 'string' || error.code === null || error.code === undefined ? undefined : String(error.code);
    const param = typeof error === 'string' ? undefined : (error.param ?? undefined);
    const status = code && /^\d{3}$/.test(code) ? Number(code) : undefined;
    return new ApiError({
      kind: 'stream',
      status,
      code,
      type: typeof error === 'string' ? undefined : (error.type ?? undefined),
      param,
      serverMessage: message,
      requestId: extractRequestId(message),
      message: t('The service reported an error mid-stream: {0}', message ?? t('no details')),
      hint: status ? hintForStatus(status, code, param) : t('The reply was interrupted by the service: retry.'),
      retryable: true,
      receivedChars: this.receivedChars,
    });
  }

  /** The error for a stream that ended without `[DONE]` or without a finish reason (`reason`: in the user's language). */
  cutOffError(reason: string, cause?: unknown): ApiError {
    return new ApiError({
      kind: 'cut-off',
      message: t('The reply was cut off: {0}.', reason),
      hint: t('The connection ended before the reply was complete: what arrived is kept; retry for a full reply.'),
      retryable: true,
      receivedChars: this.receivedChars,
      cause,
    });
  }
}
