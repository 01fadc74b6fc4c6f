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
  // Any `@` may end credentials (a password can hold `/`, `?` or `#`, which URL parsing takes for the end of the host).
  if (url.username || url.password || shown !== trimmed) {
    throw new ApiError({
      kind: 'invalid-request',
      message: t('The base URL "{0}" contains a user name or password.', shown),
      hint: t(
        'Remove them from promptreel.baseUrl (an @ that belongs in the address is written %40): the credentials belong in the API key (Promptreel: Set API Key).',
      ),
    });
  }
  let path = url.pathname.replace(/\/+$/, '');
  while (/\/v1$/i.test(path)) path = path.slice(0, -3).replace(/\/+$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

/**
 * What may be echoed of a URL as typed: everything between `scheme://` (or `//`, or the start) and the last `@` is
 * dropped, whatever it holds: a password may contain `/`, `?` or `#`, so the host cannot be told apart by URL rules
 * (which refuse some such text, and read other such text as a host and a path).
 */
export function withoutCredentials(input: string): string {
  const at = input.lastIndexOf('@');
  if (at === -1) return input;
  const start = /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.exec(input)?.[0] ?? '';
  return `${start}***${input.slice(at)}`;
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
