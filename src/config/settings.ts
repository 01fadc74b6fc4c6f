import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { normalizeBaseUrl } from '../api/baseUrl';
import { DEFAULT_RATE_LIMIT, type RateLimitPolicy } from '../api/chat/rateLimitRetry';

import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { SETTING_DEFAULTS, parseSetting, type BaseUrlLevels, type ModelCapabilities, type SettingKey, type SettingValue } from './schema';
import type { ChatSampling } from './chatSampling';

export const SECTION = 'promptreel';

/** The settings of one group (`chat`, `video`), each under its name in the group: `video.seconds` is `seconds`. */
export type SettingGroup<G extends string> = { [K in SettingKey as K extends `${G}.${infer Name}` ? Name : never]: SettingValue<K> };

/** `promptreel.video.*`, as declared in schema.ts (`seconds` is always a string: new-api gateways refuse a number). */
export type VideoSettings = SettingGroup<'video'>;

/** A change of `promptreel.*` settings; `affects('chat.model')` narrows it to one key or group. */
export interface SettingsChange {
  affects(key: SettingKey | 'chat' | 'video' | 'models'): boolean;
}

/** The one typed door to the `promptreel.*` settings. */
export class Settings extends Disposable {
  private readonly changed = this._register(new Emitter<SettingsChange>());
  readonly onDidChange = this.changed.event;
  private readonly warned = new Set<string>();

  constructor(private readonly log: ComponentLogger) {
    super();
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (!event.affectsConfiguration(SECTION)) return;
        this.warned.clear();
        this.changed.fire({ affects: (key) => event.affectsConfiguration(`${SECTION}.${key}`) });
      }),
    );
  }

  get<K extends SettingKey>(key: K): SettingValue<K> {
    return this.read(vscode.workspace.getConfiguration(SECTION), key);
  }

  private read<K extends SettingKey>(configuration: vscode.WorkspaceConfiguration, key: K): SettingValue<K> {
    const raw = configuration.get<unknown>(key);
    if (raw === undefined) return SETTING_DEFAULTS[key];
    const value = parseSetting(key, raw);
    if (value !== undefined) return value;
    if (!this.warned.has(key)) {
      this.warned.add(key);
      this.log.warn(`Ignoring the invalid value of ${SECTION}.${key}; using the default.`);
    }
    return SETTING_DEFAULTS[key];
  }

  /**
   * The user's own value of `key` (their settings, or the default), whatever the open folder's settings say: for what
   * a repository must never decide, such as the prices shown before a charge.
   */
  userValue<K extends SettingKey>(key: K): SettingValue<K> {
    const raw = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key)?.globalValue;
    if (raw === undefined) return SETTING_DEFAULTS[key];
    return parseSetting(key, raw) ?? SETTING_DEFAULTS[key];
  }

  /** Whether the value of `key` in effect is the open folder's (`.vscode/settings.json`, a folder of a workspace), not the user's. */
  isFromFolder(key: SettingKey): boolean {
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key);
    const folderValue = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
    if (folderValue === undefined) return false;
    // In Restricted Mode VS Code ignores a folder's value of a restricted setting: then the value in effect is the user's.
    const inEffect = JSON.stringify(this.get(key));
    return inEffect === JSON.stringify(parseSetting(key, folderValue)) && inEffect !== JSON.stringify(this.userValue(key));
  }

  get baseUrl(): string {
    return this.get('baseUrl').trim();
  }

  /** Each level of promptreel.baseUrl: who set the address the key would go to. */
  baseUrlLevels(): BaseUrlLevels {
    const inspected = vscode.workspace.getConfiguration(SECTION).inspect<string>('baseUrl');
    return {
      defaultValue: inspected?.defaultValue,
      globalValue: inspected?.globalValue,
      workspaceValue: inspected?.workspaceValue,
      workspaceFolderValue: inspected?.workspaceFolderValue,
    };
  }

  /** The normalized base URL of the user (global) setting, whatever a workspace says; undefined when unset or invalid. */
  userBaseUrlScope(): string | undefined {
    const value = vscode.workspace.getConfiguration(SECTION).inspect<string>('baseUrl')?.globalValue?.trim();
    if (!value) return undefined;
    try {
      return normalizeBaseUrl(value);
    } catch {
      return undefined;
    }
  }

  /** The chat model and sampling values (`chat.tools` is read on its own). */
  get chat(): ChatSampling {
    const { model, temperature, topP, frequencyPenalty, presencePenalty, maxTokens } = this.group('chat');
    return { model: model.trim(), temperature, topP, frequencyPenalty, presencePenalty, maxTokens };
  }

  /** How a 429 is waited out before the user sees it (`chat.rateLimitRetries`, `chat.rateLimitMaxWaitSeconds`). */
  get rateLimit(): RateLimitPolicy {
    return {
      ...DEFAULT_RATE_LIMIT,
      retries: this.get('chat.rateLimitRetries'),
      maxWaitMs: this.get('chat.rateLimitMaxWaitSeconds') * 1000,
    };
  }

  get video(): VideoSettings {
    const video = this.group('video');
    return { ...video, model: video.model.trim() };
  }

  private group<G extends 'chat' | 'video'>(group: G): SettingGroup<G> {
    const values: Record<string, unknown> = {};
    // One configuration object for the group: VS Code builds a new one on each getConfiguration.
    const configuration = vscode.workspace.getConfiguration(SECTION);
    for (const key of Object.keys(SETTING_DEFAULTS) as SettingKey[]) {
      if (key.startsWith(`${group}.`)) values[key.slice(group.length + 1)] = this.read(configuration, key);
    }
    return values as SettingGroup<G>;
  }

  /** What the user declared about a model (settings), or nothing. */
  capabilities(model: string): ModelCapabilities | undefined {
    return this.get('models.capabilities')[model];
  }

  async update<K extends SettingKey>(key: K, value: SettingValue<K> | undefined, target = vscode.ConfigurationTarget.Global): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, target);
  }
}
