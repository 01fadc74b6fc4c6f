import { isApiError, mayHaveCreated } from '../../api';
import { joinSentences } from '../../common/sentences';

export type RecoveryAction = 'setApiKey' | 'selectChatModel' | 'videoModelSettings' | 'testConnection' | 'openSettings' | 'showLogs' | 'trackVideoTask';

/** The buttons worth offering after a failed request, decided on kind, status and code (never on the text). */
export function recoveryActions(error: unknown): RecoveryAction[] {
  if (!isApiError(error)) return ['showLogs'];
  if (error.kind === 'no-key' || error.status === 401) return ['setApiKey', 'showLogs'];
  if (error.code === 'model_not_found' || error.status === 403 || error.status === 400) return ['selectChatModel', 'showLogs'];
  if (error.status === 404) return ['openSettings', 'showLogs'];
  if (error.kind === 'network' || error.kind === 'timeout' || error.kind === 'invalid-response') return ['testConnection', 'openSettings', 'showLogs'];
  return ['showLogs'];
}

/** The same for `/video`: the video model setting takes the place of the chat model; a plain Error is a missing video model. */
export function videoRecoveryActions(error: unknown): RecoveryAction[] {
  if (!isApiError(error)) return ['videoModelSettings', 'showLogs'];
  // The task may exist (and be charged): find it, rather than asking again.
  if (mayHaveCreated(error)) return ['trackVideoTask', 'showLogs'];
  return recoveryActions(error).map((action) => (action === 'selectChatModel' ? 'videoModelSettings' : action));
}

/** What the user reads: what happened, then what to do (ApiError's message and hint). */
export function failureText(error: unknown): string {
  if (isApiError(error)) return joinSentences(error.message, error.hint).trim();
  return error instanceof Error ? error.message : String(error);
}
