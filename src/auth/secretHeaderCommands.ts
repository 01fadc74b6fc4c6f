import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../api/baseUrl';
import { headerProblem } from '../api/requestExtras';
import type { Settings } from '../config/settings';
import type { CommandHandler } from '../workbench/registerCommands';
import { showMessage } from '../workbench/showMessage';
import type { SecretHeaderStore } from '../connection/keys/secretHeaderStore';
import { t } from '../api/l10n';

/** `Promptreel: Set Secret Header…` and `Remove Secret Header…`: header values kept in SecretStorage, per service. */
export class SecretHeaderCommands {
  readonly handlers: Readonly<Record<string, CommandHandler>> = {
    [CommandIds.setSecretHeader]: () => this.setSecretHeader(),
    [CommandIds.removeSecretHeader]: (name?: unknown) => this.removeSecretHeader(typeof name === 'string' ? name : undefined),
  };

  constructor(
    private readonly store: SecretHeaderStore,
    private readonly settings: Settings,
  ) {}

  /** The header's name when one was stored (never its value). */
  async setSecretHeader(): Promise<string | undefined> {
    const baseUrl = this.service();
    if (!baseUrl) return undefined;
    const name = (
      await vscode.window.showInputBox({
        title: t('Promptreel: Set Secret Header (1/2)'),
        prompt: t('The name of a header sent with every request to {0}, e.g. X-Gateway-Token or CF-Access-Client-Secret.', baseUrl),
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? headerProblem(value.trim(), '') : t('Type the name of the header.')),
      })
    )?.trim();
    if (!name) return undefined;
    const value = await vscode.window.showInputBox({
      title: t('Promptreel: Set Secret Header (2/2)'),
      prompt: t("The value of {0}. It is kept in VS Code's secret storage, sent only to {1}, and hidden in the logs.", name, baseUrl),
      password: true,
      ignoreFocusOut: true,
      validateInput: (typed) => (typed ? headerProblem(name, typed) : t('Type the value.')),
    });
    if (!value) return undefined;
    await this.store.set(baseUrl, name, value);
    showMessage('info', t('{0} is stored for {1} and sent with every request to it.', name, baseUrl), [
      { title: t('Test Connection'), command: CommandIds.testConnection },
    ]);
    return name;
  }

  /** True when a header was removed. */
  async removeSecretHeader(given?: string): Promise<boolean> {
    const baseUrl = this.service();
    if (!baseUrl) return false;
    const names = Object.keys(await this.store.get(baseUrl));
    if (names.length === 0) {
      showMessage('info', t('No secret headers are stored for {0}.', baseUrl), []);
      return false;
    }
    const name =
      given ??
      (
        await vscode.window.showQuickPick(
          names.map((label) => ({ label })),
          { title: t('Promptreel: Remove Secret Header'), placeHolder: t('The secret header to stop sending to {0}', baseUrl) },
        )
      )?.label;
    if (!name) return false;
    const removed = await this.store.remove(baseUrl, name);
    if (removed) showMessage('info', t('{0} is no longer sent to {1}.', name, baseUrl), []);
    return removed;
  }

  private service(): string | undefined {
    try {
      if (this.settings.baseUrl) return normalizeBaseUrl(this.settings.baseUrl);
    } catch {
      // Said below.
    }
    showMessage('warning', t('Secret headers are kept per service: set the address of the service first.'), [
      { title: t('Set API Key'), command: CommandIds.setApiKey },
      { title: t('Open Settings'), command: CommandIds.openSettings },
    ]);
    return undefined;
  }
}
