import { type ApiError } from './errors';

/** Shapes of credentials that are hidden even when nobody registered them. */
const SECRET_PATTERNS: readonly [RegExp, string][] = [
  [/\bBearer\s+[^\s"',;]+/gi, 'Bearer ***'],
  [/\bsk-[A-Za-z0-9._-]{4,}/g, 'sk-***'],
];

/** Secrets shorter than this are never replaced: redacting them would garble ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** `text` without any of `secrets` (longest first) and without anything shaped like a key. */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  let result = text;
  const sorted = [...secrets].filter((secret) => secret.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  for (const secret of sorted) result = result.split(secret).join('***');
  for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/**
 * The same error with every text that can carry what the server said redacted: the border where server text
 * enters the extension, so no message, notification, conversation or export downstream can show a key.
 */
export function redactApiError(error: ApiError, redact: (text: string) => string): ApiError {
  const message = redact(error.message);
  const hint = redact(error.hint);
  const serverMessage = error.serverMessage === undefined ? undefined : redact(error.serverMessage);
  if (message === error.message && hint === error.hint && serverMessage === error.serverMessage) return error;
  return error.with({ message, hint, serverMessage });
}
