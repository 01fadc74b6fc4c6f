import { ApiError } from './errors';
import { t } from './l10n';
import { joinSentences } from './sentences';

interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * The error for a request refused before sending: it names the first offending parameter and how to fix it. `what`
 * (`t('chat request')`), the hint and the suffix (a whole sentence: `t('Nothing was sent.')`) are in the user's
 * language, and so are zod's issue messages where zod has that language (see ./zodLocale.ts).
 */
export function invalidRequest(what: string, issues: readonly Issue[], hint: (param: string | undefined) => string, suffix = ''): ApiError {
  const issue = issues[0];
  const param = issue?.path.map(String).join('.') || undefined;
  const detail = issue ? `${param ?? t('request')}: ${issue.message}` : t('invalid request');
  return new ApiError({ kind: 'invalid-request', param, message: invalidRequestMessage(what, detail, suffix), hint: hint(param) });
}

/** `Invalid video request — seconds: at most 60 seconds. Nothing was sent.`: `suffix` follows as its own sentence. */
export function invalidRequestMessage(what: string, detail: string, suffix = ''): string {
  return joinSentences(t('Invalid {0} — {1}.{2}', what, detail, ''), suffix);
}
