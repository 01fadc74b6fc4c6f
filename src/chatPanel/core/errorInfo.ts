import { isApiError, type ApiError } from '../../api/errors';
import { t } from '../../common/l10n';
import type { ChatErrorAction, ChatErrorInfo } from './model';
import { joinSentences } from '../../common/sentences';

export interface ReplyFailure {
  status: 'stopped' | 'cut-off' | 'error';
  error?: ChatErrorInfo;
}

/**
 * How a failed reply is shown in the conversation: the service's own words and the actions that can fix it.
 * Decides on kind, status and code, never on the message text.
 */
export function describeReplyFailure(error: unknown): ReplyFailure {
  if (!isApiError(error)) {
    return {
      status: 'error',
      error: { message: t('The reply failed: {0}', error instanceof Error ? error.message : String(error)), actions: ['retry', 'showLogs'] },
    };
  }
  switch (error.kind) {
    case 'aborted':
      return { status: 'stopped' };
    case 'cut-off':
      // The API's own words say that the reply was cut off and why (in the user's language).
      return { status: 'cut-off', error: info(error, t('{0} What arrived is kept.', asSentence(error.message)), ['retry', 'showLogs']) };
    case 'no-key':
      // The transport's "no key", or the controller's "no address": their own words say which.
      return { status: 'error', error: info(error, `${error.message} ${error.hint}`, ['setApiKey', 'openSettings']) };
    case 'invalid-request':
      return { status: 'error', error: info(error, `${error.message} ${error.hint}`, ['openSettings']) };
    case 'network':
    case 'timeout':
      return {
        status: 'error',
        error: info(error, t('Could not reach the service: {0} {1}', error.message, error.hint), ['retry', 'openSettings', 'showLogs']),
      };
    case 'stream':
      return {
        status: 'error',
        error: info(
          error,
          t('The service reported an error while answering: {0}. {1}', said(error) ?? error.message, error.hint),
          actionsForStatus(error, ['retry', 'showLogs']),
        ),
      };
    case 'http':
      return { status: 'error', error: httpInfo(error) };
    default:
      return { status: 'error', error: info(error, `${error.message} ${error.hint}`, ['retry', 'showLogs']) };
  }
}

function httpInfo(error: ApiError): ChatErrorInfo {
  const status = error.status ?? 0;
  const server = said(error);
  const saidText = server ? t('The service said: "{0}".', server) : '';
  if (error.code === 'model_not_found')
    return info(error, joinSentences(t('The model is not available on this service (HTTP {0}).', status), saidText, t('Pick another model.')), [
      'selectModel',
      'showLogs',
    ]);
  switch (status) {
    case 400:
      if (error.param) {
        return info(
          error,
          joinSentences(
            t('The service refused the parameter "{0}" (HTTP 400).', error.param),
            saidText,
            t('Change or clear it in the conversation options, or declare what the model supports in promptreel.models.capabilities.'),
          ),
          ['openSettings', 'retry'],
        );
      }
      return info(error, joinSentences(t('The service refused the request (HTTP 400).'), saidText), ['openSettings', 'retry', 'showLogs']);
    case 401:
      return info(error, joinSentences(t('The service refused the API key (HTTP 401).'), saidText, error.hint), ['setApiKey', 'showLogs']);
    case 402:
    case 403:
      return info(error, joinSentences(t('The request was not allowed (HTTP {0}).', status), saidText, error.hint), ['selectModel', 'setApiKey', 'showLogs']);
    case 404:
      return info(error, joinSentences(t('Nothing was found at the chat address (HTTP 404): check the base URL.'), saidText), ['openSettings', 'showLogs']);
    case 429:
      return info(error, joinSentences(t('The service is rate limiting requests (HTTP 429).'), saidText, error.hint), ['retry', 'showLogs']);
    default:
      return info(error, joinSentences(t('The chat request failed (HTTP {0}).', status), saidText, error.hint), ['retry', 'showLogs']);
  }
}

function actionsForStatus(error: ApiError, fallback: ChatErrorAction[]): ChatErrorAction[] {
  if (error.status === 401) return ['setApiKey', 'showLogs'];
  if (error.status === 403) return ['selectModel', 'setApiKey', 'showLogs'];
  return fallback;
}

function info(error: ApiError, message: string, actions: ChatErrorAction[]): ChatErrorInfo {
  return {
    // Chinese puts no space after its full-width sentence marks.
    message: message
      .replace(/\s+/g, ' ')
      .replace(/([。！？]) /g, '$1')
      .trim(),
    actions,
    ...(error.param ? { param: error.param } : {}),
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.code ? { code: error.code } : {}),
  };
}

function said(error: ApiError): string | undefined {
  return error.serverMessage?.trim() || undefined;
}

/** The message ending as a sentence does. */
function asSentence(message: string): string {
  const text = message.trim();
  return /[.!?。！？]$/.test(text) ? text : `${text}.`;
}
