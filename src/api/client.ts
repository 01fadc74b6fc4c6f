import type { Dispatcher } from 'undici';
import { AccountReader } from './account/accountReader';
import { normalizeBaseUrl } from './baseUrl';
import type { ChatCompletion, ChatStreamEvent, Usage } from './chat/events';
import { validateChatRequest, type ChatRequest } from './chat/request';
import { completionSchema, toUsage } from './chat/schemas';
import { openOnRead } from './chat/openOnRead';
import { peekAnswer } from './chat/answerKind';
import { checkToolCallCount } from './chat/replyBounds';
import { decodeChatStream } from './chat/sse';
import { ThinkSplitter } from './chat/thinkSplitter';
import { completionEvents, notAStream, wholeAnswerEvents } from './chat/wholeAnswer';
import { FirstTokenDeadline, withFirstTokenTimeout } from './chat/firstTokenTimeout';
import { DEFAULT_STREAM_TIMEOUTS, type StreamTimeouts } from './chat/streamTimeouts';
import { createDispatcher } from './dispatcher';
import { ApiError, isApiError } from './errors';
import { gatewayRequestId, headerValue } from './httpErrors';
import { silentLogger, type ApiLogger } from './apiLogger';
import { parseModelList, type ModelInfo } from './models';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { Transport } from './transport';
import { withExtraBody, type RequestExtrasSource } from './requestExtras';
import { downloadVideo, type DownloadOptions, type DownloadResult } from './video/download';
import { normalizeVideoTask } from './video/normalize';
import { validateVideoCreateRequest } from './video/request';
import { validateInputReference, videoForm } from './video/inputReference';
import type { VideoCreateRequest, VideoTask } from './video/task';
import './zodLocale';
import { t } from './l10n';
import type { ChargedRequestRecord } from './charges';

export interface ClientOptions {
  baseUrl: string;
  apiKey: () => Promise<string | undefined> | string | undefined;
  /** A dispatcher, or a function making one on the first request (making one loads undici). Default: a direct one made then. */
  dispatcher?: Dispatcher | ((connectTimeoutMs?: number) => Dispatcher | Promise<Dispatcher>);
  log?: ApiLogger;
  retry?: Partial<RetryPolicy>;
  userAgent?: string;
  /** Hides registered secrets in what the server says (the key of each request is hidden in any case). */
  redact?: (text: string) => string;
  /** A request the service charges for (a chat completion, a video task) was accepted. */
  onCharged?: () => void;
  /** A charged request ended: a chat completion once its answer is read (or abandoned), a video task once created. */
  onRequestCharged?: (record: ChargedRequestRecord) => void;
  /** False for a model declared unable to stream: it is asked without `stream`, and its whole answer becomes the events. */
  streams?: (model: string) => boolean;
  /** How long a model's streamed answer may take to begin, and to pause once begun (a half-open connection). */
  streamTimeouts?: (model: string) => StreamTimeouts;
  /** The user's headers, query parameters and chat body fields for this service, per model. */
  extras?: RequestExtrasSource;
}

/** What a gateway that refuses a streaming feature for a model answers (SERVICE.md, "gateway quirks"). */
type StreamRefusal = 'stream_options' | 'stream';

/** The client of the Promptreel service. Plain Node: no `vscode` here. Every call takes an AbortSignal. */
export class PromptreelClient {
  readonly baseUrl: string;
  /** The key's quota and expiry, the display unit and the prices (SERVICE.md, "Account"). */
  readonly account: AccountReader;
  private readonly transport: Transport;
  private readonly log: ApiLogger;
  private readonly streams: (model: string) => boolean;
  private readonly streamTimeouts: (model: string) => StreamTimeouts;
  /** Per model, what this service refused once: not sent again (`stream_options`), or not streamed at all. */
  private readonly refused = new Map<string, Set<StreamRefusal>>();
  private readonly onRequestCharged: (record: ChargedRequestRecord) => void;

