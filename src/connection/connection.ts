import type { PromptreelClient } from '../api';
import { confirmCharge } from '../account/confirmCharge';
import { KeyHealthMonitor } from '../account/core/keyHealthMonitor';
import { PriceBook } from '../account/core/priceBook';
import type { ApiKeyStore } from '../auth/apiKeyStore';
import { ensureApiKey } from '../auth/ensureApiKey';
import { systemClock, type Clock } from '../common/clock';
import { Emitter, type Event } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { ClientProvider } from './clientProvider';
import type { ChatModelChoice } from './core/chatModelChoice';
import type { ModelCatalog } from './core/modelCatalog';
import { ChargeGate, type ChargedVideoRequest } from './core/chargeGate';
import { videoFolderChoices } from '../config/folderChoices';

/**
 * The service as every feature sees it: where it is, whether it is ready (an address and a key the user chose), the
 * client, the one model catalog, the chat model in use, the key's quota and the prices. Features take this one
 * object, not the parts.
 */
export class Connection extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** The key, the address or the proxy changed: what was read from the service may be out of date. */
  readonly onDidChange: Event<void> = this.changed.event;
  /** What is left on the key and when it expires (read off the activation path, see AccountFeature). */
  readonly keyHealth: KeyHealthMonitor;
  /** The price of each model: the user's settings over the service's list (never a folder's settings). */
  readonly prices: PriceBook;
  /** The one gate before `POST /v1/videos`: nothing is sent without an accepted confirmation of that exact request. */
  readonly videoCharges: ChargeGate<ChargedVideoRequest>;

  constructor(
    readonly keyStore: ApiKeyStore,
    readonly clients: ClientProvider,
    readonly catalog: ModelCatalog,
    readonly chatModel: ChatModelChoice,
    settings: Settings,
    log: ComponentLogger,
    readonly clock: Clock = systemClock,
  ) {
    super();
    const reader = async () => (await this.readyClient())?.account;
    this.keyHealth = this._register(new KeyHealthMonitor({ reader, clock, log }));
    this.prices = this._register(new PriceBook({ reader, overrides: () => settings.userValue('models.prices'), log }));
    this.videoCharges = new ChargeGate<ChargedVideoRequest>({
      priceOf: (model) => this.prices.priceOf(model),
      keyHealth: () => (this.keyHealth.state.kind === 'unknown' ? this.keyHealth.refresh() : Promise.resolve(this.keyHealth.state)),
      fromFolder: (requests) => videoFolderChoices(settings, requests),
      clock,
    });
    const changed = () => {
      this.keyHealth.forget();
      this.prices.forget();
      this.changed.fire();
    };
    this._register(keyStore.onDidChange(changed));
    this._register(clients.onDidChange(changed));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('models.prices')) this.prices.settingsChanged();
      }),
    );
  }

  /** The normalized base URL of the service (the scope of its key), or undefined while none is set. */
  get service(): string | undefined {
    return this.keyStore.scope;
  }

  async hasKey(): Promise<boolean> {
    return (await this.keyStore.get()) !== undefined;
  }

  /** Asks nothing: the client when an address and a key are there (background work), else undefined. */
  async readyClient(): Promise<PromptreelClient | undefined> {
    const client = this.clients.get();
    return client && (await this.hasKey()) ? client : undefined;
  }

  /**
   * For a command the user started: the client, or undefined after offering the way out (Set API Key, Open
   * Settings). A service only the workspace's settings name is confirmed first (once per origin).
   */
  async ensureReady(purpose: string): Promise<PromptreelClient | undefined> {
    if (!(await ensureApiKey(this.keyStore, purpose))) return undefined;
    return this.clients.get();
  }

  /**
   * For a command that sends a charged request: `ensureReady`, then, when the key is known to be expired or used
   * up, says so before anything is sent (the user may still send).
   */
  async ensureReadyToCharge(purpose: string): Promise<PromptreelClient | undefined> {
    const client = await this.ensureReady(purpose);
    if (!client || !(await confirmCharge(this.keyHealth.state, this.clock.now(), purpose))) return undefined;
    return client;
  }
}
