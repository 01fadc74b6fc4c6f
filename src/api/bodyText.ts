import { abortedError, ApiError, isApiError } from './errors';
import { errorFromNetwork } from './httpErrors';
import { t } from './l10n';

// Reading what a service answered, within bounds, and describing what arrived instead of what was expected.

/**
 * A JSON answer (a task, the model list, a whole completion) is a few KB, rarely 1 MB; the extension host is shared
 * by every extension, so a runaway body fails here rather than filling its memory.
 */
export const MAX_JSON_BODY = 16 * 1024 * 1024;

export interface ReadLimit {
  /** Bytes read at most. */
  limit: number;
  /** Past the limit: keep the start and stop reading (true), or fail with "the service sent more than …" (false). */
  truncate?: boolean;
  /** Human name for the error, e.g. "Listing models". */
  what?: string;
}

/**
 * Reads a body as UTF-8 text, at most `limit` bytes. Past the limit the body is destroyed at once (its connection
 * closed), never read to its end: the start is kept (`truncate`) or the read fails.
 */
export async function readText(body: AsyncIterable<Uint8Array>, signal: AbortSignal | undefined, bound: ReadLimit): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      // Leaving the loop releases the body (a Readable is destroyed), which closes its connection.
      if (size > bound.limit) break;
    }
  } catch (error) {
    if (isApiError(error)) throw error;
    if (signal?.aborted) throw abortedError(signal.reason);
    throw errorFromNetwork(error, t('the response body'));
  }
  if (size <= bound.limit) return Buffer.concat(chunks).toString('utf8');
  if (!bound.truncate) throw bodyTooLarge(bound.what ?? t('The answer'), size);
  return Buffer.concat(chunks).subarray(0, bound.limit).toString('utf8');
}

/** `at least 16.0 MB` for a body cut at the limit. */
export function bodyTooLarge(what: string, bytes: number): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    message: t(
      '{0}: the service sent {1}, more than the {2} Promptreel reads for an answer of this kind.',
      what,
      formatMegabytes(bytes),
      formatMegabytes(MAX_JSON_BODY),
    ),
    hint: t('The base URL may point at something other than the API, or a proxy in between sends a large page: check promptreel.baseUrl, then see the logs.'),
    retryable: false,
  });
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * `text/html, starting "<html><head><title>Sign in…"`: what arrived instead of what was expected. Only the Transport
 * quotes an answer (`Transport.quote`): it knows whose answer it is and which keys to hide in it.
 */
export function describeStart(text: string, contentType: string | undefined): string {
  const flat = text.trim().replace(/\s+/g, ' ');
  const start = flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
  const type = describeType(contentType);
  return start ? t('{0}, starting "{1}"', type, start) : t('{0}, empty', type);
}

/** `text/html`: the type of an answer, without its parameters. */
export function describeType(contentType: string | undefined): string {
  return contentType ? contentType.split(';')[0].trim() || t('no content type') : t('no content type');
}
