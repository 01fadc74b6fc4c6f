import { t } from './l10n';

/**
 * What the user adds to the requests to their service (SERVICE.md, "gateway quirks"): headers (some of them secret),
 * query parameters for the API paths, and fields merged into chat request bodies.
 */
export interface RequestExtras {
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Merged into a chat completion body, over Promptreel's own fields (but never `model`, `messages` or `stream`). */
  body?: Record<string, unknown>;
  /** Header values that are secrets: hidden in whatever the server says back, like the key. */
  secrets?: string[];
}

/** Given for the requests to the service, per model where one applies (chat); undefined for requests of no model. */
export type RequestExtrasSource = (model: string | undefined) => RequestExtras | Promise<RequestExtras>;

/** Headers that carry the key, describe the body or the connection: Promptreel's own, never replaced. */
const PROTECTED_HEADERS = new Set(['authorization', 'content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'accept']);
const PROTECTED_BODY_FIELDS = new Set(['model', 'messages', 'stream']);

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export function isValidHeaderName(name: string): boolean {
  return HEADER_NAME.test(name);
}

/** Why a header cannot be added (a protected name, an invalid name or value), in the user's language; undefined when it can. */
export function headerProblem(name: string, value: string): string | undefined {
  if (!isValidHeaderName(name)) return t('"{0}" is not a valid header name', name);
  if (PROTECTED_HEADERS.has(name.toLowerCase())) return t('{0} is set by Promptreel itself', name);
  // A line break would start another header (or the body): refused rather than sent.
  if (/[\r\n\0]/.test(value)) return t('the value of {0} contains a line break', name);
  return undefined;
}

/** The extra headers that may be sent, with lower-cased names (later sources win), and what was dropped and why. */
export function usableHeaders(...sources: (Record<string, string> | undefined)[]): { headers: Record<string, string>; dropped: string[] } {
  const headers: Record<string, string> = {};
  const dropped: string[] = [];
  for (const source of sources) {
    for (const [name, value] of Object.entries(source ?? {})) {
      const problem = headerProblem(name, value);
      if (problem) dropped.push(problem);
      else headers[name.toLowerCase()] = value;
    }
  }
  return { headers, dropped };
}

/** A chat body with the extra fields merged over it; `model`, `messages` and `stream` stay Promptreel's. */
export function withExtraBody<T extends Record<string, unknown>>(body: T, extra: Record<string, unknown> | undefined): T {
  if (!extra) return body;
  const merged: Record<string, unknown> = { ...body };
  for (const [field, value] of Object.entries(extra)) if (!PROTECTED_BODY_FIELDS.has(field)) merged[field] = value;
  return merged as T;
}

/** `url` with the query parameters added (those already in it are replaced). */
export function withQuery(url: string, query: Record<string, string> | undefined): string {
  if (!query || Object.keys(query).length === 0) return url;
  const parsed = new URL(url);
  for (const [name, value] of Object.entries(query)) parsed.searchParams.set(name, value);
  return parsed.toString();
}
