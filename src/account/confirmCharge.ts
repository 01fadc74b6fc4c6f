import * as vscode from 'vscode';
import { CommandIds } from '../common/commandIds';
import type { KeyHealthState } from './core/keyHealthMonitor';
import { keyProblem } from './core/keyWarnings';

const SEND_ANYWAY = 'Send Anyway';
const SET_KEY = 'Set API Key';

/**
 * Before a charged request: when the key is known to be expired, used up or refused, says so and asks. What is
 * known may be out of date (the key may have been topped up since), so the user can still send: the service decides.
 */
export async function confirmCharge(state: KeyHealthState, now: number, purpose: string): Promise<boolean> {
  const problem = keyProblem(state, now);
  if (!problem) return true;
  const answer = await vscode.window.showWarningMessage(
    problem,
    { modal: true, detail: `${purpose} will likely be refused. Set a new key, or send anyway if the key was topped up or renewed since.` },
    SEND_ANYWAY,
    SET_KEY,
  );
  if (answer === SET_KEY) void vscode.commands.executeCommand(CommandIds.setApiKey);
  return answer === SEND_ANYWAY;
}
