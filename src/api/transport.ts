import type { Dispatcher } from 'undici';
import type { Readable } from 'node:stream';
import { apiUrl } from './baseUrl';
import { ApiError, abortedError, isApiError } from './errors';
import { errorFromNetwork, errorFromResponse, type Headers } from './httpErrors';
import { DEFAULT_RETRY, retryDelay, sleep, type RetryPolicy } from './retry';
import type { ApiLogger } from './logger';
import { undici } from './undici/load';

export interface TransportOptions {
  baseUrl: string;
  apiKey: () => Promise<string | undefined> | string | undefined;
  /** Called on the first request (creating a dispatcher loads undici), then kept. */
  dispatcher: Dispatcher | (() => Dispatcher);
  log: ApiLogger;
  retry: RetryPolicy;
  userAgent: string;
}

export interface SendOptions {
  method: 'GET' | 'POST';
  /** Below /v1, or an absolute URL with `absolute: true`. */
  path: string;
  absolute?: boolean;
  /** Sends `Authorization`; false for signed video addresses, which must never see the key. */
  auth: boolean;
  body?: unknown;
  accept?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Human name for messages, e.g. "Listing models". */
  what: string;
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: Readable;
  url: string;
}

const MAX_ERROR_BODY = 64 * 1024;

/** HTTP over an explicit undici dispatcher; GETs retry with backoff, POSTs are sent exactly once. */
export class Transport {
  private dispatcher: Dispatcher | undefined;

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
        const apiError = isApiError(error) ? error : errorFromNetwork(error, send.path);
        const delay = retryable && !send.signal?.aborted ? retryDelay(attempt, this.options.retry, apiError) : undefined;
        if (delay === undefined) throw apiError;
        this.options.log.warn(`${send.what}: ${apiError.message} — retry ${attempt + 1}/${this.options.retry.retries} in ${delay} ms`);
        await sleep(delay, send.signal);
      }
    }
  }

  /** Sends and parses a JSON answer. */
  async json(send: SendOptions): Promise<unknown> {
    const response = await this.send(send);
    const text = await readText(response.body, send.signal);
    try {
      return JSON.parse(text);
    } catch (cause) {
      throw new ApiError({
        kind: 'invalid-response',
        status: response.status,
        message: `${send.what}: the service answered with something that is not JSON.`,
        hint: 'The base URL may point at a web page rather than the API.',
        retryable: false,
        cause,
      });
    }
  }

  private async sendOnce(send: SendOptions): Promise<RawResponse> {
    if (send.signal?.aborted) throw abortedError(send.signal.reason);
    const url = send.absolute ? send.path : apiUrl(this.options.baseUrl, send.path);
    const headers: Record<string, string> = { 'user-agent': this.options.userAgent, accept: send.accept ?? 'application/json', ...send.headers };
    if (send.auth) {
      const key = await this.options.apiKey();
      if (!key) {
        throw new ApiError({ kind: 'no-key', message: 'No API key is set.', hint: 'Set your API key first.' });
      }
      headers.authorization = `Bearer ${key}`;
    }
    let payload: string | undefined;
    if (send.body !== undefined) {
      payload = JSON.stringify(send.body);
      headers['content-type'] = 'application/json';
    }
    const dispatcher = this.currentDispatcher();
    const started = Date.now();
    let response: Dispatcher.ResponseData;
    try {
      response = await undici().request(url, {
        method: send.method,
        headers,
        body: payload,
        dispatcher,
        signal: send.signal,
      });
    } catch (error) {
      if (send.signal?.aborted) throw abortedError(send.signal.reason);
      throw errorFromNetwork(error, url);
    }
    this.options.log.debug(`${send.method} ${redactUrl(url)} → ${response.statusCode} in ${Date.now() - started} ms`);
    if (response.statusCode >= 400) {
      const text = await readText(response.body, send.signal, MAX_ERROR_BODY).catch(() => '');
      throw errorFromResponse(response.statusCode, response.headers, text, send.what);
    }
    return { status: response.statusCode, headers: response.headers, body: response.body, url };
  }

  private currentDispatcher(): Dispatcher {
    if (this.dispatcher) return this.dispatcher;
    const option = this.options.dispatcher;
    if (typeof option !== 'function') return (this.dispatcher = option);
    try {
      this.dispatcher = option();
    } catch (cause) {
      // Made on the first request rather than with the client: a proxy undici refuses fails here, once, not retried.
      const detail = cause instanceof Error ? cause.message : String(cause);
      throw new ApiError({ kind: 'network', message: `The proxy settings cannot be used: ${detail}`, hint: 'Check http.proxy, or HTTPS_PROXY/HTTP_PROXY in the environment.', retryable: false, mayHaveReachedServer: false, cause });
    }
    return this.dispatcher;
  }
}

/** Reads a body as UTF-8 text, at most `limit` bytes (the rest is discarded). */
export async function readText(body: Readable, signal?: AbortSignal, limit = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size < limit) {
        chunks.push(chunk);
        size += chunk.length;
      }
    }
  } catch (error) {
    if (signal?.aborted) throw abortedError(signal.reason);
    throw errorFromNetwork(error, 'the response body');
  }
  return Buffer.concat(chunks).toString('utf8');
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