  constructor(options: ClientOptions) {
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    this.log = options.log ?? silentLogger;
    this.streams = options.streams ?? (() => true);
    this.streamTimeouts = options.streamTimeouts ?? (() => DEFAULT_STREAM_TIMEOUTS);
    this.onRequestCharged = (record) => {
      try {
        options.onRequestCharged?.(record);
      } catch (error) {
        this.log.warn(`A charge record was not taken: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    this.transport = new Transport({
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      dispatcher: options.dispatcher ?? ((connectTimeoutMs) => createDispatcher({ service: this.baseUrl, ...(connectTimeoutMs ? { connectTimeoutMs } : {}) })),
      log: this.log,
      retry: { ...DEFAULT_RETRY, ...options.retry },
      userAgent: options.userAgent ?? 'Promptreel',
      ...(options.redact ? { redact: options.redact } : {}),
      ...(options.onCharged ? { onCharged: options.onCharged } : {}),
      ...(options.extras ? { extras: options.extras } : {}),
    });
    this.account = new AccountReader(this.transport);
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const raw = await this.transport.json({ method: 'GET', path: 'models', auth: true, signal, what: t('Listing models') });
    const models = parseModelList(raw);
    if (!models) throw invalidResponse(t('Listing models: the model list has an unexpected shape.'));
    return models;
  }

  async createChatCompletion(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion> {
    const validated = validateChatRequest(request);
    const extras = await this.transport.extras(validated.model);
    const body = chatBody(validated, extras.body, false);
    const answer = await this.transport.jsonResponse({
      method: 'POST',
      path: 'chat/completions',
      auth: true,
      body,
      signal,
      what: t('The chat request'),
      extras,
    });
    const requestId = gatewayRequestId(answer.headers);
    const completion = withRequestId(parseCompletion(answer.value), requestId);
    this.onRequestCharged({
      kind: 'chat',
      model: validated.model,
      at: Date.now(),
      stream: false,
      ...(requestId ? { requestId } : {}),
      ...(completion.usage ? { usage: completion.usage } : {}),
    });
    return completion;
  }

  /**
   * Streams a chat completion. A gateway that refuses `stream_options` (or streaming) for a model is asked once more
   * without it, and this client remembers that for the model: the refusal came before anything was charged. Each kind
   * of refusal is asked again at most once per call: the same refusal twice is the answer.
   */
  streamChatCompletion(request: ChatRequest, signal?: AbortSignal): AsyncIterable<ChatStreamEvent> {
    const transport = this.transport;
    const log = this.log;
    return openOnRead(async () => {
      const validated = validateChatRequest(request);
      const askedAgain = new Set<StreamRefusal>();
      for (;;) {
        const refused = this.refusedFor(validated.model);
        if (refused.has('stream') || !this.streams(validated.model)) return eventsOf(completionEvents(await this.createChatCompletion(request, signal)));
        const extras = await transport.extras(validated.model);
        const body = chatBody(validated, extras.body, true, refused);
        const timeouts = this.streamTimeouts(validated.model);
        const deadline = new FirstTokenDeadline(validated.model, timeouts.firstTokenMs);
        let response: Awaited<ReturnType<Transport['send']>>;
        try {
          response = await transport.send({
            method: 'POST',
            path: 'chat/completions',
            auth: true,
            body,
            accept: 'text/event-stream',
            signal,
            what: t('The chat request'),
            extras,
            timeouts: { headersMs: timeouts.firstTokenMs, idleMs: timeouts.idleMs, ...(timeouts.connectMs ? { connectMs: timeouts.connectMs } : {}) },
          });
        } catch (error) {
          const refusal = streamRefusal(error, body);
          if (!refusal || askedAgain.has(refusal)) throw error;
          askedAgain.add(refusal);
          log.info(`${validated.model} at ${this.baseUrl}: the service refused \`${refusal}\`; asking again without it (remembered for this model).`);
          this.refused.set(validated.model, refused.add(refusal));
          continue;
        }
        // An event stream, a whole JSON answer (a gateway that ignored `stream: true`), or a proxy's page or text.
        const answer = response.body;
        const contentType = headerValue(response.headers, 'content-type');
        const requestId = gatewayRequestId(response.headers);
        const settle = (events: AsyncIterable<ChatStreamEvent>) => this.reportingCharge(events, validated.model, requestId);
        const { kind, peeked } = await deadline.race(peekAnswer(answer, contentType), () => answer.destroy());
        if (kind === 'events') {
          const events = withFirstTokenTimeout(decodeChatStream(peeked.chunks, { signal, log, redact: (text) => transport.redact(text) }), deadline);
          return settle(requestId ? afterRequestId(requestId, events) : events);
        }
        const text = await transport.readJsonText(response, { signal, what: t('The chat request') }, peeked.chunks);
        const quoted = () => transport.quote(response, text);
        try {
          if (kind !== 'json') throw notAStream(quoted());
          return settle(eventsOf(wholeAnswerEvents(text, contentType, (raw) => withRequestId(parseCompletion(raw), requestId), quoted)));
        } catch (error) {
          throw isApiError(error) ? transport.redactError(error) : error;
        }
      }
    });
  }

  /** Passes the events on, and reports the charge once the answer ends or is abandoned, with the usage it carried. */
  private async *reportingCharge(events: AsyncIterable<ChatStreamEvent>, model: string, requestId: string | undefined): AsyncGenerator<ChatStreamEvent, void> {
    let usage: Usage | undefined;
    try {
      for await (const event of events) {
        if (event.type === 'usage') usage = event.usage;
        yield event;
      }
    } finally {
      this.onRequestCharged({ kind: 'chat', model, at: Date.now(), stream: true, ...(requestId ? { requestId } : {}), ...(usage ? { usage } : {}) });
    }
  }

  /** What the service refused for this model so far (kept by this client). */
  private refusedFor(model: string): Set<StreamRefusal> {
    return this.refused.get(model) ?? new Set<StreamRefusal>();
  }

  /** Sent exactly once: a retry could create (and charge) a second task. */
  async createVideoTask(request: VideoCreateRequest, signal?: AbortSignal): Promise<VideoTask> {
    const body = videoBody(validateVideoCreateRequest(request));
    // With a first frame: multipart/form-data, as OpenAI's video API takes `input_reference`.
    const form = request.inputReference ? videoForm(body, validateInputReference(request.inputReference)) : undefined;
    let raw: unknown;
    let requestId: string | undefined;
    try {
      const payload = form ? { form } : { body };
      const answer = await this.transport.jsonResponse({
        method: 'POST',
        path: 'videos',
        auth: true,
        ...payload,
        signal,
        what: t('Creating the video task'),
        model: request.model,
      });
      raw = answer.value;
      requestId = gatewayRequestId(answer.headers);
    } catch (error) {
      if (isApiError(error) && error.mayHaveReachedServer && (error.kind === 'network' || error.kind === 'timeout')) {
        throw error.with({
          message: t('The connection was lost after the video request was sent: {0}', error.message),
          hint: t('The task may have been created (and charged). Check the Video Tasks list before you retry.'),
          retryable: false,
        });
      }
      throw error;
    }
    const task = normalizeVideoTask(raw);
    if (!task) throw invalidResponse(t('Creating the video task: the answer carries no task id.'));
    this.log.info(`[video] created task ${task.id} (${task.status})`);
    const seconds = typeof body.seconds === 'string' ? { seconds: body.seconds } : {};
    this.onRequestCharged({ kind: 'video', model: request.model, at: Date.now(), taskId: task.id, ...seconds, ...(requestId ? { requestId } : {}) });
    return requestId ? { ...task, requestId } : task;
  }

  async getVideoTask(id: string, signal?: AbortSignal): Promise<VideoTask> {
    const raw = await this.transport.json({ method: 'GET', path: `videos/${encodeURIComponent(id)}`, auth: true, signal, what: t('Reading the video task') });
    const task = normalizeVideoTask(raw, id);
    if (!task) throw invalidResponse(t('Reading the video task: the answer is not a task.'));
    // A failure reason is the server's text, shown in the tree and notifications.
    return task.error ? { ...task, error: this.transport.redact(task.error) } : task;
  }

  downloadVideo(task: { id: string; videoUrl?: string }, destination: string, options?: DownloadOptions): Promise<DownloadResult> {
    return downloadVideo(this.transport, task, destination, options);
  }
}

