import { ApiError } from './errors';
import { t } from './l10n';

/**
 * Reduces what a user may type (`https://host`, `https://host/`, `https://host/v1`, `https://host/v1/`,
 * even `https://host/v1/v1`) to the service root without `/v1`, so paths are joined exactly once.
 */
export function normalizeBaseUrl(input: string): string {
  const trimmed = input.trim();
  const shown = withoutCredentials(trimmed);
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new ApiError({
      kind: 'invalid-request',
      message: t('"{0}" is not a valid URL.', shown),
      hint: t('Set promptreel.baseUrl to the address of the service, for example https://api.example.com.'),
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError({
      kind: 'invalid-request',
      message: t('"{0}" is not an http(s) URL.', shown),
      hint: t('The base URL must start with https:// (or http:// for a local service).'),
    });
  }
  if (url.username || url.password) {
    throw new ApiError({
      kind: 'invalid-request',
      message: t('The base URL "{0}" contains a user name or password.', shown),
      hint: t('Remove them from promptreel.baseUrl: the credentials belong in the API key (Promptreel: Set API Key).'),
    });
  }
  let path = url.pathname.replace(/\/+$/, '');
  while (/\/v1$/i.test(path)) path = path.slice(0, -3).replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * What may be echoed of a base URL as typed: anything between the scheme and an `@` is dropped, even when the
 * text is not a valid URL (URL parsing cannot be relied on to find credentials in text it refuses).
 */
export function withoutCredentials(input: string): string {
  return input.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1***@').replace(/^([^/?#]*)@/, '***@');
}

/** Joins a normalized base URL and a path below `/v1` (e.g. `videos/abc`). */
export function apiUrl(baseUrl: string, path: string): string {
  return `${baseUrl}/v1/${path.replace(/^\/+/, '')}`;
}

/** Describes, for the endpoint doctor, what normalization changed in what the user typed. */
export function describeBaseUrlInput(input: string): { normalized: string; notes: string[] } {
  const normalized = normalizeBaseUrl(input);
  const notes: string[] = [];
  const path = new URL(input.trim()).pathname.replace(/\/+$/, '');
  const v1Count = (path.match(/\/v1(?=\/|$)/gi) ?? []).length;
  if (v1Count > 1) notes.push(t('The base URL contained /v1 more than once; Promptreel uses it once.'));
  if (new URL(input.trim()).search) notes.push(t('The query string of the base URL is ignored.'));
  return { normalized, notes };
}
