import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { KeyHealthState } from '../connection/account/core/keyHealthMonitor';
import { keyProblem } from '../connection/account/core/keyWarnings';

/**
 * Before a charged request: when the key is known to be expired, used up or refused, says so and asks. What is
 * known may be out of date (the key may have been topped up since), so the user can still send: the service decides.
 * `purpose` names the request in the user's language (`t('This message')`).
 */
export async function confirmCharge(state: KeyHealthState, now: number, purpose: string): Promise<boolean> {
  const problem = keyProblem(state, now);
  if (!problem) return true;
  const sendAnyway = t('Send Anyway');
  const setKey = t('Set API Key');
  const answer = await vscode.window.showWarningMessage(
    problem,
    { modal: true, detail: t('{0} will likely be refused. Set a new key, or send anyway if the key was topped up or renewed since.', purpose) },
    sendAnyway,
    setKey,
  );
  if (answer === setKey) void vscode.commands.executeCommand(CommandIds.setApiKey);
  return answer === sendAnyway;
}
