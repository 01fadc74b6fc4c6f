import { isApiError } from '../../api/errors';
import { t } from '../../api/l10n';
import { recoveryFor } from '../../connection/core/recovery';
import type { ChatErrorInfo } from './model';

export interface ReplyFailure {
  status: 'stopped' | 'cut-off' | 'error';
  error?: ChatErrorInfo;
}

/**
 * How a failed reply is shown in the conversation: the shared recovery (what happened, what to do, the actions),
 * and whether the reply was stopped, cut off (what arrived is kept) or failed.
 */
export function describeReplyFailure(error: unknown): ReplyFailure {
  if (isApiError(error) && error.kind === 'aborted') return { status: 'stopped' };
  const recovery = recoveryFor(error, { what: t('The chat request'), request: 'chat' });
  const cutOff = isApiError(error) && error.kind === 'cut-off';
  const info: ChatErrorInfo = {
    // Chinese puts no space after its full-width sentence marks.
    message: (cutOff ? `${recovery.message} ${t('What arrived is kept.')}` : recovery.message)
      .replace(/\s+/g, ' ')
      .replace(/([。！？]) /g, '$1')
      .trim(),
    actions: recovery.actions,
    ...(isApiError(error) && error.param ? { param: error.param } : {}),
    ...(isApiError(error) && error.status !== undefined ? { status: error.status } : {}),
    ...(isApiError(error) && error.code ? { code: error.code } : {}),
  };
  return { status: cutOff ? 'cut-off' : 'error', error: info };
}
