// Pinned by `npm run bench -- --only throughput,ttft`: throughput at least the openai SDK's, and the first token within 1 ms of a raw undici read.
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createParser, type EventSourceParser } from 'eventsource-parser';
import { ApiError, abortedError, isApiError } from '../errors';
import { redactApiError } from '../redaction';
import type { ApiLogger } from '../apiLogger';
import { ChatStreamDecoder } from './decoder';
import type { ChatStreamEvent } from './events';
import { ReadableChunks } from './readableChunks';
import { t } from '../l10n';

/**
 * Reads an SSE body (any chunking, LF/CR/CRLF, comments, multi-line data, `event:` lines) and yields chat events.
 * Consecutive text (or reasoning) deltas that arrive in one network read come out as one event: nothing waits for
 * them, and a reader does one step per read rather than one per chunk. Ends normally only after `[DONE]` and a finish reason; any other end is a "cut off" ApiError carrying the text so far.
 */
export function decodeChatStream(
  body: AsyncIterable<Uint8Array>,
  options: { signal?: AbortSignal; log?: ApiLogger; redact?: (text: string) => string } = {},
): AsyncGenerator<ChatStreamEvent, void, undefined> {
  return new ChatEventStream(body, options.signal, options.log, options.redact);
}

/**
 * Characters one SSE event (its lines up to the blank line) may take. Chunks are a few hundred bytes; a gateway
 * that sends a whole reply as one event stays far below this. Past it the stream is a fault, not kept in memory.
 */
export const MAX_SSE_EVENT_CHARS = 8 * 1024 * 1024;

type Result = IteratorResult<ChatStreamEvent, void>;

function isReadable(body: AsyncIterable<Uint8Array>): body is Readable {
  return body instanceof Readable;
}
const END: Result = Object.freeze({ value: undefined, done: true });

/**
 * The async generator behind `decodeChatStream`, written out by hand: one network read carries hundreds of events,
 * and handing each buffered event over as an already-settled promise costs about half of what an `async function*`
 * `yield` does. Behaves like the generator it replaces: events in order, then one error or the end.
 */
class ChatEventStream implements AsyncGenerator<ChatStreamEvent, void, undefined> {
  private readonly decoder: ChatStreamDecoder;
  private readonly text = new StringDecoder('utf8');
  private readonly parser: EventSourceParser;
  private readonly source: AsyncIterator<Uint8Array>;
  private readonly queue: ChatStreamEvent[] = [];
  private head = 0;
  private failure: unknown;
  /** reading: the body is open; ended: no more bytes, final checks pending; closed: nothing more to say. */
  private phase: 'reading' | 'ended' | 'closed' = 'reading';
  private inFlight: Promise<Result> | undefined;
  private firstText = true;
  /** Characters fed since the last complete event (approximately: counted per network read). */
  private sinceLastEvent = 0;

  constructor(
    body: AsyncIterable<Uint8Array>,
    private readonly signal: AbortSignal | undefined,
    log: ApiLogger | undefined,
    private readonly redact: ((text: string) => string) | undefined,
  ) {
    this.decoder = new ChatStreamDecoder(log, true);
    this.source = isReadable(body) ? new ReadableChunks(body) : body[Symbol.asyncIterator]();
    this.parser = createParser({
      onEvent: (event) => {
        this.sinceLastEvent = 0;
        if (this.failure !== undefined || this.decoder.done) return;
        try {
          this.decoder.accept(event.data, this.queue);
        } catch (error) {
          this.failure = error;
        }
      },
    });
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<Result> {
    if (this.head < this.queue.length) return Promise.resolve({ value: this.queue[this.head++], done: false });
    if (this.phase === 'closed') return Promise.resolve(END);
    if (this.inFlight) return this.inFlight.then(() => this.next());
    // Errors leave here with the server's text redacted (a key echoed in a mid-stream error goes no further).
    const pulled = this.redact ? this.pull().catch((error: unknown) => Promise.reject(this.redacted(error))) : this.pull();
    this.inFlight = pulled;
    const clear = () => {
      if (this.inFlight === pulled) this.inFlight = undefined;
    };
    pulled.then(clear, clear);
    return pulled;
  }

  /** The consumer stopped early (`break`): the body is released, which closes its connection. */
  async return(): Promise<Result> {
    await this.close();
    return END;
  }

  async throw(error: unknown): Promise<Result> {
    await this.close();
    throw error;
  }

  /** Reads until at least one event is queued, the body ends, or something fails. Called with an empty queue. */
  private async pull(): Promise<Result> {
    this.queue.length = 0;
    this.head = 0;
    while (this.phase === 'reading') {
      if (this.failure !== undefined) {
        await this.close();
        throw this.readingError(this.failure);
      }
      if (this.decoder.done) {
        // As a `break` out of a for-await loop would: the rest of the body is not read, its connection is freed.
        await this.releaseSource();
        this.phase = 'ended';
        break;
      }
      try {
        const step = await this.source.next();
        if (step.done) {
          // Ends the last line and event: a trailing CR is otherwise held back waiting for a possible LF.
          if (!this.decoder.done) this.feed(`${this.text.end()}\n\n`);
          this.phase = 'ended';
        } else {
          this.feed(this.text.write(step.value));
        }
      } catch (error) {
        throw this.readingError(error);
      }
      if (this.queue.length > 0) return { value: this.queue[this.head++], done: false };
    }
    if (this.phase === 'closed') return END;
    this.phase = 'closed';
    if (this.failure !== undefined) throw this.failure;
    if (!this.decoder.done) throw this.decoder.cutOffError(t('the stream ended without [DONE]'));
    if (!this.decoder.finished) throw this.decoder.cutOffError(t('the stream ended without a finish reason'));
    return END;
  }

  private redacted(error: unknown): unknown {
    return this.redact && isApiError(error) ? redactApiError(error, this.redact) : error;
  }

  private feed(text: string): void {
    this.sinceLastEvent += text.length;
    if (this.firstText && text.length > 0) {
      this.firstText = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte order mark is not part of the stream
    }
    this.parser.feed(text);
    this.decoder.settle();
    if (this.sinceLastEvent > MAX_SSE_EVENT_CHARS && this.failure === undefined) this.failure = eventTooLarge(this.sinceLastEvent);
  }

  /** What the reading loop of the generator turned an error into: aborts and ApiErrors as they are, the rest a cut. */
  private readingError(error: unknown): unknown {
    this.phase = 'closed';
    if (this.signal?.aborted) return abortedError(this.signal.reason);
    if (isApiError(error)) return error;
    const code = (error as { code?: unknown } | null)?.code;
    return this.decoder.cutOffError(code === 'UND_ERR_BODY_TIMEOUT' ? t('the service stopped sending') : t('the connection was closed'), error);
  }

  private async close(): Promise<void> {
    this.queue.length = 0;
    this.head = 0;
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    await this.releaseSource();
  }

  private async releaseSource(): Promise<void> {
    await this.source.return?.()?.catch(() => undefined);
  }
}

function eventTooLarge(chars: number): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: t(
      'The chat request: the service sent {0} MB without ending an event (Promptreel reads at most {1} MB per event).',
      (chars / (1024 * 1024)).toFixed(1),
      MAX_SSE_EVENT_CHARS / (1024 * 1024),
    ),
    hint: t('The answer is not a chat event stream Promptreel can read: check promptreel.baseUrl, then see the logs.'),
    retryable: false,
  });
}
