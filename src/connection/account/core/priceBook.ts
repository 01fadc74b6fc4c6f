import type { AccountApi } from '../../../api/serviceClient';
import type { ApiLogger } from '../../../api/apiLogger';
import { modelPrices, type ModelPrice } from '../../../api/account/prices';
import { Emitter, type Event } from '../../../common/emitter';
import { Disposable } from '../../../common/lifecycle';
import type { PriceSetting } from '../../../config/schema';

/** A model's price, and where it comes from (the user's setting wins over the service's list). */
export type PriceQuote = ModelPrice & { source: 'service' | 'settings' };

export interface PriceBookOptions {
  /** The account reader of the service and key in use, or undefined while there is none (nothing is asked). */
  reader: () => Promise<AccountApi | undefined>;
  /** `promptreel.models.prices`. */
  overrides: () => Readonly<Record<string, PriceSetting>>;
  log: ApiLogger;
}

/**
 * The price of each model: `promptreel.models.prices` over the service's `/api/pricing` (read once per service and
 * key, never while VS Code starts: only when a price is first wanted). Never throws: a service without prices
 * leaves only the settings.
 */
export class PriceBook extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** Prices arrived from the service, the settings changed, or the service changed. */
  readonly onDidChange: Event<void> = this.changed.event;
  private listed: Promise<ReadonlyMap<string, ModelPrice>> | undefined;
  private settled: ReadonlyMap<string, ModelPrice> | undefined;
  private generation = 0;

  constructor(private readonly options: PriceBookOptions) {
    super();
  }

  /** Every known price, reading the service's list if it has not been read for this service yet. */
  async prices(): Promise<ReadonlyMap<string, PriceQuote>> {
    await this.serviceList();
    return this.known();
  }

  async priceOf(model: string): Promise<PriceQuote | undefined> {
    return (await this.prices()).get(model);
  }

  /** What is known now, without asking the service (the settings, and the service's list once it has arrived). */
  known(): ReadonlyMap<string, PriceQuote> {
    return withPriceSettings(this.settled ?? new Map(), this.options.overrides());
  }

  /** Another key or service: its prices may differ. */
  forget(): void {
    this.generation++;
    this.listed = undefined;
    this.settled = undefined;
    this.changed.fire();
  }

  /** `promptreel.models.prices` changed. */
  settingsChanged(): void {
    this.changed.fire();
  }

  private serviceList(): Promise<ReadonlyMap<string, ModelPrice>> {
    this.listed ??= this.read();
    return this.listed;
  }

  private async read(): Promise<ReadonlyMap<string, ModelPrice>> {
    const generation = this.generation;
    const empty = new Map<string, ModelPrice>();
    try {
      const reader = await this.options.reader();
      if (!reader) {
        this.listed = undefined; // asked again once there is a service and a key
        return empty;
      }
      const pricing = await reader.pricing();
      const prices = pricing.offered ? modelPrices(pricing.value) : empty;
      if (!pricing.offered) this.options.log.debug(`The service publishes no prices: ${pricing.why}`);
      if (generation === this.generation) {
        this.settled = prices;
        this.changed.fire();
      }
      return prices;
    } catch (error) {
      this.options.log.debug(`Could not read the prices: ${error instanceof Error ? error.message : String(error)}`);
      if (generation === this.generation) this.listed = undefined; // a failed read is tried again next time
      return empty;
    }
  }
}

/** The service's prices with `promptreel.models.prices` over them, each with where it comes from. */
export function withPriceSettings(listed: ReadonlyMap<string, ModelPrice>, settings: Readonly<Record<string, PriceSetting>>): Map<string, PriceQuote> {
  const quotes = new Map<string, PriceQuote>();
  for (const [model, price] of listed) quotes.set(model, { ...price, source: 'service' });
  for (const [model, setting] of Object.entries(settings)) {
    const price = priceFromSetting(setting);
    if (price) quotes.set(model, { ...price, source: 'settings' });
  }
  return quotes;
}

/**
 * `{perRequest}` is per call; `{perSecond}` per second of video; `{input, output}` per 1M tokens (`output` defaults to
 * `input`); without any: no price. The first of these that is set counts.
 */
export function priceFromSetting(setting: PriceSetting): ModelPrice | undefined {
  if (setting.perRequest !== undefined) return { kind: 'per-call', usd: setting.perRequest };
  if (setting.perSecond !== undefined) return { kind: 'per-second', usd: setting.perSecond };
  if (setting.input === undefined) return undefined;
  return { kind: 'per-token', promptUsdPerMillion: setting.input, completionUsdPerMillion: setting.output ?? setting.input };
}
