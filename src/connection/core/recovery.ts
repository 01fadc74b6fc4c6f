import { isApiError, type ApiError } from '../../api/errors';
import { lostReason, mayHaveCreated } from '../../api/video/mayHaveCreated';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';

import { type RecoveryAction } from './recoveryActions';

export { RECOVERY_ACTIONS, type RecoveryAction } from './recoveryActions';

/** A failure as the user reads it: what happened and what to do (whole sentences), and the actions that help. */
export interface Recovery {
  message: string;
  actions: RecoveryAction[];
  /** The setting `openSettings` opens (promptreel.baseUrl unless said). */
  setting?: string;
}

/** What was asked, so the words and the model action fit it. */
export interface RecoveryContext {
  /** The request as the user names it, in their language: `t('The chat request')`, `t('Complete at Cursor')`. */
  what: string;
  /** Which kind of model a refused model is: decides between Select Chat Model and the video model setting. */
  request: 'chat' | 'video' | 'service';
}

/** Why a surface cannot send yet (Connection.readiness): said the same way everywhere. */
export type Missing = { missing: 'address' } | { missing: 'unconfirmed'; origin: string } | { missing: 'key'; service: string };

/** Thrown by a surface that found the service not ready (Connection.readiness) where it can only fail. */
export class ServiceNotReady extends Error {
  constructor(readonly missing: Missing) {
    super(`The service is not ready: ${missing.missing}`);
    this.name = 'ServiceNotReady';
  }
}

/** Thrown by a surface when the user chose not to send a charged request past a budget. */
export class BudgetDeclined extends Error {
  constructor() {
    super('Not sent: the budget is spent');
    this.name = 'BudgetDeclined';
  }
}

/**
 * The one mapping from a failure to what the user reads and can do. Decided on kind, status and code, never on the
 * server's text, which is quoted.
 */
export function recoveryFor(error: unknown, context: RecoveryContext): Recovery {
  const { what } = context;
  if (error instanceof ServiceNotReady) return recoveryForMissing(error.missing, what);
  if (error instanceof BudgetDeclined)
    return { message: t('{0} was not sent: your budget is spent.', what), actions: ['retry', 'openSettings'], setting: 'promptreel.account.dailyBudget' };
  if (!isApiError(error)) return { message: t('{0} failed unexpectedly: {1}', what, asSentence(describe(error))), actions: ['showLogs', 'retry'] };
  const modelAction: RecoveryAction = context.request === 'video' ? 'chooseVideoModel' : 'selectChatModel';
  const modelSetting = context.request === 'video' ? { setting: 'promptreel.video.model' } : {};
  const said = error.serverMessage ? t('The service said: "{0}".', error.serverMessage) : undefined;
  if (context.request === 'video' && mayHaveCreated(error)) return { message: lostVideoMessage(error), actions: ['trackVideoTask', 'showLogs'] };
  switch (error.kind) {
    case 'aborted':
      return { message: t('{0} was cancelled.', what), actions: ['retry'] };
    case 'cut-off':
      // The API's own words say what was cut off, and why.
      return { message: joinSentences(error.message, t('Retry for a complete answer.')), actions: ['retry', 'showLogs'] };
    case 'no-key':
      return { message: joinSentences(error.message, error.hint), actions: ['setApiKey', 'openSettings'] };
    case 'invalid-request':
      return { message: joinSentences(asSentence(t('{0}: {1}', what, error.message)), error.hint), actions: ['openSettings', 'showLogs'], ...modelSetting };
    case 'invalid-response':
      return { message: joinSentences(asSentence(t('{0}: {1}', what, error.message)), error.hint), actions: ['testConnection', 'openSettings', 'showLogs'] };
    case 'network':
    case 'timeout':
      // The API's own words say what could not be reached, and how.
      return { message: joinSentences(asSentence(t('{0}: {1}', what, error.message)), error.hint), actions: ['retry', 'openSettings', 'showLogs'] };
    case 'stream':
      return {
        message: joinSentences(t('{0}: the service stopped with an error.', what), said ?? error.message, error.hint),
        actions: error.status === 401 ? ['setApiKey', 'showLogs'] : ['retry', 'showLogs'],
      };
    case 'http':
      return httpRecovery(error, what, said, modelAction, modelSetting);
  }
}

function httpRecovery(error: ApiError, what: string, said: string | undefined, modelAction: RecoveryAction, modelSetting: { setting?: string }): Recovery {
  const status = error.status ?? 0;
  if (error.code === 'model_not_found') {
    return {
      message: joinSentences(t('{0} failed (HTTP {1}): the model is not available on this service.', what, status), said, t('Pick another model.')),
      actions: [modelAction, 'showLogs'],
      ...modelSetting,
    };
  }
  switch (status) {
    case 400:
      return {
        message: joinSentences(
          error.param ? t('{0} was refused (HTTP 400) because of the parameter "{1}".', what, error.param) : t('{0} was refused (HTTP 400).', what),
          said,
        ),
        actions: ['openSettings', modelAction, 'showLogs'],
        ...modelSetting,
      };
    case 401:
      return { message: joinSentences(t('{0}: the service refused the API key (HTTP 401).', what), said, error.hint), actions: ['setApiKey', 'showLogs'] };
    case 402:
    case 403:
      return {
        message: joinSentences(t('{0} was not allowed (HTTP {1}).', what, status), said, error.hint),
        actions: [modelAction, 'setApiKey', 'showLogs'],
        ...modelSetting,
      };
    case 404:
      return {
        message: joinSentences(t("{0}: nothing was found at the service's address (HTTP 404).", what), said, error.hint),
        actions: ['openSettings', 'testConnection', 'showLogs'],
      };
    case 429:
      return { message: joinSentences(t('{0}: the service is rate limiting requests (HTTP 429).', what), said, error.hint), actions: ['retry', 'showLogs'] };
    default:
      return { message: joinSentences(t('{0} failed (HTTP {1}).', what, status), said, error.hint), actions: ['retry', 'showLogs'] };
  }
}

/** What is missing before `purpose` can run, and the way out. */
export function recoveryForMissing(missing: Missing, purpose: string): Recovery {
  switch (missing.missing) {
    case 'address':
      return { message: t('{0} needs the address of your service: set promptreel.baseUrl first.', purpose), actions: ['setApiKey', 'openSettings'] };
    case 'unconfirmed':
      return {
        message: t("{0}: this folder's settings set the Promptreel service to {1}, which you have not confirmed yet.", purpose, missing.origin),
        actions: ['useThisService', 'openSettings'],
      };
    case 'key':
      return { message: t('{0} needs an API key for {1}.', purpose, missing.service), actions: ['setApiKey'] };
  }
}

/** A video create whose answer was lost: why, then what that means (no Retry: a second request could charge twice). */
function lostVideoMessage(error: ApiError): string {
  const reason = lostReason(error);
  const lost =
    reason.kind === 'no-task-id'
      ? t('The answer to the video request was lost (it carried no task id).')
      : reason.kind === 'proxy'
        ? t('The answer to the video request was lost (a proxy in front of the service answered HTTP {0} after the request was sent).', String(reason.status))
        : t('The answer to the video request was lost (the connection dropped after the request was sent).');
  return joinSentences(
    lost,
    t(
      'The task may exist on the service, and may be charged: it was not sent again, and it is listed under Video Tasks as "answer lost". Track it by its id from the service\'s console before you make another.',
    ),
  );
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The message ending as a sentence does. */
function asSentence(message: string): string {
  const text = message.trim();
  return /[.!?。！？]$/.test(text) ? text : `${text}.`;
}
