import { isApiError, type ApiError } from '../../api';
import { t } from '../../common/l10n';
import { joinSentences } from '../../common/sentences';

/** What the user can do about a failed stream; the commands map each to a button. */
export type FailureAction = 'retry' | 'setApiKey' | 'selectChatModel' | 'openSettings' | 'showLogs';

export interface FailureExplanation {
  message: string;
  actions: FailureAction[];
}

/**
 * One message for a failed Complete at Cursor or Rewrite Selection (`what`: the command's name as the user reads it):
 * what happened (decided on kind, status and code, never on the server's text, which is quoted), what became of the
 * text that arrived, and the actions that help.
 */
export function explainStreamFailure(error: unknown, what: string, keptChars: number): FailureExplanation {
  const kept = keptChars > 0 ? t('The {0} characters that arrived were kept.', keptChars) : t('Nothing was inserted.');
  if (!isApiError(error)) {
    const message = t('{0} failed unexpectedly: {1}.', what, error instanceof Error ? error.message : String(error));
    return { message: joinSentences(message, kept), actions: ['showLogs', 'retry'] };
  }
  const said = error.serverMessage ? t('The service said: "{0}".', error.serverMessage) : undefined;
  switch (error.kind) {
    case 'http':
      return explainHttp(error, what, said, kept);
    case 'cut-off':
      return { message: joinSentences(t('{0}: {1}', what, error.message), kept, t('Retry for a complete reply.')), actions: ['retry', 'showLogs'] };
    case 'stream':
      return {
        message: joinSentences(t('{0}: the service stopped the reply with an error.', what), said, kept),
        actions: error.status === 401 ? ['setApiKey', 'showLogs'] : ['retry', 'showLogs'],
      };
    case 'network':
    case 'timeout':
      return {
        message: joinSentences(t('{0}: could not reach the service ({1}).', what, error.message), error.hint, kept),
        actions: ['retry', 'openSettings', 'showLogs'],
      };
    case 'no-key':
      return { message: joinSentences(t('{0} needs an API key.', what), kept), actions: ['setApiKey'] };
    case 'invalid-request':
    case 'invalid-response':
      return { message: joinSentences(t('{0}: {1}', what, error.message), error.hint, kept), actions: ['openSettings', 'showLogs'] };
    case 'aborted':
      return { message: joinSentences(t('{0} was cancelled.', what), kept), actions: ['retry'] };
  }
}

function explainHttp(error: ApiError, what: string, said: string | undefined, kept: string): FailureExplanation {
  const status = error.status ?? 0;
  if (error.code === 'model_not_found') {
    return {
      message: joinSentences(t('{0} failed (HTTP {1}): the chat model is not available on this service.', what, status), said, kept),
      actions: ['selectChatModel', 'showLogs'],
    };
  }
  const explained = (headline: string, actions: FailureAction[]): FailureExplanation => ({
    message: joinSentences(headline, said, error.hint, kept),
    actions,
  });
  switch (status) {
    case 401:
      return explained(t('{0}: the service refused the API key (HTTP 401).', what), ['setApiKey', 'showLogs']);
    case 402:
    case 403:
      return explained(t('{0} was not allowed (HTTP {1}).', what, status), ['selectChatModel', 'setApiKey', 'showLogs']);
    case 404:
      return explained(t("{0}: nothing was found at the service's chat address (HTTP 404).", what), ['openSettings', 'showLogs']);
    case 400:
      return explained(
        error.param ? t('{0} was refused (HTTP 400) because of the parameter "{1}".', what, error.param) : t('{0} was refused (HTTP 400).', what),
        ['openSettings', 'selectChatModel', 'showLogs'],
      );
    case 429:
      return explained(t('{0}: the service is rate limiting requests (HTTP 429).', what), ['retry', 'showLogs']);
    default:
      return explained(t('{0} failed (HTTP {1}).', what, status), ['retry', 'showLogs']);
  }
}
