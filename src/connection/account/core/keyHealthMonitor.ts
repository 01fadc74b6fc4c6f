import type { AccountApi } from '../../../api/serviceClient';
import type { ApiLogger } from '../../../api/apiLogger';
import { isApiError } from '../../../api/errors';
import { quotaDisplay, type KeyHealth, type QuotaDisplay } from '../../../api/account/keyHealth';
import type { Clock } from '../../../common/clock';
import { Emitter, type Event } from '../../../common/emitter';
import { Disposable, MutableDisposable } from '../../../common/lifecycle';

export type KeyHealthState =
  /** Not read yet, or no service and key to ask. */
  | { kind: 'unknown' }
  /** The service publishes neither the key usage nor the billing pair. */
  | { kind: 'not-offered' }
  /** The service refused the key when asked about it (often: it expired or ran out). */
  | { kind: 'refused'; message: string }
  | { kind: 'known'; health: KeyHealth; display: QuotaDisplay; readAt: number };

export interface KeyHealthOptions {
  /** The account reader of the service and key in use, or undefined while there is none (nothing is asked). */
  reader: () => Promise<AccountApi | undefined>;
  clock: Clock;
  log: ApiLogger;
  /** A charged request is followed by one read, this long after the last of a burst. */
  chargeDebounceMs?: number;
}

const DEFAULT_CHARGE_DEBOUNCE_MS = 5_000;

/**
 * What is left on the key and when it expires, read from the service: on demand, and once after a burst of charged
 * requests. Reads never overlap; a failed read (the network) keeps what was known.
 */
export class KeyHealthMonitor extends Disposable {
  private current: KeyHealthState = { kind: 'unknown' };
  private readonly changed = this._register(new Emitter<KeyHealthState>());
  readonly onDidChange: Event<KeyHealthState> = this.changed.event;
  private readonly debounce = this._register(new MutableDisposable());
  private reading: Promise<KeyHealthState> | undefined;
  private generation = 0;
  /** The service's display unit: read once per service (it is the same for every key and never changes meanwhile). */
  private display: Promise<QuotaDisplay> | undefined;

  constructor(private readonly options: KeyHealthOptions) {
    super();
  }

  get state(): KeyHealthState {
    return this.current;
  }

  /** Reads now (joining a read in flight). */
  refresh(): Promise<KeyHealthState> {
    if (!this.reading) {
      const reading = this.read().finally(() => {
        if (this.reading === reading) this.reading = undefined;
      });
      this.reading = reading;
    }
    return this.reading;
  }

  /** A request that the service charges went out: read again once the burst is over. */
  afterCharge(): void {
    this.debounce.value = this.options.clock.setTimeout(() => void this.refresh(), this.options.chargeDebounceMs ?? DEFAULT_CHARGE_DEBOUNCE_MS);
  }

  /** Another key or service: what was known is about the old one. */
  forget(): void {
    this.generation++;
    // A read in flight is about the old key: the next refresh reads anew rather than joining it.
    this.reading = undefined;
    this.display = undefined;
    this.debounce.clear();
    this.set({ kind: 'unknown' });
  }

  /** The service's display unit, read once per service (the key's log converts its quota with it too). */
  displayOf(reader: AccountApi): Promise<QuotaDisplay> {
    this.display ??= reader.status().then(
      (status) => quotaDisplay(status.offered ? status.value : undefined),
      () => {
        this.display = undefined; // a failed read is tried again next time
        return quotaDisplay(undefined);
      },
    );
    return this.display;
  }

  private async read(): Promise<KeyHealthState> {
    const generation = this.generation;
    const reader = await this.options.reader();
    if (!reader) return this.current;
    try {
      const display = this.displayOf(reader);
      const health = await reader.keyHealth(display);
      if (generation !== this.generation) return this.current;
      this.set(health ? { kind: 'known', health, display: await display, readAt: this.options.clock.now() } : { kind: 'not-offered' });
    } catch (error) {
      if (generation !== this.generation) return this.current;
      if (isApiError(error) && (error.status === 401 || error.status === 403)) this.set({ kind: 'refused', message: error.serverMessage ?? error.message });
      else this.options.log.debug(`Could not read the key quota: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.current;
  }

  private set(state: KeyHealthState): void {
    this.current = state;
    this.changed.fire(state);
  }
}
