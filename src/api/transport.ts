// Pinned by `npm run bench -- --only throughput,ttft`: throughput at least the openai SDK's, and the first token within 1 ms of a raw undici read.
import type { Dispatcher, FormData } from 'undici';
import type { Readable } from 'node:stream';
import { apiUrl } from './baseUrl';
import { ApiError, abortedError, isApiError } from './errors';
import { errorFromNetwork, errorFromResponse, headerValue, type Headers } from './httpErrors';
import { redactApiError, redactSecrets } from './redaction';
import { DEFAULT_RETRY, retryDelay, sleep, type RetryPolicy } from './retry';
import type { ApiLogger } from './apiLogger';
import { undici } from './undici/load';
import { usableHeaders, withQuery, type RequestExtras, type RequestExtrasSource } from './requestExtras';
import { t } from './l10n';
import { bodyTooLarge, describeStart, describeType, MAX_JSON_BODY, readText } from './bodyText';

export { bodyTooLarge, MAX_JSON_BODY, readText, type ReadLimit } from './bodyText';

export interface TransportOptions {
  baseUrl: string;
  apiKey: () => Promise<string | undefined> | string | undefined;
  /**
   * Called on the first request (creating a dispatcher loads undici, and may read certificates), then kept; per
   * connect timeout when a request asks for its own (a model's `connectTimeoutSeconds`).
   */
  dispatcher: Dispatcher | ((connectTimeoutMs?: number) => Dispatcher | Promise<Dispatcher>);
  log: ApiLogger;
  retry: RetryPolicy;
  userAgent: string;
  /** Hides registered secrets in server text (the extension's redactor); the key a request sent is hidden anyway. */
  redact?: (text: string) => string;
  /** A POST the service charges for (a chat completion, a video task) was accepted. */
  onCharged?: () => void;
  /** The user's headers and query parameters for the service: sent only to its origin (query: only to API paths). */
  extras?: RequestExtrasSource;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  /** Below /v1, or an absolute URL with `absolute: true`. */
  path: string;
  absolute?: boolean;
  /** Sends `Authorization`; false for signed video addresses, which must never see the key. */
  auth: boolean;
  /**
   * The key as this query parameter instead (`/api/log/token?key=`, a public endpoint that takes it so): only to the
   * service's own origin, hidden in every log line and error like the key of `Authorization`.
   */
  keyQuery?: string;
  body?: unknown;
  /** A `multipart/form-data` body instead of JSON (undici writes its content type, with the boundary). */
  form?: FormData;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Human name for messages, in the user's language: `t('Listing models')`. */
  what: string;
  /** The model the request is for, when there is one: the user's extras can differ per model. */
  model?: string;
  /** The extras already read for this request (a chat merged their body fields): not read again. */
  extras?: RequestExtras;
  /** For this request instead of the dispatcher's: to connect, until the headers, and the longest silence in the body. */
  timeouts?: { connectMs?: number; headersMs?: number; idleMs?: number };
  /** For a JSON answer (`json`): how long it may take in all, from sending to its last byte (retries included). */
  deadlineMs?: number;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Readable;
  url: string;
}

/** An error body is read for its message only: the first 64 KB say it all. */
const MAX_ERROR_BODY = 64 * 1024;
/**
 * A JSON answer (a task, the model list, the account) is a few KB: once the service took as long as the dispatcher
 * waits for headers, its body adds nothing. A gateway that trickles bytes resets the idle timeout with each one; this
 * ends the read anyway.
 */
export const DEFAULT_JSON_DEADLINE_MS = 120_000;

/** HTTP over an explicit undici dispatcher; GETs retry with backoff, POSTs are sent exactly once. */
export class Transport {
  /** By connect timeout (`undefined`: the dispatcher's own). */
  private readonly dispatchers = new Map<number | undefined, Dispatcher>();
  /** The keys requests were sent with: a server that echoes one never gets it past this layer. */
  private readonly sentKeys = new Set<string>();

