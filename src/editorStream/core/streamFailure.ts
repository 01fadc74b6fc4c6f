import { isApiError, type ApiError } from '../../api';

/** What the user can do about a failed stream; the commands map each to a button. */
export type FailureAction = 'retry' | 'setApiKey' | 'selectChatModel' | 'openSettings' | 'showLogs';

export interface FailureExplanation {
  message: string;
  actions: FailureAction[];
}

/**
 * One message for a failed Complete at Cursor or Rewrite Selection: what happened (decided on kind, status and code,
 * never on the server's text, which is quoted), what became of the text that arrived, and the actions that help.
 */
export function explainStreamFailure(error: unknown, what: string, keptChars: number): FailureExplanation {
  const kept = keptChars > 0 ? ` The ${keptChars} characters that arrived were kept.` : ' Nothing was inserted.';
  if (!isApiError(error)) {
    return { message: `${what} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}.${kept}`, actions: ['showLogs', 'retry'] };
  }
  const said = error.serverMessage ? ` The service said: "${error.serverMessage}".` : '';
  switch (error.kind) {
    case 'http':
      return explainHttp(error, what, said, kept);
    case 'cut-off':
      return { message: `${what}: ${error.message}${kept} Retry for a complete reply.`, actions: ['retry', 'showLogs'] };
    case 'stream':
      return {
        message: `${what}: the service stopped the reply with an error.${said}${kept}`,
        actions: error.status === 401 ? ['setApiKey', 'showLogs'] : ['retry', 'showLogs'],
      };
    case 'network':
    case 'timeout':
      return { message: `${what}: could not reach the service (${error.message}). ${error.hint}${kept}`, actions: ['retry', 'openSettings', 'showLogs'] };
    case 'no-key':
      return { message: `${what} needs an API key.${kept}`, actions: ['setApiKey'] };
    case 'invalid-request':
      return { message: `${what}: ${error.message} ${error.hint}${kept}`, actions: ['openSettings', 'showLogs'] };
    case 'invalid-response':
      return { message: `${what}: ${error.message} ${error.hint}${kept}`, actions: ['openSettings', 'showLogs'] };
    case 'aborted':
      return { message: `${what} was cancelled.${kept}`, actions: ['retry'] };
  }
}

function explainHttp(error: ApiError, what: string, said: string, kept: string): FailureExplanation {
  const status = error.status ?? 0;
  if (error.code === 'model_not_found') {
    return {
      message: `${what} failed (HTTP ${status}): the chat model is not available on this service.${said}${kept}`,
      actions: ['selectChatModel', 'showLogs'],
    };
  }
  switch (status) {
    case 401:
      return { message: `${what}: the service refused the API key (HTTP 401).${said} ${error.hint}${kept}`, actions: ['setApiKey', 'showLogs'] };
    case 402:
    case 403:
      return { message: `${what} was not allowed (HTTP ${status}).${said} ${error.hint}${kept}`, actions: ['selectChatModel', 'setApiKey', 'showLogs'] };
    case 404:
      return {
        message: `${what}: nothing was found at the service's chat address (HTTP 404).${said} ${error.hint}${kept}`,
        actions: ['openSettings', 'showLogs'],
      };
    case 400:
      return {
        message: `${what} was refused (HTTP 400)${error.param ? ` because of the parameter "${error.param}"` : ''}.${said} ${error.hint}${kept}`,
        actions: ['openSettings', 'selectChatModel', 'showLogs'],
      };
    case 429:
      return { message: `${what}: the service is rate limiting requests (HTTP 429).${said} ${error.hint}${kept}`, actions: ['retry', 'showLogs'] };
    default:
      return { message: `${what} failed (HTTP ${status}).${said} ${error.hint}${kept}`, actions: ['retry', 'showLogs'] };
  }
}
