import { ApiError } from '../errors';
import { hintForStatus } from '../httpErrors';
import { extractRequestId } from '../errorBodies';
import type { ApiLogger } from '../logger';
import { ChunkTemplate } from './chunkTemplate';
import type { ChatStreamEvent, ToolCall } from './events';
import { chunkSchema, toUsage, type ChatChunk } from './schemas';
import { ThinkSplitter } from './thinkSplitter';

/** How many times one stream may set up a chunk template (a layout that keeps changing is not worth it). */
const MAX_TEMPLATES = 16;

/**
 * Turns the `data:` payloads of a chat completion stream into typed events. Synchronous and allocation-light:
 * it runs once per chunk on the hot path. Every chunk is validated by `chunkSchema`; most skip `JSON.parse` through a
 * ChunkTemplate. Throws an ApiError for a mid-stream `{"error": …}`.
 */
export class ChatStreamDecoder {
  private readonly think = new ThinkSplitter();
  private readonly toolCalls = new Map<number, ToolCall>();
  private text = '';
  private finishReason: string | undefined;
  private sawDone = false;
  private template: ChunkTemplate | undefined;
  private templatesLeft = MAX_TEMPLATES;
  /** Once text came out of the `<think>` splitter, it passes everything through: it is bypassed from then on. */
  private answering = false;

  constructor(private readonly log?: ApiLogger) {}

  get done(): boolean {
    return this.sawDone;
  }

  get receivedText(): string {
    return this.text;
  }

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  /** Decodes one `data:` payload, appending its events to `out`. */
  accept(data: string, out: ChatStreamEvent[]): void {
    if (data === '[DONE]') {
      this.sawDone = true;
      this.flushThink(out);
      return;
    }
    let json: unknown = this.template?.match(data);
    const fromTemplate = json !== undefined;
    if (!fromTemplate) {
      try {
        json = JSON.parse(data);
      } catch {
        this.log?.warn(`[chat] dropped a stream event that is not JSON: ${data.slice(0, 80)}`);
        return;
      }
    }
    const parsed = chunkSchema.safeParse(json);
    if (!parsed.success) {
      this.log?.warn(`[chat] dropped a stream chunk of unexpected shape: ${parsed.error.issues[0]?.message ?? ''}`);
      return;
    }
    if (!fromTemplate) this.learnLayout(data, parsed.data);
    this.decodeChunk(parsed.data, out);
  }

  private learnLayout(data: string, chunk: ChatChunk): void {
    if (this.templatesLeft === 0) return;
    const template = ChunkTemplate.from(data, chunk);
    if (!template) return;
    this.template = template;
    this.templatesLeft--;
  }

  private decodeChunk(chunk: ChatChunk, out: ChatStreamEvent[]): void {
    if (chunk.error) throw this.streamError(chunk.error);
    const choice = chunk.choices?.[0];
    if (choice) {
      const delta = choice.delta;
      if (delta) {
        if (delta.role) out.push({ type: 'role', role: delta.role });
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (reasoning) out.push({ type: 'reasoning', text: reasoning });
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
      this.text += content;
      out.push({ type: 'text', text: content });
      return;
    }
    for (const piece of this.think.push(content)) {
      if (piece.kind === 'text') {
        this.answering = true;
        this.text += piece.text;
        out.push({ type: 'text', text: piece.text });
      } else {
        out.push({ type: 'reasoning', text: piece.text });
      }
    }
  }

  private pushToolCalls(fragments: NonNullable<NonNullable<NonNullable<ChatChunk['choices']>[number]['delta']>['tool_calls']>, out: ChatStreamEvent[]): void {
    for (const fragment of fragments) {
      const index = fragment.index ?? 0;
      let call = this.toolCalls.get(index);
      if (!call) {
        call = { id: '', name: '', arguments: '' };
        this.toolCalls.set(index, call);
      }
      if (fragment.id) call.id = fragment.id;
      const name = fragment.function?.name ?? undefined;
      if (name) call.name += name;
      const argumentsDelta = fragment.function?.arguments ?? '';
      call.arguments += argumentsDelta;
      out.push({ type: 'tool-call', index, id: fragment.id ?? undefined, name, argumentsDelta });
    }
  }

  private flushThink(out: ChatStreamEvent[]): void {
    for (const piece of this.think.flush()) {
      if (piece.kind === 'text') this.text += piece.text;
      out.push({ type: piece.kind === 'text' ? 'text' : 'reasoning', text: piece.text });
    }
  }

  private streamError(error: NonNullable<ChatChunk['error']>): ApiError {
    const message = typeof error === 'string' ? error : error.message;
    const code = typeof error === 'string' || error.code === null || error.code === undefined ? undefined : String(error.code);
    const param = typeof error === 'string' ? undefined : error.param ?? undefined;
    const status = code && /^\d{3}$/.test(code) ? Number(code) : undefined;
    return new ApiError({
      kind: 'stream',
      status,
      code,
      type: typeof error === 'string' ? undefined : error.type ?? undefined,
      param,
      serverMessage: message,
      requestId: extractRequestId(message),
      message: `The service reported an error mid-stream: ${message ?? 'no details'}`,
      hint: status ? hintForStatus(status, code, param) : 'The reply was interrupted by the service: retry.',
      retryable: true,
      partialText: this.text,
    });
  }

  /** The error for a stream that ended without `[DONE]` or without a finish reason. */
  cutOffError(reason: string, cause?: unknown): ApiError {
    return new ApiError({
      kind: 'cut-off',
      message: `The reply was cut off: ${reason}.`,
      hint: 'The connection ended before the reply was complete: what arrived is kept; retry for a full reply.',
      retryable: true,
      partialText: this.text,
      cause,
    });
  }
}
