import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { CommandHandler } from '../workbench/registerCommands';
import { normalizeBaseUrl } from '../api/baseUrl';
import { describeError, type ComponentLogger } from '../common/logger';
import { showMessage } from '../workbench/showMessage';
import type { Settings } from '../config/settings';
import { API_KEY_ENV, type ApiKeyStore } from '../connection/keys/apiKeyStore';
import { confirmService } from '../workbench/confirmService';
import { t } from '../api/l10n';

/** What Set API Key returns (never the key itself). */
export interface SetApiKeyResult {
  baseUrl: string;
}

export interface ClearApiKeyResult {
  baseUrl: string | undefined;
  cleared: boolean;
  /** A key from PROMPTREEL_API_KEY is still in use after clearing. */
  environmentKeyRemains: boolean;
}

/** `Promptreel: Set API Key`, `Promptreel: Clear API Key` and Use This Folder's Service. */
export class ApiKeyCommands {
  readonly handlers: Readonly<Record<string, CommandHandler>> = {
    [CommandIds.setApiKey]: () => this.setApiKey(),
    [CommandIds.clearApiKey]: () => this.clearApiKey(),
    [CommandIds.confirmService]: () => this.confirmFolderService(),
  };

  constructor(
    private readonly store: ApiKeyStore,
    private readonly settings: Settings,
    private readonly log: ComponentLogger,
  ) {}

  /** Use This Folder's Service: confirms the service only the folder's settings name (nothing to do otherwise). */
  async confirmFolderService(): Promise<boolean> {
    if (!this.store.scope || this.store.isServiceChosen()) {
      showMessage('info', t('The Promptreel service comes from your own settings: there is nothing to confirm.'));
      return this.store.scope !== undefined;
    }
    return confirmService(this.store, t("Using this folder's service"));
  }

  async setApiKey(): Promise<SetApiKeyResult | undefined> {
    const needsBaseUrl = !this.store.scope;
    // Reached from "Set API Key" while a key exists but waits for the service to be confirmed: confirming is enough.
    const needsConfirmationOnly = (await this.store.awaitingConfirmation()) !== undefined;
    if (needsBaseUrl && !(await this.askBaseUrl())) return undefined;
    const baseUrl = this.store.scope;
    if (!baseUrl) return undefined;
    // A key typed for a service a workspace named is still a key sent there: the user confirms the service first.
    if (!(await confirmService(this.store, t('Set API Key')))) return undefined;
    if (needsConfirmationOnly) {
      const held = await this.store.get();
      const confirmed =
        held?.source === 'environment'
          ? t('{0} confirmed: Promptreel now sends the key from {1} there.', baseUrl, API_KEY_ENV)
          : t('{0} confirmed: Promptreel now sends the key stored for it there.', baseUrl);
      showMessage('info', confirmed, [{ title: t('Test Connection'), command: CommandIds.testConnection }]);
      return { baseUrl };
    }

    const key = await vscode.window.showInputBox({
      title: needsBaseUrl ? t('Promptreel: API Key (2/2)') : t('Promptreel: Set API Key'),
      prompt: t("The API key for {0}, made in the service's web console. It is kept in VS Code's secret storage.", baseUrl),
      placeHolder: 'sk-…',
      password: true,
      ignoreFocusOut: true,
      validateInput: validateApiKey,
    });
    if (key === undefined) return undefined;
    if (validateApiKey(key)) return undefined;

    try {
      await this.store.store(key);
    } catch (error) {
      this.log.error(`Could not store the API key: ${describeError(error)}`);
      showMessage('error', t('Promptreel could not store the API key: {0}', describeError(error)), [{ title: t('Show Logs'), command: CommandIds.showLogs }]);
      return undefined;
    }
    showMessage('info', t('API key saved for {0}.', baseUrl), [{ title: t('Test Connection'), command: CommandIds.testConnection }]);
    return { baseUrl };
  }

  async clearApiKey(): Promise<ClearApiKeyResult> {
    const baseUrl = this.store.scope;
    const cleared = await this.store.clear();
    const remaining = await this.store.get();
    const environmentKeyRemains = remaining?.source === 'environment';
    showMessage('info', clearedMessage(cleared, baseUrl ?? t('the current base URL'), environmentKeyRemains));
    return { baseUrl, cleared, environmentKeyRemains };
  }

  /** First run: the key is scoped to the base URL, so ask for that first. */
  private async askBaseUrl(): Promise<boolean> {
    const input = await vscode.window.showInputBox({
      title: t('Promptreel: Service Address (1/2)'),
      prompt: t('The base URL of your OpenAI-compatible service, with or without /v1.'),
      placeHolder: 'https://api.example.com',
      value: this.settings.baseUrl,
      ignoreFocusOut: true,
      validateInput: validateBaseUrl,
    });
    if (input === undefined || validateBaseUrl(input)) return false;
    await this.settings.update('baseUrl', input.trim());
    this.log.info(`Base URL set to ${normalizeBaseUrl(input)}.`);
    return true;
  }
}

/** What Clear API Key says: removed or not there, and whether the environment's key is still used. */
function clearedMessage(cleared: boolean, where: string, environmentKeyRemains: boolean): string {
  if (environmentKeyRemains) {
    return cleared
      ? t('API key for {0} removed. The key from the {1} environment variable is still used.', where, API_KEY_ENV)
      : t('No API key is stored for {0}. The key from the {1} environment variable is still used.', where, API_KEY_ENV);
  }
  return cleared ? t('API key for {0} removed.', where) : t('No API key is stored for {0}.', where);
}

export function validateApiKey(value: string): string | undefined {
  const key = value.trim();
  if (!key) return t('Enter the API key; it cannot be empty.');
  if (/\s/.test(key)) return t('An API key contains no spaces.');
  return undefined;
}

export function validateBaseUrl(value: string): string | undefined {
  if (!value.trim()) return t('Enter the address of the service, e.g. https://api.example.com.');
  try {
    normalizeBaseUrl(value);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
