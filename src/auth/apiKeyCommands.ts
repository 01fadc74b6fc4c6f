import * as vscode from 'vscode';
import { registerCommands } from '../workbench/registerCommands';
import { normalizeBaseUrl } from '../api';
import { CommandIds } from '../common/commandIds';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import { showMessage } from '../workbench/showMessage';
import type { Settings } from '../config/settings';
import { API_KEY_ENV, type ApiKeyStore } from './apiKeyStore';
import { confirmService } from './confirmService';

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

/** `Promptreel: Set API Key` and `Promptreel: Clear API Key`. */
export class ApiKeyCommands extends Disposable {
  constructor(
    private readonly store: ApiKeyStore,
    private readonly settings: Settings,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(registerCommands({ [CommandIds.setApiKey]: () => this.setApiKey(), [CommandIds.clearApiKey]: () => this.clearApiKey() }));
  }

  async setApiKey(): Promise<SetApiKeyResult | undefined> {
    const needsBaseUrl = !this.store.scope;
    // Reached from "Set API Key" while a key exists but waits for the service to be confirmed: confirming is enough.
    const needsConfirmationOnly = (await this.store.awaitingConfirmation()) !== undefined;
    if (needsBaseUrl && !(await this.askBaseUrl())) return undefined;
    const baseUrl = this.store.scope;
    if (!baseUrl) return undefined;
    // A key typed for a service a workspace named is still a key sent there: the user confirms the service first.
    if (!(await confirmService(this.store, 'Set API Key'))) return undefined;
    if (needsConfirmationOnly) {
      const held = await this.store.get();
      const which = held?.source === 'environment' ? `the key from ${API_KEY_ENV}` : 'the key stored for it';
      showMessage('info', `${baseUrl} confirmed: Promptreel now sends ${which} there.`, [{ title: 'Test Connection', command: CommandIds.testConnection }]);
      return { baseUrl };
    }

    const key = await vscode.window.showInputBox({
      title: needsBaseUrl ? 'Promptreel: API Key (2/2)' : 'Promptreel: Set API Key',
      prompt: `The API key for ${baseUrl}, made in the service's web console. It is kept in VS Code's secret storage.`,
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
      showMessage('error', `Promptreel could not store the API key: ${describeError(error)}`, [{ title: 'Show Logs', command: CommandIds.showLogs }]);
      return undefined;
    }
    showMessage('info', `API key saved for ${baseUrl}.`, [{ title: 'Test Connection', command: CommandIds.testConnection }]);
    return { baseUrl };
  }

  async clearApiKey(): Promise<ClearApiKeyResult> {
    const baseUrl = this.store.scope;
    const cleared = await this.store.clear();
    const remaining = await this.store.get();
    const environmentKeyRemains = remaining?.source === 'environment';
    const where = baseUrl ?? 'the current base URL';
    const envNote = environmentKeyRemains ? ` The key from the ${API_KEY_ENV} environment variable is still used.` : '';
    showMessage('info', cleared ? `API key for ${where} removed.${envNote}` : `No API key is stored for ${where}.${envNote}`);
    return { baseUrl, cleared, environmentKeyRemains };
  }

  /** First run: the key is scoped to the base URL, so ask for that first. */
  private async askBaseUrl(): Promise<boolean> {
    const input = await vscode.window.showInputBox({
      title: 'Promptreel: Service Address (1/2)',
      prompt: 'The base URL of your OpenAI-compatible service, with or without /v1.',
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

export function validateApiKey(value: string): string | undefined {
  const key = value.trim();
  if (!key) return 'Enter the API key; it cannot be empty.';
  if (/\s/.test(key)) return 'An API key contains no spaces.';
  return undefined;
}

export function validateBaseUrl(value: string): string | undefined {
  if (!value.trim()) return 'Enter the address of the service, e.g. https://api.example.com.';
  try {
    normalizeBaseUrl(value);
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}
