import { isApiError, type ApiError } from '../../api';
import { describeError } from '../../common/logger';
import type { DoctorAction, DoctorStepName } from './doctorResult';

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

/** Turns a failed check into plain words and the actions that can fix it. Decides on status and code, never on text. */
export function explainFailure(error: unknown, context: FailureContext): Explanation {
  if (!isApiError(error)) {
    return { message: `Test Connection failed unexpectedly: ${describeError(error)}`, actions: ['showLogs', 'retry'] };
  }
  switch (error.kind) {
    case 'http':
      return explainHttp(error, context);
    case 'no-key':
      return { message: `No API key for ${context.baseUrl}.`, actions: ['setApiKey'] };
    case 'network':
    case 'timeout':
      return {
        message: `Could not reach ${context.baseUrl}: ${error.message} ${error.hint}`,
        actions: ['openSettings', 'retry', 'showLogs'],
        ...(error.code ? { code: error.code } : {}),
      };
    case 'aborted':
      return { message: 'Test Connection was cancelled.', actions: ['retry'] };
    case 'invalid-response':
      return {
        message: `${context.url} answered, but not like an OpenAI-compatible API (${error.message}). Is the base URL the address of the API rather than of the web console?`,
        actions: ['openSettings', 'showLogs'],
      };
    default:
      return { message: `${error.message} ${error.hint}`, actions: ['showLogs', 'retry'] };
  }
}

function explainHttp(error: ApiError, context: FailureContext): Explanation {
  const status = error.status ?? 0;
  const said = error.serverMessage ? ` The service said: "${error.serverMessage}".` : '';
  const base = { status, ...(error.code ? { code: error.code } : {}) };
  const subject = context.step === 'chat' ? `The test message to ${context.chatModel ?? 'the chat model'}` : `Listing the models at ${context.baseUrl}`;

  if (error.code === 'model_not_found') {
    return {
      ...base,
      message: `${subject} failed (HTTP ${status}): the model is not available on this service.${said} Pick another chat model.`,
      actions: ['selectChatModel', 'openSettings', 'showLogs'],
    };
  }
  switch (status) {
    case 401:
      return { ...base, message: `The service refused the API key (HTTP 401).${said} ${error.hint}`, actions: ['setApiKey', 'showLogs'] };
    case 402:
    case 403:
      return {
        ...base,
        message: `${subject} was not allowed (HTTP ${status}).${said} ${error.hint}`,
        actions: context.step === 'chat' ? ['selectChatModel', 'setApiKey', 'showLogs'] : ['setApiKey', 'showLogs'],
      };
    case 404: {
      const pathAdvice = context.basePath
        ? ` The base URL has the path "${context.basePath}" after the host: most services serve /v1 right at the root, so try ${new URL(context.baseUrl).origin}.`
        : ' Check the base URL in the settings (a missing or doubled /v1, or a wrong path).';
      return {
        ...base,
        message: `Nothing was found at ${context.url} (HTTP 404): the base URL is probably wrong.${pathAdvice}${said}`,
        actions: ['openSettings', 'showLogs', 'retry'],
      };
    }
    case 429:
      return { ...base, message: `The service is rate limiting requests (HTTP 429).${said} ${error.hint}`, actions: ['retry', 'showLogs'] };
    case 400:
      return {
        ...base,
        message: `${subject} was refused (HTTP 400).${said} ${error.hint}`,
        actions: context.step === 'chat' ? ['selectChatModel', 'openSettings', 'showLogs'] : ['openSettings', 'showLogs'],
      };
    default:
      return {
        ...base,
        message: `${subject} failed (HTTP ${status}).${said} ${error.hint}`,
        actions: status >= 500 ? ['retry', 'showLogs'] : ['showLogs', 'retry'],
      };
  }
}
