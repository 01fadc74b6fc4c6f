import { CommandIds, LANGUAGE_MODEL_VENDOR } from '../common/contributions';
import * as vscode from 'vscode';
import type { Connection } from '../connection/connection';
import { Emitter } from '../common/emitter';
import { t } from '../api/l10n';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import { showMessage } from '../workbench/showMessage';
import type { Settings } from '../config/settings';
import { abortOn } from '../workbench/abortOn';
import { LazyFeature } from '../workbench/lazyFeature';
import { TokenCalibration } from './core/tokenCalibration';
import type { LanguageModelResponder } from './languageModelResponder';

/** Promptreel's chat models in VS Code's own model list (`vscode.lm`), answering through the Promptreel client. */
export class PromptreelChatProvider extends Disposable implements vscode.LanguageModelChatProvider {
  readonly onDidChangeLanguageModelChatInformation: vscode.Event<void>;
  /** Exposed for tests: how the estimate follows what the service counts, per model. */
  readonly calibration = new TokenCalibration();

  /** The code that answers loads when VS Code first asks, not with every window. */
  private readonly responder: LazyFeature<LanguageModelResponder>;

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {
    super();
    this.responder = this._register(
      new LazyFeature(
        'VS Code Chat answers',
        async () => new (await import('./languageModelResponder')).LanguageModelResponder(settings, connection, this.calibration, log),
        log,
      ),
    );
    // The list changes with the catalog, and its details with the prices.
    const changed = this._register(new Emitter<void>());
    this._register(connection.catalog.onDidChange(() => changed.fire()));
    this._register(connection.prices.onDidChange(() => changed.fire()));
    this.onDidChangeLanguageModelChatInformation = changed.event;
    this._register(vscode.lm.registerLanguageModelChatProvider(LANGUAGE_MODEL_VENDOR, this));
  }

  async provideLanguageModelChatInformation(
    options: vscode.PrepareLanguageModelChatModelOptions,
    token: vscode.CancellationToken,
  ): Promise<vscode.LanguageModelChatInformation[]> {
    const scope = this.connection.service;
    if (!scope || !(await this.connection.readyClient())) {
      // Asked silently (VS Code resolving models in the background): no prompts, just nothing to offer.
      if (!options.silent) {
        const { ensureReady } = await import('../workbench/readiness');
        await ensureReady(this.connection, t('Using Promptreel models in VS Code Chat'));
      }
      return [];
    }
    const cancel = abortOn(token);
    try {
      const [models, { modelInformation }] = await Promise.all([this.connection.catalog.chatModels(cancel.signal), import('./core/modelInformation')]);
      // Prices known now go into the details; a first read fires a change when it arrives (never waited on here).
      void this.connection.prices.prices();
      const prices = this.connection.prices.known();
      // A gateway may list hundreds of models: promptreel.models.shown picks the ones VS Code's picker offers.
      const shown = this.settings.get('models.shown');
      const offered = shown.length ? models.filter((model) => shown.includes(model.id)) : models;
      return offered.map((model) => modelInformation(model, this.settings.capabilities(model.id), scope, prices.get(model.id)));
    } catch (error) {
      if (cancel.signal.aborted) return [];
      this.log.warn(`Could not list the models for VS Code: ${describeError(error)}`);
      if (!options.silent) {
        showMessage('error', t('Promptreel could not list the models of {0}: {1}', scope, describeError(error)), [
          { title: t('Test Connection'), command: CommandIds.testConnection },
          { title: t('Open Settings'), command: CommandIds.openSettings, args: ['promptreel.baseUrl'] },
          { title: t('Show Logs'), command: CommandIds.showLogs },
        ]);
      }
      return [];
    } finally {
      cancel.dispose();
    }
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    // A failure to load reaches VS Code's Chat as the request's error (and the log), where the user is looking.
    return (await this.responder.get()).provideLanguageModelChatResponse(model, messages, options, progress, token);
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return (await this.responder.get()).provideTokenCount(model, text);
  }
}
