import * as vscode from 'vscode';
import { CommandIds } from '../common/commandIds';
import { API_KEY_ENV, type ApiKeyStore } from './apiKeyStore';
import { originOf } from './core/serviceChoice';

export const USE_THIS_SERVICE = 'Use This Service';

/**
 * For commands the user started: when only a workspace's settings name the service, asks once (modal) whether
 * keys may go there. True when the service is the user's, or now confirmed. Background work never calls this.
 */
export async function confirmService(store: ApiKeyStore, purpose: string): Promise<boolean> {
  if (store.isServiceChosen()) return true;
  const scope = store.scope;
  if (!scope) return true;
  const origin = originOf(scope) ?? scope;
  const held = await store.awaitingConfirmation();
  const key = held?.source === 'environment' ? `the API key from ${API_KEY_ENV}` : held ? `the API key stored for ${origin}` : 'an API key';
  const picked = await vscode.window.showWarningMessage(
    `${purpose}: this workspace's settings set the Promptreel service to ${origin}. Send ${key} there?`,
    {
      modal: true,
      detail:
        `${origin} comes from the settings of this folder (.vscode/settings.json), not from your user settings, and a ` +
        'repository can name any host there. Promptreel sends a key to it only once you confirm; the answer is ' +
        'remembered for this address.',
    },
    USE_THIS_SERVICE,
    'Open Settings',
  );
  if (picked === USE_THIS_SERVICE) {
    await store.confirmService();
    return true;
  }
  if (picked === 'Open Settings') void vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl');
  return false;
}
