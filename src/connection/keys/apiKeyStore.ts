import type * as vscode from 'vscode';
import { Emitter } from '../../common/emitter';
import { normalizeBaseUrl } from '../../api/baseUrl';
import { Disposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import type { SecretRedactor } from '../../common/redactor';
import type { Settings } from '../../config/settings';
import type { ServiceTrust } from './core/serviceTrust';
import { t } from '../../api/l10n';

export const API_KEY_ENV = 'PROMPTREEL_API_KEY';
const SECRET_PREFIX = 'promptreel.apiKey:';

export type ApiKeySource = 'secret-storage' | 'environment';

export interface ApiKeyInfo {
  key: string;
  source: ApiKeySource;
}

/**
 * The one door to the API key. Keys live in SecretStorage under a name scoped to the normalized base URL (a key
 * made for one service is never sent to another); `PROMPTREEL_API_KEY` is the fallback when none is stored.
 * No key is handed out for a service that only a workspace's settings name until the user confirmed it
 * (`ServiceTrust`): requests in the background then go without one. Every key read or written is registered
 * with the redactor before anyone can log it.
 */
export class ApiKeyStore extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** Fires when the key for the current base URL may have changed (this window, another window, or a new base URL). */
  readonly onDidChange = this.changed.event;
  /**
   * Stored keys by secret name, as read: each request needs the key, and a SecretStorage read is a round trip to the
   * workbench (5–15 ms, far more while it is busy). Forgotten whenever SecretStorage says a key changed.
   */
  private readonly cache = new Map<string, Promise<string | undefined>>();
  /**
   * What this window last wrote under a name (undefined: deleted), until SecretStorage echoes the write back. The
   * echo is not a change: this window announced it when it wrote, and a second announcement would make every
   * listener (the model list, the views) read the service again.
   */
  private readonly ownWrites = new Map<string, string | undefined>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly settings: Settings,
    private readonly redactor: SecretRedactor,
    private readonly log: ComponentLogger,
    private readonly trust: ServiceTrust,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    super();
    this._register(trust.onDidChange(() => this.changed.fire()));
    this._register(secrets.onDidChange((event) => void this.onSecretChanged(event.key)));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('baseUrl')) this.changed.fire();
      }),
    );
  }

  /** The normalized base URL the key belongs to, or undefined while the base URL is unset or invalid. */
  get scope(): string | undefined {
    return scopeOf(this.settings.baseUrl);
  }

  /** The key for the current service, or undefined when there is none or the user has not chosen the service. */
  async get(): Promise<ApiKeyInfo | undefined> {
    const scope = this.scope;
    if (scope && !this.trust.isChosen(scope)) return undefined;
    return this.find();
  }

  /**
   * A service named only by a workspace's settings, with a key the user has for it that is held back until the
   * user confirms the service (undefined otherwise). Never the key itself.
   */
  async awaitingConfirmation(): Promise<{ scope: string; source: ApiKeySource } | undefined> {
    const scope = this.scope;
    if (!scope || this.trust.isChosen(scope)) return undefined;
    const found = await this.find();
    return found ? { scope, source: found.source } : undefined;
  }

  /** True when the current service is the user's (their settings, or confirmed once). */
  isServiceChosen(): boolean {
    const scope = this.scope;
    return !scope || this.trust.isChosen(scope);
  }

  /** The current service when the user chose it (their settings, or confirmed once); undefined when unset or not chosen. */
  chosenScope(): string | undefined {
    const scope = this.scope;
    return scope && this.trust.isChosen(scope) ? scope : undefined;
  }

  /** The user confirmed the current service: its keys may be sent there from now on, in every window. */
  async confirmService(): Promise<void> {
    const scope = this.scope;
    if (scope) await this.trust.confirm(scope);
  }

  private async find(): Promise<ApiKeyInfo | undefined> {
    const name = this.secretName();
    const stored = name ? await this.read(name) : undefined;
    if (stored) {
      this.redactor.register(stored);
      return { key: stored, source: 'secret-storage' };
    }
    const fromEnv = this.env[API_KEY_ENV]?.trim();
    if (fromEnv) {
      this.redactor.register(fromEnv);
      return { key: fromEnv, source: 'environment' };
    }
    return undefined;
  }

  async getKey(): Promise<string | undefined> {
    return (await this.get())?.key;
  }

  async hasStoredKey(): Promise<boolean> {
    const name = this.secretName();
    return !!name && !!(await this.read(name));
  }

  /** Stores a key for the current base URL; throws when there is no valid base URL to scope it to. */
  async store(key: string): Promise<void> {
    const value = key.trim();
    if (!value) throw new Error(t('The API key is empty.'));
    const name = this.secretName();
    if (!name) throw new Error(t('Set promptreel.baseUrl before storing an API key.'));
    this.redactor.register(value);
    this.cache.delete(name);
    this.ownWrites.set(name, value);
    try {
      await this.secrets.store(name, value);
    } catch (error) {
      this.ownWrites.delete(name);
      throw error;
    }
    this.rememberOwnWrite(name, value);
    this.log.info(`Stored an API key for ${this.scope}.`);
    this.changed.fire();
  }

  /** Deletes the stored key for the current base URL; false when there was none. */
  async clear(): Promise<boolean> {
    const name = this.secretName();
    if (!name || !(await this.hasStoredKey())) return false;
    this.cache.delete(name);
    this.ownWrites.set(name, undefined);
    try {
      await this.secrets.delete(name);
    } catch (error) {
      this.ownWrites.delete(name);
      throw error;
    }
    this.rememberOwnWrite(name, undefined);
    this.log.info(`Removed the API key for ${this.scope}.`);
    this.changed.fire();
    return true;
  }

  /** A read begun while the write was on its way may hold the old key; until the echo arrives, the written one is it. */
  private rememberOwnWrite(name: string, value: string | undefined): void {
    if (this.ownWrites.has(name)) this.cache.set(name, Promise.resolve(value));
  }

  private async onSecretChanged(name: string): Promise<void> {
    this.cache.delete(name);
    const expected = this.ownWrites.get(name);
    const wasOwnWrite = this.ownWrites.delete(name);
    if (name !== this.secretName()) return;
    if (wasOwnWrite) {
      const now = await this.read(name).catch(() => null);
      if (now === expected) return;
    }
    this.log.info('The stored API key changed.');
    this.changed.fire();
  }

  private read(name: string): Promise<string | undefined> {
    let pending = this.cache.get(name);
    if (!pending) {
      pending = Promise.resolve(this.secrets.get(name)).then((value) => value?.trim() || undefined);
      this.cache.set(name, pending);
      // A failed read is not remembered: the next request asks again.
      pending.catch(() => {
        if (this.cache.get(name) === pending) this.cache.delete(name);
      });
    }
    return pending;
  }

  private secretName(): string | undefined {
    const scope = this.scope;
    return scope ? SECRET_PREFIX + scope : undefined;
  }
}

function scopeOf(baseUrl: string): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return normalizeBaseUrl(baseUrl);
  } catch {
    return undefined;
  }
}
