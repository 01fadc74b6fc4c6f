import type { ServiceClient } from '../api/serviceClient';
import { keyProblem } from './account/core/keyWarnings';
import { originOf } from './keys/core/serviceChoice';
import type { Missing } from './core/recovery';
import { KeyHealthMonitor } from './account/core/keyHealthMonitor';
import { PriceBook } from './account/core/priceBook';
import type { ApiKeyStore } from './keys/apiKeyStore';
import { systemClock, type Clock } from '../common/clock';
import { Emitter, type Event } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { ClientProvider } from './clientProvider';
import type { ChatModelChoice } from './core/chatModelChoice';
import type { ModelCatalog } from './core/modelCatalog';
import type { ChargeGate, ChargedVideoRequest } from './core/chargeGate';
import { SpendTracker } from './account/core/spendTracker';
import { KeyLogMonitor } from './account/core/keyLogMonitor';
import { ChargedCosts } from './account/core/chargedCosts';
import { BudgetGuard } from './budgetGuard';
import { memoryState, type StateStorage } from '../common/stateStorage';

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
  /** The gate, once its code has loaded (see `videoCharges`). */
  private chargeGate: Promise<ChargeGate<ChargedVideoRequest>> | undefined;
  private readonly settings: Settings;
  /** What the gateway really charged, from its log of the key (read when first needed, once per burst of charges). */
  readonly keyLog: KeyLogMonitor;
  /** What every charged request cost, as recorded here and as the gateway's log says. */
  readonly spending: SpendTracker;
  /** What each of this machine's requests really cost, from the gateway's log. */
  readonly charges: ChargedCosts;
  /** The user's daily and monthly budgets: every charge is checked against them. */
  readonly budgets: BudgetGuard;

  constructor(
    readonly keyStore: ApiKeyStore,
    readonly clients: ClientProvider,
    readonly catalog: ModelCatalog,
    readonly chatModel: ChatModelChoice,
    settings: Settings,
    log: ComponentLogger,
    readonly clock: Clock = systemClock,
    memory: StateStorage = memoryState(),
  ) {
    super();
    this.settings = settings;
    const reader = async () => (await this.readyClient())?.account;
    this.keyHealth = this._register(new KeyHealthMonitor({ reader, clock, log }));
    this.prices = this._register(new PriceBook({ reader, overrides: () => settings.userValue('models.prices'), log }));
    this.keyLog = this._register(new KeyLogMonitor({ reader, display: (account) => this.keyHealth.displayOf(account), clock, log }));
    this.spending = this._register(
      new SpendTracker({
        memory,
        clock,
        priceOf: (model) => this.prices.known().get(model),
        loggedSpend: async () => {
          const entries = await this.keyLog.entries();
          if (!entries) return undefined;
          const { spendSummary } = await import('./account/core/spendSummary');
          const summary = spendSummary(entries, clock.now());
          return { todayUsd: summary.todayUsd, monthUsd: summary.monthUsd, source: 'log' as const };
        },
      }),
    );
    this.charges = this._register(new ChargedCosts(this.keyLog, this.spending, () => this.service, clock));
    this._register(clients.onDidRecordCharge(({ service, record }) => this.spending.record(service, record)));
    this._register(clients.onDidCharge(() => this.keyLog.afterCharge()));
    this.budgets = this._register(new BudgetGuard(settings, this.spending, () => this.service, memory, clock, log));
    const changed = () => {
      this.keyHealth.forget();
      this.keyLog.forget();
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

  /**
   * The one gate before `POST /v1/videos`: nothing is sent without an accepted confirmation of that exact request.
   * One gate for the window; its code loads with the first video a user prices.
   */
  videoCharges(): Promise<ChargeGate<ChargedVideoRequest>> {
    this.chargeGate ??= Promise.all([import('./core/chargeGate'), import('../config/folderChoices')]).then(
      ([{ ChargeGate }, { videoFolderChoices }]) =>
        new ChargeGate<ChargedVideoRequest>({
          priceOf: (model) => this.prices.priceOf(model),
          budgetNote: (priceUsd) => this.budgets.confirmationNote(priceUsd),
          keyHealth: () => (this.keyHealth.state.kind === 'unknown' ? this.keyHealth.refresh() : Promise.resolve(this.keyHealth.state)),
          fromFolder: (requests) => videoFolderChoices(this.settings, requests),
          clock: this.clock,
        }),
    );
    // A gate that could not load is tried again on the next use.
    this.chargeGate.catch(() => (this.chargeGate = undefined));
    return this.chargeGate;
  }

  /** The normalized base URL of the service (the scope of its key), or undefined while none is set. */
  get service(): string | undefined {
    return this.keyStore.scope;
  }

  /**
   * Whether a request can be sent now, or what is missing: the address, the user's confirmation of a service only the
   * folder's settings name, or the key. Asks nothing and shows nothing (each surface renders what is missing, see
   * workbench/readiness.ts). `keyProblem`: the key is known to have expired or run out (the request may still go:
   * the service decides).
   */
  async readiness(): Promise<Readiness> {
    const service = this.keyStore.scope;
    const client = this.clients.get();
    if (!service || !client) return { kind: 'missing', missing: 'address' };
    if (!this.keyStore.isServiceChosen()) return { kind: 'missing', missing: 'unconfirmed', origin: originOf(service) ?? service };
    if (!(await this.keyStore.get())) return { kind: 'missing', missing: 'key', service };
    const keyProblem = this.keyProblem();
    return { kind: 'ready', service, client, ...(keyProblem ? { keyProblem } : {}) };
  }

  /** The client when the service is ready (background work: nothing is asked), else undefined. */
  async readyClient(): Promise<ServiceClient | undefined> {
    const readiness = await this.readiness();
    return readiness.kind === 'ready' ? readiness.client : undefined;
  }

  /** Before a chat request: false when a budget is spent and the user chose not to send (asked once per period). */
  allowChatCharge(): Promise<boolean> {
    return this.budgets.allowChat();
  }

  /** Why the key will likely be refused (expired, used up), as last read; undefined when nothing is known against it. */
  keyProblem(): string | undefined {
    return keyProblem(this.keyHealth.state, this.clock.now());
  }
}

/** Ready to send, or what is missing first. */
export type Readiness = { kind: 'ready'; service: string; client: ServiceClient; keyProblem?: string } | ({ kind: 'missing' } & Missing);
