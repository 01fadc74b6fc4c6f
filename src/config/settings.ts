import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { normalizeBaseUrl } from '../api';
import type { BaseUrlLevels } from '../auth/core/serviceChoice';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { SETTING_DEFAULTS, parseSetting, type ModelCapabilities, type SettingKey, type SettingValue } from './schema';
import type { ChatSampling } from './chatSampling';

export const SECTION = 'promptreel';

export type ChatSettings = ChatSampling;

export interface VideoSettings {
  model: string;
  /** Always a string: gateways built on new-api refuse a JSON number. */
  seconds: string;
  resolution: string;
  ratio: string;
  generateAudio: boolean;
  watermark: boolean;
  moderator: boolean;
  downloadFolder: string;
  pollIntervalSeconds: number;
  historySize: number;
  staleAfterHours: number;
  autoDownload: boolean;
  /** `metadata.seed`; null: none (the service picks a random one). */
  seed: number | null;
}

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
    const raw = vscode.workspace.getConfiguration(SECTION).get<unknown>(key);
    if (raw === undefined) return SETTING_DEFAULTS[key];
    const value = parseSetting(key, raw);
    if (value !== undefined) return value;
    if (!this.warned.has(key)) {
      this.warned.add(key);
      this.log.warn(`Ignoring the invalid value of ${SECTION}.${key}; using the default.`);
    }
    return SETTING_DEFAULTS[key];
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

  get chat(): ChatSettings {
    return {
      model: this.get('chat.model').trim(),
      temperature: this.get('chat.temperature'),
      topP: this.get('chat.topP'),
      frequencyPenalty: this.get('chat.frequencyPenalty'),
      presencePenalty: this.get('chat.presencePenalty'),
      maxTokens: this.get('chat.maxTokens'),
    };
  }

  get video(): VideoSettings {
    return {
      model: this.get('video.model').trim(),
      seconds: this.get('video.seconds'),
      resolution: this.get('video.resolution'),
      ratio: this.get('video.ratio'),
      generateAudio: this.get('video.generateAudio'),
      watermark: this.get('video.watermark'),
      moderator: this.get('video.moderator'),
      downloadFolder: this.get('video.downloadFolder'),
      pollIntervalSeconds: this.get('video.pollIntervalSeconds'),
      historySize: this.get('video.historySize'),
      staleAfterHours: this.get('video.staleAfterHours'),
      autoDownload: this.get('video.autoDownload'),
      seed: this.get('video.seed'),
    };
  }

  /** What the user declared about a model (settings), or nothing. */
  capabilities(model: string): ModelCapabilities | undefined {
    return this.get('models.capabilities')[model];
  }

  async update<K extends SettingKey>(key: K, value: SettingValue<K> | undefined, target = vscode.ConfigurationTarget.Global): Promise<void> {
    await vscode.workspace.getConfiguration(SECTION).update(key, value, target);
  }
}
