import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../api';
import { headerProblem } from '../api/requestExtras';
import { CommandIds } from '../common/commandIds';
import { Disposable } from '../common/lifecycle';
import type { Settings } from '../config/settings';
import { registerCommands } from '../workbench/registerCommands';
import { showMessage } from '../workbench/showMessage';
import type { SecretHeaderStore } from './secretHeaderStore';

export const SecretHeaderCommandIds = {
  setSecretHeader: 'promptreel.setSecretHeader',
  removeSecretHeader: 'promptreel.removeSecretHeader',
} as const;

/** `Promptreel: Set Secret Header…` and `Remove Secret Header…`: header values kept in SecretStorage, per service. */
export class SecretHeaderCommands extends Disposable {
  constructor(
    private readonly store: SecretHeaderStore,
    private readonly settings: Settings,
  ) {
    super();
    this._register(
      registerCommands({
        [SecretHeaderCommandIds.setSecretHeader]: () => this.setSecretHeader(),
        [SecretHeaderCommandIds.removeSecretHeader]: (name?: unknown) => this.removeSecretHeader(typeof name === 'string' ? name : undefined),
      }),
    );
  }

  /** The header's name when one was stored (never its value). */
  async setSecretHeader(): Promise<string | undefined> {
    const baseUrl = this.service();
    if (!baseUrl) return undefined;
    const name = (
      await vscode.window.showInputBox({
        title: 'Promptreel: Set Secret Header (1/2)',
        prompt: `The name of a header sent with every request to ${baseUrl}, e.g. X-Gateway-Token or CF-Access-Client-Secret.`,
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim() ? headerProblem(value.trim(), '') : 'Type the name of the header.'),
      })
    )?.trim();
    if (!name) return undefined;
    const value = await vscode.window.showInputBox({
      title: 'Promptreel: Set Secret Header (2/2)',
      prompt: `The value of ${name}. It is kept in VS Code's secret storage, sent only to ${baseUrl}, and hidden in the logs.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (typed) => (typed ? headerProblem(name, typed) : 'Type the value.'),
    });
    if (!value) return undefined;
    await this.store.set(baseUrl, name, value);
    showMessage('info', `${name} is stored for ${baseUrl} and sent with every request to it.`, [
      { title: 'Test Connection', command: CommandIds.testConnection },
    ]);
    return name;
  }

  /** True when a header was removed. */
  async removeSecretHeader(given?: string): Promise<boolean> {
    const baseUrl = this.service();
    if (!baseUrl) return false;
    const names = Object.keys(await this.store.get(baseUrl));
    if (names.length === 0) {
      showMessage('info', `No secret headers are stored for ${baseUrl}.`, []);
      return false;
    }
    const name =
      given ??
      (
        await vscode.window.showQuickPick(
          names.map((label) => ({ label })),
          { title: 'Promptreel: Remove Secret Header', placeHolder: `The secret header to stop sending to ${baseUrl}` },
        )
      )?.label;
    if (!name) return false;
    const removed = await this.store.remove(baseUrl, name);
    if (removed) showMessage('info', `${name} is no longer sent to ${baseUrl}.`, []);
    return removed;
  }

  private service(): string | undefined {
    try {
      if (this.settings.baseUrl) return normalizeBaseUrl(this.settings.baseUrl);
    } catch {
      // Said below.
    }
    showMessage('warning', 'Secret headers are kept per service: set the address of the service first.', [
      { title: 'Set API Key', command: CommandIds.setApiKey },
      { title: 'Open Settings', command: CommandIds.openSettings },
    ]);
    return undefined;
  }
}
