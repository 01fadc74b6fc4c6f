import { isApiError, type ApiError } from '../../api';
import { t } from '../../common/l10n';
import { describeError } from '../../common/logger';
import { joinSentences } from '../../common/sentences';
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
    return { message: t('Test Connection failed unexpectedly: {0}', describeError(error)), actions: ['showLogs', 'retry'] };
  }
  switch (error.kind) {
    case 'http':
      return explainHttp(error, context);
    case 'no-key':
      return { message: t('No API key for {0}.', context.baseUrl), actions: ['setApiKey'] };
    case 'network':
    case 'timeout':
      return {
        message: t('Could not reach {0}: {1} {2}', context.baseUrl, error.message, error.hint),
        actions: ['openSettings', 'retry', 'showLogs'],
        ...(error.code ? { code: error.code } : {}),
      };
    case 'aborted':
      return { message: t('Test Connection was cancelled.'), actions: ['retry'] };
    case 'invalid-response':
      return {
        message: t(
          '{0} answered, but not like an OpenAI-compatible API ({1}). Is the base URL the address of the API rather than of the web console?',
          context.url,
          error.message,
        ),
        actions: ['openSettings', 'showLogs'],
      };
    default:
      return { message: joinSentences([error.message, error.hint]), actions: ['showLogs', 'retry'] };
  }
}

function explainHttp(error: ApiError, context: FailureContext): Explanation {
  const status = error.status ?? 0;
  const said = error.serverMessage ? t('The service said: "{0}".', error.serverMessage) : undefined;
  const base = { status, ...(error.code ? { code: error.code } : {}) };
  const model = context.chatModel ?? t('the chat model');
  // What failed, as the first sentence: listing the models, or the test message.
  const listingOrChat = (listing: string, chat: string) => (context.step === 'chat' ? chat : listing);

  if (error.code === 'model_not_found') {
    const failed = listingOrChat(
      t('Listing the models at {0} failed (HTTP {1}): the model is not available on this service.', context.baseUrl, status),
      t('The test message to {0} failed (HTTP {1}): the model is not available on this service.', model, status),
    );
    return { ...base, message: joinSentences([failed, said, t('Pick another chat model.')]), actions: ['selectChatModel', 'openSettings', 'showLogs'] };
  }
  switch (status) {
    case 401:
      return { ...base, message: joinSentences([t('The service refused the API key (HTTP 401).'), said, error.hint]), actions: ['setApiKey', 'showLogs'] };
    case 402:
    case 403: {
      const refused = listingOrChat(
        t('Listing the models at {0} was not allowed (HTTP {1}).', context.baseUrl, status),
        t('The test message to {0} was not allowed (HTTP {1}).', model, status),
      );
      return {
        ...base,
        message: joinSentences([refused, said, error.hint]),
        actions: context.step === 'chat' ? ['selectChatModel', 'setApiKey', 'showLogs'] : ['setApiKey', 'showLogs'],
      };
    }
    case 404: {
      const pathAdvice = context.basePath
        ? t(
            'The base URL has the path "{0}" after the host: most services serve /v1 right at the root, so try {1}.',
            context.basePath,
            new URL(context.baseUrl).origin,
          )
        : t('Check the base URL in the settings (a missing or doubled /v1, or a wrong path).');
      return {
        ...base,
        message: joinSentences([t('Nothing was found at {0} (HTTP 404): the base URL is probably wrong.', context.url), pathAdvice, said]),
        actions: ['openSettings', 'showLogs', 'retry'],
      };
    }
    case 429:
      return {
        ...base,
        message: joinSentences([t('The service is rate limiting requests (HTTP 429).'), said, error.hint]),
        actions: ['retry', 'showLogs'],
      };
    case 400: {
      const refused = listingOrChat(
        t('Listing the models at {0} was refused (HTTP 400).', context.baseUrl),
        t('The test message to {0} was refused (HTTP 400).', model),
      );
      return {
        ...base,
        message: joinSentences([refused, said, error.hint]),
        actions: context.step === 'chat' ? ['selectChatModel', 'openSettings', 'showLogs'] : ['openSettings', 'showLogs'],
      };
    }
    default: {
      const failed = listingOrChat(
        t('Listing the models at {0} failed (HTTP {1}).', context.baseUrl, status),
        t('The test message to {0} failed (HTTP {1}).', model, status),
      );
      return { ...base, message: joinSentences([failed, said, error.hint]), actions: status >= 500 ? ['retry', 'showLogs'] : ['showLogs', 'retry'] };
    }
  }
}
