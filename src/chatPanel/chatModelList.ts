import { Emitter } from '../common/emitter';
import { t } from '../api/l10n';
import type { Connection } from '../connection/connection';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { ModelsView } from './webview/protocol';
import { describePrice } from '../api/account/prices';

/**
 * The chat models the panel offers: `/v1/models` (video models left out), loaded on first use and again when the
 * key, the address or the proxy changes. When the list cannot be loaded, the `promptreel.chat.model` setting is offered.
 */
export class ChatModelList extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange = this.changed.event;
  private ids: string[] = [];
  private loading = false;
  private inFlight: Promise<void> | undefined;
  private error: string | undefined;
  private loaded = false;
  private generation = 0;
  private abort: AbortController | undefined;

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(connection.onDidChange(() => this.invalidate()));
    this._register(connection.prices.onDidChange(() => this.changed.fire()));
    this._register({ dispose: () => this.abort?.abort() });
  }

  /** The current list, with the configured model added when the service does not list it. */
  get view(): ModelsView {
    const configured = this.settings.chat.model;
    const ids = configured && !this.ids.includes(configured) ? [configured, ...this.ids] : [...this.ids];
    const known = this.connection.prices.known();
    const prices: Record<string, string> = {};
    for (const id of ids) {
      const price = known.get(id);
      if (price) prices[id] = describePrice(price);
    }
    return { ids, prices, loading: this.loading, stale: this.stale, ...(this.error ? { error: this.error } : {}) };
  }

  /** Loads the list once (later calls reuse it until something changes). */
  ensureLoaded(): void {
    if (!this.loaded && !this.loading) void this.refresh();
  }

  refresh(): Promise<void> {
    this.inFlight = this.load();
    return this.inFlight;
  }

  private async load(): Promise<void> {
    const generation = ++this.generation;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.loading = true;
    this.changed.fire();
    try {
      // Shown after "Model list unavailable:" in the page.
      const readiness = await this.connection.readiness();
      if (readiness.kind === 'missing') throw new Error(missingWords(readiness.missing));
      // The prices come with the list or after it; the list never waits for them.
      void this.connection.prices.prices();
      const models = await this.connection.catalog.chatModels(abort.signal);
      if (generation !== this.generation) return;
      this.ids = models.map((model) => model.id);
      this.error = undefined;
    } catch (error) {
      if (generation !== this.generation) return;
      this.error = describeError(error);
      this.log.warn(`Could not list the chat models: ${this.error}`);
    }
    this.loading = false;
    this.loaded = true;
    this.changed.fire();
  }

  /** True when the list is out of date (never loaded, or the key or address changed since). */
  get stale(): boolean {
    return !this.loaded && !this.loading;
  }

  /**
   * Forgets the list. It is loaded again when a chat webview opens or the user opens its model picker: nothing is
   * asked of the service just because the key or the address changed.
   */
  private invalidate(): void {
    this.generation++;
    this.abort?.abort();
    this.loaded = false;
    this.loading = false;
    this.ids = [];
    this.error = undefined;
    this.changed.fire();
  }
}

/** Shown after "Model list unavailable:" in the page. */
function missingWords(missing: 'address' | 'unconfirmed' | 'key'): string {
  switch (missing) {
    case 'address':
      return t('the address of the service is not set');
    case 'unconfirmed':
      return t("the service this folder's settings name is not confirmed yet");
    case 'key':
      return t('no API key is set');
  }
}
