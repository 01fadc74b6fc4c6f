import { ApiError } from './errors';

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** The error for a request refused before sending: it names the first offending parameter and how to fix it. */
export function invalidRequest(what: string, issues: readonly Issue[], hint: (param: string | undefined) => string, suffix = ''): ApiError {
  const issue = issues[0];
  const param = issue?.path.map(String).join('.') || undefined;
  const detail = issue ? `${param ?? 'request'}: ${issue.message}` : 'invalid request';
  return new ApiError({ kind: 'invalid-request', param, message: `Invalid ${what} — ${detail}.${suffix}`, hint: hint(param) });
}
