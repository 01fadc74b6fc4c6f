import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { API_KEY_ENV, type ApiKeyStore } from '../connection/keys/apiKeyStore';
import { originOf } from '../connection/keys/core/serviceChoice';

/**
 * For commands the user started: when only a workspace's settings name the service, asks once (modal) whether
 * keys may go there. True when the service is the user's, or now confirmed. Background work never calls this.
 * `purpose` names what the user started, in their language (`t('Test Connection')`).
 */
export async function confirmService(store: ApiKeyStore, purpose: string): Promise<boolean> {
  if (store.isServiceChosen()) return true;
  const scope = store.scope;
  if (!scope) return true;
  const origin = originOf(scope) ?? scope;
  const held = await store.awaitingConfirmation();
  const question =
    held?.source === 'environment'
      ? t("{0}: this workspace's settings set the Promptreel service to {1}. Send the API key from {2} there?", purpose, origin, API_KEY_ENV)
      : held
        ? t("{0}: this workspace's settings set the Promptreel service to {1}. Send the API key stored for {1} there?", purpose, origin)
        : t("{0}: this workspace's settings set the Promptreel service to {1}. Send an API key there?", purpose, origin);
  const useThisService = t('Use This Service');
  const openSettings = t('Open Settings');
  const picked = await vscode.window.showWarningMessage(
    question,
    {
      modal: true,
      detail: t(
        '{0} comes from the settings of this folder (.vscode/settings.json), not from your user settings, and a repository can name any host there. Promptreel sends a key to it only once you confirm; the answer is remembered for this address.',
        origin,
      ),
    },
    useThisService,
    openSettings,
  );
  if (picked === useThisService) {
    await store.confirmService();
    return true;
  }
  if (picked === openSettings) void vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl');
  return false;
}
