import { isApiError } from '../../api/errors';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import type { DoctorAction, DoctorStepName } from './doctorResult';
import { recoveryFor } from '../../connection/core/recovery';

export interface Explanation {
  message: string;
  actions: DoctorAction[];
  status?: number;
  code?: string;
}

export interface FailureContext {
  step: Extract<DoctorStepName, 'models' | 'chat'>;
  baseUrl: string;
  /** The address that was asked, for messages such as "nothing at …". */
  url: string;
  chatModel?: string;
  /** A path the user typed after the host (e.g. `/api`): the usual reason for a 404. */
  basePath?: string;
}

/**
 * Turns a failed check into plain words and the actions that can fix it: the shared recovery, with what only Test
 * Connection can tell added (a base URL with a path, an answer that is not an OpenAI-compatible API).
 */
export function explainFailure(error: unknown, context: FailureContext): Explanation {
  const what =
    context.step === 'chat' ? t('The test message to {0}', context.chatModel ?? t('the chat model')) : t('Listing the models at {0}', context.baseUrl);
  const shared = recoveryFor(error, { what, request: 'chat' });
  // Test Connection again is this command's Retry.
  const recovery = { ...shared, actions: [...new Set(shared.actions.map((action) => (action === 'testConnection' ? 'retry' : action)))] };
  const base = isApiError(error) ? { ...(error.status !== undefined ? { status: error.status } : {}), ...(error.code ? { code: error.code } : {}) } : {};
  if (isApiError(error) && error.kind === 'http' && error.status === 404) {
    const pathAdvice = context.basePath
      ? t(
          'The base URL has the path "{0}" after the host: most services serve /v1 right at the root, so try {1}.',
          context.basePath,
          new URL(context.baseUrl).origin,
        )
      : t('Check the base URL in the settings (a missing or doubled /v1, or a wrong path).');
    return {
      ...base,
      message: joinSentences([t('Nothing was found at {0} (HTTP 404): the base URL is probably wrong.', context.url), pathAdvice]),
      actions: recovery.actions,
    };
  }
  if (isApiError(error) && error.kind === 'invalid-response') {
    const message = t(
      '{0} answered, but not like an OpenAI-compatible API ({1}). Is the base URL the address of the API rather than of the web console?',
      context.url,
      error.message,
    );
    return { ...base, message, actions: recovery.actions };
  }
  return { ...base, message: recovery.message, actions: recovery.actions };
}
