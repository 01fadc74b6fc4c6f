import type * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { t } from '../api/l10n';
import { recoveryFor } from '../connection/core/recovery';
import { failureResult, type ParticipantResult } from '../workbench/chatParticipant';

/** Buttons that fix the problem, and the error VS Code shows under the answer. */
export function participantFailure(error: unknown, stream: vscode.ChatResponseStream, model?: string): ParticipantResult {
  const recovery = recoveryFor(error, { what: model ? t('The answer of {0}', model) : '@promptreel', request: 'chat' });
  return failureResult(stream, recovery, { kind: 'error', ...(model ? { model } : {}) }, isApiError(error) && !!error.receivedChars);
}