  constructor(private readonly options: TransportOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  get log(): ApiLogger {
    return this.options.log;
  }

  /** Sends and returns the response when it is 2xx or 3xx; throws an ApiError otherwise. */
  async send(send: SendOptions): Promise<RawResponse> {
    const retryable = send.method === 'GET';
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.sendOnce(send);
      } catch (error) {
        const apiError = this.redactError(isApiError(error) ? error : errorFromNetwork(error, send.path));
        const delay = retryable && !send.signal?.aborted ? retryDelay(attempt, this.options.retry, apiError) : undefined;
        if (delay === undefined) throw apiError;
        this.options.log.warn(`${send.what}: ${apiError.message} — retry ${attempt + 1}/${this.options.retry.retries} in ${delay} ms`);
        await sleep(delay, send.signal);
      }
    }
  }

  /** Sends and parses a JSON answer of at most MAX_JSON_BODY bytes, read whole within `deadlineMs`. */
  async json(send: SendOptions): Promise<unknown> {
    return (await this.jsonResponse(send)).value;
  }

  /** `json`, with the answer's headers. */
  async jsonResponse(send: SendOptions): Promise<{ value: unknown; headers: Headers }> {
    const deadlineMs = send.deadlineMs ?? DEFAULT_JSON_DEADLINE_MS;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), deadlineMs);
    const signal = send.signal ? AbortSignal.any([send.signal, deadline.signal]) : deadline.signal;
    let response: RawResponse;
    let text: string;
    try {
      response = await this.send({ ...send, signal });
      text = await this.readJsonText(response, { signal, what: send.what });
    } catch (error) {
      if (deadline.signal.aborted && !send.signal?.aborted) throw deadlineError(send, deadlineMs, error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
    try {
      return { value: JSON.parse(text), headers: response.headers };
    } catch (cause) {
      throw new ApiError({
        kind: 'invalid-response',
        status: response.status,
        message: t('{0}: the service answered with something that is not JSON ({1}).', send.what, this.quote(response, text)),
        hint: t('The base URL may point at a web page rather than the API.'),
        retryable: false,
        cause,
      });
    }
  }

  /** The whole body of a JSON answer as text; fails as soon as it is larger than MAX_JSON_BODY. */
  async readJsonText(response: RawResponse, send: Pick<SendOptions, 'signal' | 'what'>, body: AsyncIterable<Uint8Array> = response.body): Promise<string> {
    const declared = Number(headerValue(response.headers, 'content-length'));
    if (declared > MAX_JSON_BODY) {
      response.body.destroy();
      throw bodyTooLarge(send.what, declared);
    }
    return readText(body, send.signal, { limit: MAX_JSON_BODY, what: send.what });
  }

  /**
   * What arrived instead of what was expected, for a message that quotes it (`text/html, starting "<html>…"`): the
   * service's answer with the keys hidden; another host's (a CDN, a redirect target) only by its type, since nothing
   * it says may reach a message, a model or a saved chat (its start goes to the log, redacted).
   */
  quote(response: Pick<RawResponse, 'headers' | 'url'>, text: string): string {
    const contentType = headerValue(response.headers, 'content-type');
    const described = describeStart(this.redact(text), contentType);
    if (this.isService(response.url)) return described;
    this.options.log.info(`${redactUrl(response.url)} answered ${described}`);
    return describeType(contentType);
  }

  /** Whether `url` is at the service's origin (the only one whose answers may be quoted). */
  isService(url: string): boolean {
    return sameOrigin(url, this.options.baseUrl);
  }

  /** Server text with the keys this transport sent, and every registered secret, hidden. */
  redact(text: string): string {
    const redacted = redactSecrets(text, this.sentKeys);
    return this.options.redact ? this.options.redact(redacted) : redacted;
  }

  redactError(error: ApiError): ApiError {
    return redactApiError(error, (text) => this.redact(text));
  }

  private async sendOnce(send: SendOptions): Promise<RawResponse> {
    if (send.signal?.aborted) throw abortedError(send.signal.reason);
    const address = send.absolute ? send.path : apiUrl(this.options.baseUrl, send.path);
    const extras = this.isService(address) ? (send.extras ?? (await this.extras(send.model))) : {};
    for (const secret of extras.secrets ?? []) this.sentKeys.add(secret);
    const url = await this.withKeyQuery(send.absolute ? address : withQuery(address, extras.query), send.keyQuery);
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      ...usableHeaders(extras.headers).headers,
      accept: send.accept ?? 'application/json',
      ...send.headers,
    };
    if (send.auth) {
      const key = await this.options.apiKey();
      if (!key) {
        throw new ApiError({ kind: 'no-key', message: t('No API key is set.'), hint: t('Set your API key first.') });
      }
      headers.authorization = `Bearer ${key}`;
      this.sentKeys.add(key);
    }
    let payload: string | FormData | undefined = send.form;
    if (payload === undefined && send.body !== undefined) {
      payload = JSON.stringify(send.body);
      headers['content-type'] = 'application/json';
    }
    const dispatcher = await this.currentDispatcher(send.timeouts?.connectMs);
    const started = Date.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await undici().request(url, {
        method: send.method,
        headers,
        body: payload,
        dispatcher,
        signal: send.signal,
        ...(send.timeouts?.headersMs ? { headersTimeout: send.timeouts.headersMs } : {}),
        ...(send.timeouts?.idleMs ? { bodyTimeout: send.timeouts.idleMs } : {}),
      });
    } catch (error) {
      if (send.signal?.aborted) throw abortedError(send.signal.reason);
      throw errorFromNetwork(error, url);
    }
    this.options.log.debug(`${send.method} ${redactUrl(url)} → ${response.statusCode} in ${Date.now() - started} ms`);
    if (response.statusCode >= 400) {
      const text = await readText(response.body, send.signal, { limit: MAX_ERROR_BODY, truncate: true }).catch(() => '');
      if (this.isService(url)) throw errorFromResponse(response.statusCode, response.headers, text, send.what);
      this.options.log.info(
        `${redactUrl(url)} answered HTTP ${response.statusCode}: ${describeStart(this.redact(text), headerValue(response.headers, 'content-type'))}`,
      );
      throw errorFromResponse(response.statusCode, response.headers, '', send.what);
    }
    if (send.method === 'POST' && send.auth) this.options.onCharged?.();
    return { status: response.statusCode, headers: response.headers, body: response.body, url };
  }

  /** `url` with the key as the query parameter `name`; refused for any origin but the service's. */
  private async withKeyQuery(url: string, name: string | undefined): Promise<string> {
    if (name === undefined) return url;
    // Another origin gets no key, as the key store hands out none for an origin the user did not choose.
    const key = this.isService(url) ? await this.options.apiKey() : undefined;
    if (!key) throw new ApiError({ kind: 'no-key', message: t('No API key is set.'), hint: t('Set your API key first.') });
    this.sentKeys.add(key);
    const withKey = new URL(url);
    withKey.searchParams.set(name, key);
    // The key as a query string spells it, so that a text quoting the address has it hidden too.
    this.sentKeys.add(new URLSearchParams({ k: key }).toString().slice(2));
    this.sentKeys.add(encodeURIComponent(key));
    return withKey.toString();
  }

  /** The user's extras for a request; a source that fails costs the extras, never the request. */
  async extras(model: string | undefined): Promise<RequestExtras> {
    if (!this.options.extras) return {};
    try {
      return await this.options.extras(model);
    } catch (error) {
      this.options.log.warn(
        `The custom headers and parameters could not be read, sending without them: ${error instanceof Error ? error.message : String(error)}`,
      );
      return {};
    }
  }

  private async currentDispatcher(connectMs: number | undefined): Promise<Dispatcher> {
    const option = this.options.dispatcher;
    if (typeof option !== 'function') return option;
    const made = this.dispatchers.get(connectMs);
    if (made) return made;
    try {
      const dispatcher = await option(connectMs);
      this.dispatchers.set(connectMs, dispatcher);
      return dispatcher;
    } catch (cause) {
      if (isApiError(cause)) throw cause;
      // Made on the first request rather than with the client: a proxy undici refuses fails here, once, not retried.
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new ApiError({
        kind: 'network',
        message: t('The proxy settings cannot be used: {0}', detail),
        hint: t('Check http.proxy, or HTTPS_PROXY/HTTP_PROXY in the environment.'),
        retryable: false,
        mayHaveReachedServer: false,
        cause,
      });
    }
  }
}

function deadlineError(send: Pick<SendOptions, 'what'>, deadlineMs: number, cause: unknown): ApiError {
  const span = deadlineMs < 1000 ? `${deadlineMs} ms` : `${Math.round(deadlineMs / 1000)} s`;
  return new ApiError({
    kind: 'timeout',
    message: t('{0}: the service did not finish its answer within {1}.', send.what, span),
    hint: t('The service, or a proxy in between, sends its answer too slowly: try again later.'),
    retryable: true,
    mayHaveReachedServer: true,
    cause,
  });
}

function sameOrigin(url: string, baseUrl: string): boolean {
  try {
    return new URL(url).origin === new URL(baseUrl).origin;
  } catch {
    return false;
  }
}

/** Signed URLs carry credentials in the query string: logs show only origin and path. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '<invalid url>';
  }
}

export { DEFAULT_RETRY };
