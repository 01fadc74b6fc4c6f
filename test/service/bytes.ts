import * as fs from 'node:fs';
import type * as http from 'node:http';
import * as path from 'node:path';
import { writeWithBackpressure, pause } from './httpHelpers';
import { filmClipBytes, type FilmClip } from './filmClips';
import type { CdnScenario } from './scenario';

/** The bytes of a video: the committed sample, or a large deterministic stream for benchmarks. */
export interface ByteSource {
  readonly size: number;
  /** At most `patternPeriod` bytes from `offset`; `length` never crosses `size`. */
  slice(offset: number, length: number): Buffer;
}

const patternPeriod = 64 * 1024;
let pattern: Buffer | undefined;

function patternBuffer(): Buffer {
  if (!pattern) {
    // Twice the period, so that any slice of up to one period starting inside the first period is contiguous.
    pattern = Buffer.alloc(patternPeriod * 2);
    for (let i = 0; i < pattern.length; i++) {
      const j = i % patternPeriod;
      pattern[i] = (j * 7 + (j >> 8) * 13) & 0xff;
    }
  }
  return pattern;
}

/** The deterministic bytes served when `cdn.sizeBytes` is set (for checking a benchmark download). */
export function patternBytes(offset: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let done = 0; done < length;) {
    const n = Math.min(patternPeriod, length - done);
    const start = (offset + done) % patternPeriod;
    patternBuffer().copy(out, done, start, start + n);
    done += n;
  }
  return out;
}

let sample: Buffer | undefined;

/** Where the fixture is, from out/test/service (compiled) or test/service (ts-node and the like). */
export function samplePath(): string {
  const candidates = [path.join(__dirname, 'fixtures', 'sample.mp4'), path.resolve(__dirname, '..', '..', '..', 'test', 'service', 'fixtures', 'sample.mp4')];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`sample.mp4 not found (looked in ${candidates.join(', ')})`);
  return found;
}

export function sampleBytes(): Buffer {
  sample ??= fs.readFileSync(samplePath());
  return sample;
}

/** What a task's file is: the pattern when `cdn.sizeBytes` is set, else the task's film clip, else the sample. */
export function byteSourceFor(cdn: CdnScenario, clip: FilmClip | null = null): ByteSource {
  if (cdn.sizeBytes === null) {
    const bytes = clip ? filmClipBytes(clip) : sampleBytes();
    return { size: bytes.length, slice: (offset, length) => bytes.subarray(offset, offset + length) };
  }
  const size = cdn.sizeBytes;
  return {
    size,
    slice: (offset, length) => {
      const start = offset % patternPeriod;
      return patternBuffer().subarray(start, start + length);
    },
  };
}

type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/** One `bytes=` range; anything else (several ranges, other units) is ignored and the full body sent. */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'full' };
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || end < start) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}

export interface ServeOptions {
  contentLength: boolean;
  bytesPerSecond: number | null;
  signal: AbortSignal;
  /** Close the connection after this many body bytes (the headers promised more). */
  cutAfterBytes?: number | null;
}

/**
 * A 200 that is not the video: what a login wall, a gateway error or a mislabelled bucket object sends; with
 * `page-quoting-key`, an error page that repeats the key of the request (`key`, or `anonymous` without one).
 */
export function sendNotAVideo(response: http.ServerResponse, answer: Exclude<CdnScenario['answer'], 'video'>, key?: string): void {
  const html = '<!DOCTYPE html><html><head><title>Sign in - Object Storage</title></head><body><form>Sign in to continue</form></body></html>';
  const [type, body] =
    answer === 'json-error'
      ? ['application/json', JSON.stringify({ error: { message: 'video not ready', type: 'invalid_request_error', code: 'not_ready' } })]
      : answer === 'page-quoting-key'
        ? ['text/html; charset=utf-8', `<html><body><h1>Session expired</h1><p>The session of ${key ?? 'anonymous'} has expired.</p></body></html>`]
        : [answer === 'html-page' ? 'text/html; charset=utf-8' : 'application/octet-stream', html];
  response.writeHead(200, { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

/** Sends a byte source (200, or 206/416 for Range), streamed with backpressure and an optional throttle. */
export async function serveBytes(request: http.IncomingMessage, response: http.ServerResponse, source: ByteSource, options: ServeOptions): Promise<void> {
  const range = parseRange(request.headers.range, source.size);
  const headers: Record<string, string> = { 'content-type': 'video/mp4', 'accept-ranges': 'bytes' };
  if (range.kind === 'unsatisfiable') {
    response.writeHead(416, { ...headers, 'content-range': `bytes */${source.size}`, 'content-length': '0' });
    response.end();
    return;
  }
  const start = range.kind === 'partial' ? range.start : 0;
  const end = range.kind === 'partial' ? range.end + 1 : source.size;
  if (range.kind === 'partial') headers['content-range'] = `bytes ${start}-${end - 1}/${source.size}`;
  if (options.contentLength) headers['content-length'] = String(end - start);
  response.writeHead(range.kind === 'partial' ? 206 : 200, headers);
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  // Throttled: about 20 slices a second; otherwise 64 KB writes as fast as the socket drains.
  const sliceSize = options.bytesPerSecond ? Math.max(1, Math.min(patternPeriod, Math.floor(options.bytesPerSecond / 20))) : patternPeriod;
  const cut = options.cutAfterBytes ?? null;
  for (let offset = start; offset < end;) {
    if (cut !== null && offset >= start + cut) {
      response.destroy();
      return;
    }
    const length = Math.min(sliceSize, end - offset, cut !== null ? start + cut - offset : Number.POSITIVE_INFINITY);
    if (!(await writeWithBackpressure(response, source.slice(offset, length), options.signal))) return;
    offset += length;
    if (options.bytesPerSecond && offset < end && !(await pause((length / options.bytesPerSecond) * 1000, options.signal))) return;
  }
  response.end();
}
