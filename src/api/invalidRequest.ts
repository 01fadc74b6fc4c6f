import { ApiError } from './errors';
import { t } from './l10n';

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The error for a request refused before sending: it names the first offending parameter and how to fix it. `what`
 * (`t('chat request')`), the hint and the suffix are in the user's language; zod's own issue messages stay English.
 */
export function invalidRequest(what: string, issues: readonly Issue[], hint: (param: string | undefined) => string, suffix = ''): ApiError {
  const issue = issues[0];
  const param = issue?.path.map(String).join('.') || undefined;
  const detail = issue ? `${param ?? t('request')}: ${issue.message}` : t('invalid request');
  return new ApiError({ kind: 'invalid-request', param, message: t('Invalid {0} — {1}.{2}', what, detail, suffix), hint: hint(param) });
}
