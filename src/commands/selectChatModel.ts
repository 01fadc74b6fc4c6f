import { ensureReady } from '../workbench/readiness';
import type { CommandHandler } from '../workbench/registerCommands';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { ModelInfo } from '../api/models';
import type { PriceQuote } from '../connection/account/core/priceBook';
import type { Connection } from '../connection/connection';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { modelDescription } from '../connection/account/core/modelDescription';
import { t } from '../api/l10n';

interface ModelItem extends vscode.QuickPickItem {
  modelId: string;
}

/** `Promptreel: Select Chat Model`: a quick pick over the chat models of `/v1/models`; writes `promptreel.chat.model` (global). */
export class SelectChatModelCommand {
  readonly handlers: Readonly<Record<string, CommandHandler>> = { [CommandIds.selectChatModel]: () => this.run() };

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {}

  /** Returns the model chosen, or undefined when the pick was dismissed. */
  async run(): Promise<string | undefined> {
    if (!(await ensureReady(this.connection, t('Selecting the chat model')))) return undefined;
    const current = this.settings.chat.model;
    const pick = vscode.window.createQuickPick<ModelItem>();
    const disposables: vscode.Disposable[] = [pick];
    const loading = new AbortController();
    try {
      pick.title = t('Promptreel: Select Chat Model');
      pick.placeholder = t('Loading the models of the service…');
      pick.busy = true;
      pick.matchOnDescription = true;
      let listed: ModelItem[] = current ? [itemFor(current, current)] : [];
      pick.items = listed;

      // Lets the user type a model id the service does not list (or while the list is unavailable).
      const refreshItems = () => {
        const typed = pick.value.trim();
        const custom =
          typed && !listed.some((item) => item.modelId === typed)
            ? [{ modelId: typed, label: typed, description: t('Use this model id'), alwaysShow: true }]
            : [];
        pick.items = [...listed, ...custom];
      };
      disposables.push(pick.onDidChangeValue(refreshItems));

      // The prices arrive with (or after) the list; never wait for them to show the models.
      const prices = this.connection.prices;
      void prices.prices();
      let models: ModelInfo[] | undefined;
      const showPrices = () => {
        if (!models) return;
        const known = prices.known();
        listed = models.map((model) => itemFor(model.id, current, model, known.get(model.id)));
        if (current && !listed.some((item) => item.modelId === current))
          listed.unshift({ ...itemFor(current, current, undefined, known.get(current)), detail: t('Not listed by the service for this key') });
        refreshItems();
      };
      disposables.push(prices.onDidChange(showPrices));
      void this.connection.catalog.chatModels(loading.signal).then(
        (listedModels) => {
          models = listedModels;
          showPrices();
          pick.placeholder = listed.length ? t('Pick the model for chat') : t('The service lists no chat model: type a model id');
          const currentItem = pick.items.find((item) => item.modelId === current);
          if (currentItem) pick.activeItems = [currentItem];
          pick.busy = false;
        },
        (error: unknown) => {
          if (loading.signal.aborted) return;
          this.log.warn(`Could not list the models: ${describeError(error)}`);
          pick.placeholder = t('Could not list the models ({0}). Type a model id.', describeError(error));
          pick.busy = false;
        },
      );

      const chosen = await new Promise<string | undefined>((resolve) => {
        disposables.push(pick.onDidAccept(() => resolve(pick.selectedItems[0]?.modelId ?? (pick.value.trim() || undefined))));
        disposables.push(pick.onDidHide(() => resolve(undefined)));
        pick.show();
      });
      pick.hide();
      if (!chosen) return undefined;
      if (chosen !== current) {
        await this.settings.update('chat.model', chosen);
        this.log.info(`Chat model set to ${chosen}.`);
      }
      return chosen;
    } finally {
      loading.abort();
      for (const disposable of disposables) disposable.dispose();
    }
  }
}

function itemFor(id: string, current: string, model?: ModelInfo, price?: PriceQuote): ModelItem {
  return {
    modelId: id,
    label: id,
    description: modelDescription(id, current, model?.ownedBy, price),
  };
}