export function videoBody(request: VideoCreateRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, prompt: request.prompt };
  if (request.seconds !== undefined && request.seconds !== '') body.seconds = String(request.seconds);
  if (request.moderator !== undefined) body.moderator = request.moderator;
  const metadata = Object.fromEntries(Object.entries(request.metadata ?? {}).filter(([, value]) => value !== undefined));
  if (Object.keys(metadata).length > 0) body.metadata = metadata;
  return body;
}

function parseCompletion(raw: unknown): ChatCompletion {
  const parsed = completionSchema.safeParse(raw);
  if (!parsed.success) throw invalidResponse(t('The chat request: the completion has an unexpected shape.'));
  const choice = parsed.data.choices[0];
  const message = choice.message;
  const splitter = new ThinkSplitter();
  const pieces = [...splitter.push(message?.content ?? ''), ...splitter.flush()];
  const joined = (kind: 'text' | 'reasoning') =>
    pieces
      .filter((piece) => piece.kind === kind)
      .map((piece) => piece.text)
      .join('');
  const reasoning = (message?.reasoning_content ?? message?.reasoning ?? '') + joined('reasoning');
  return {
    ...(parsed.data.id ? { id: parsed.data.id } : {}),
    ...(parsed.data.model ? { model: parsed.data.model } : {}),
    text: joined('text'),
    ...(reasoning ? { reasoning } : {}),
    toolCalls: checkToolCallCount(message?.tool_calls ?? []).map((call, index) => ({
      id: call.id ?? `call_${index}`,
      name: call.function.name,
      arguments: call.function.arguments ?? '',
    })),
    finishReason: choice.finish_reason ?? 'stop',
    ...(parsed.data.usage ? { usage: toUsage(parsed.data.usage) } : {}),
  };
}

