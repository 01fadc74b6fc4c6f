import { CommandIds } from '../common/commandIds';
import { showMessage } from '../workbench/showMessage';
import type { ApiKeyStore } from './apiKeyStore';
import { confirmService } from './confirmService';
import { t } from '../common/l10n';

/**
 * For every command that needs the service: true when a base URL and a key are there; otherwise it offers the
 * way out (Set API Key, Open Settings) in a warning instead of failing, and returns false. A service named only by
 * the workspace's settings is confirmed first (once per origin). `purpose` is in the user's language
 * (`t('Generating a video')`): it starts the messages.
 */
export async function ensureApiKey(store: ApiKeyStore, purpose: string): Promise<boolean> {
  if (!store.scope) {
    showMessage('warning', t('{0} needs the address of your service: set promptreel.baseUrl first.', purpose), [
      { title: t('Set API Key'), command: CommandIds.setApiKey },
      { title: t('Open Settings'), command: CommandIds.openSettings, args: ['promptreel.baseUrl'] },
    ]);
    return false;
  }
  if (!(await confirmService(store, purpose))) return false;
  if (await store.get()) return true;
  showMessage('warning', t('{0} needs an API key for {1}.', purpose, store.scope), [{ title: t('Set API Key'), command: CommandIds.setApiKey }]);
  return false;
}
