import type * as http from 'node:http';
import type { TLSSocket } from 'node:tls';
import { parseMultipart } from './multipart';

export interface RecordedRequest {
  method: string;
  /** The request target as sent: path plus query string, if any. */
  path: string;
  /** Lower-cased names; repeated headers joined with ', '. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON, a MultipartBody for multipart/form-data, else the text; undefined when empty. */
  body: unknown;
  /** Date.now() when the request was read. */
  at: number;
  /** The Bearer key of the Authorization header, if any. */
  key?: string;
  /** Over HTTPS: the common name of the client certificate presented on the connection, if one was. */
  clientCertificate?: string;
}

const maxBodyBytes = 20 * 1024 * 1024;

/** Reads the whole body; a body larger than 20 MB is cut there (the service never needs more). */
export function readBody(request: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    // A client that goes away mid-body still leaves a record of what arrived.
    request.on('error', () => resolve(Buffer.concat(chunks)));
    request.on('close', () => resolve(Buffer.concat(chunks)));
  });
}

export function parseBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const text = raw.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function headersOf(request: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

export function bearerKey(headers: Record<string, string>): string | undefined {
  const match = /^Bearer\s+(.+)$/i.exec(headers['authorization'] ?? '');
  return match ? match[1].trim() : undefined;
}

export async function recordRequest(request: http.IncomingMessage): Promise<RecordedRequest> {
  const headers = headersOf(request);
  const raw = await readBody(request);
  const body = (await parseMultipart(raw, headers['content-type'])) ?? parseBody(raw);
  const record: RecordedRequest = { method: request.method ?? 'GET', path: request.url ?? '/', headers, body, at: Date.now() };
  const key = bearerKey(headers);
  if (key !== undefined) record.key = key;
  const presented = (request.socket as Partial<TLSSocket>).getPeerCertificate?.();
  if (presented && Object.keys(presented).length > 0) record.clientCertificate = String(presented.subject?.CN ?? 'unnamed');
  return record;
}

export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  response.end(text);
}

export function sendText(response: http.ServerResponse, status: number, text: string, contentType: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': String(Buffer.byteLength(text)), ...headers });
  response.end(text);
}

/** Aborted when the response closes: finished, or the client (or stop()) destroyed the socket. */
export function closeSignal(response: http.ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  return controller.signal;
}

/** Waits `ms`, or less if the signal aborts first; resolves true when the full time passed. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits until the signal aborts (a stalled stream: the socket stays open until the client gives up). */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** Writes and, when the socket buffer is full, waits for it to drain; false when the response closed. */
export async function writeWithBackpressure(response: http.ServerResponse, chunk: string | Buffer, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted || response.destroyed) return false;
  if (response.write(chunk)) return true;
  await new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    response.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
  return !signal.aborted;
}