function withRequestId(completion: ChatCompletion, requestId: string | undefined): ChatCompletion {
  return requestId ? { ...completion, requestId } : completion;
}

async function* afterRequestId(requestId: string, events: AsyncIterable<ChatStreamEvent>): AsyncGenerator<ChatStreamEvent, void> {
  yield { type: 'request-id', requestId };
  yield* events;
}

async function* eventsOf(events: Iterable<ChatStreamEvent>): AsyncGenerator<ChatStreamEvent, void> {
  yield* events;
}

function invalidResponse(message: string): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message,
    hint: t('The service answered in a way Promptreel does not understand: see the logs.'),
  });
}

/**
 * The body of a chat request: the user's extra fields merged over Promptreel's, then without `stream_options` where
 * it cannot go: in a request that does not stream, or to a model whose service refused it (even when the user's
 * extra fields add it back: asking again with what was refused would be refused again, endlessly).
 */
function chatBody(
  request: ChatRequest,
  extra: Record<string, unknown> | undefined,
  stream: boolean,
  refused: ReadonlySet<StreamRefusal> = new Set(),
): Record<string, unknown> {
  const body: Record<string, unknown> = withExtraBody({ ...request, stream, stream_options: { include_usage: true } }, extra);
  if (!stream || refused.has('stream_options')) delete body.stream_options;
  return body;
}

/** A 400 that names `stream_options` (or, once that is gone, `stream`) as what the gateway does not take. */
function streamRefusal(error: unknown, body: { stream_options?: unknown }): StreamRefusal | undefined {
  if (!isApiError(error) || error.status !== 400) return undefined;
  const said = `${error.param ?? ''} ${error.serverMessage ?? ''}`;
  if (body.stream_options !== undefined && /stream_options/i.test(said)) return 'stream_options';
  if (error.param === 'stream' || /\bstream(ing)?\b.*\bnot supported\b|\bdoes not support stream/i.test(said)) return 'stream';
  return undefined;
}
