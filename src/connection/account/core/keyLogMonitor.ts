import type { AccountApi } from '../../../api/serviceClient';
import type { ApiLogger } from '../../../api/apiLogger';
import type { QuotaDisplay } from '../../../api/account/keyHealth';
import type { KeyLogEntry } from '../../../api/account/keyLog';
import type { Clock } from '../../../common/clock';
import { Emitter, type Event } from '../../../common/emitter';
import { Disposable, MutableDisposable } from '../../../common/lifecycle';

export type KeyLogState =
  /** Not read yet (nothing has needed it), or no service and key to ask. */
  | { kind: 'unknown' }
  /** The service publishes no log of the key (a 404, a web page, `success: false`). */
  | { kind: 'not-offered'; readAt: number }
  | { kind: 'known'; entries: readonly KeyLogEntry[]; readAt: number };

export interface KeyLogOptions {
  reader: () => Promise<AccountApi | undefined>;
  /** The service's display unit (quota units per dollar), read once per service by its owner (KeyHealthMonitor). */
  display: (reader: AccountApi) => Promise<QuotaDisplay>;
  clock: Clock;
  log: ApiLogger;
  /** After a burst of charged requests, one read this long after the last of them. */
  chargeDebounceMs?: number;
  /** When someone waits to show a charge that just ended (`soon()`), the read comes this long after. */
  waitingDebounceMs?: number;
}

const DEFAULT_CHARGE_DEBOUNCE_MS = 5_000;
/** Long enough for the gateway to write the entry of a request that just ended, short enough to wait for. */
const DEFAULT_WAITING_DEBOUNCE_MS = 1_000;
/** A service that published no log is asked again after this long (a gateway upgraded, a passing 404). */
const NOT_OFFERED_RECHECK_MS = 15 * 60_000;

/**
 * What the gateway really charged, from its log of the key (`/api/log/token`): read the first time something needs it
 * (never at activation), then once after each burst of charged requests, and only while something has needed it.
 * Reads never overlap; a failed read keeps what was known.
 */
export class KeyLogMonitor extends Disposable {
  private current: KeyLogState = { kind: 'unknown' };
  private readonly changed = this._register(new Emitter<KeyLogState>());
  readonly onDidChange: Event<KeyLogState> = this.changed.event;
  private readonly debounce = this._register(new MutableDisposable());
  private reading: Promise<KeyLogState> | undefined;
  private generation = 0;
  /** Whether anything asked for the log since the service was chosen: only then do charges lead to reads. */
  private wanted = false;
  /** A charge happened after the last read: the next `entries()` waits for the read the burst leads to. */
  private stale = false;

  constructor(private readonly options: KeyLogOptions) {
    super();
  }

  get state(): KeyLogState {
    return this.current;
  }

  /** The consumption entries of the key, newest first; undefined where the service publishes no log (or it cannot be read). */
  async entries(): Promise<readonly KeyLogEntry[] | undefined> {
    this.wanted = true;
    const state = this.current.kind === 'unknown' ? await this.refresh() : this.reading && this.stale ? await this.reading : this.current;
    return state.kind === 'known' ? state.entries : undefined;
  }

  /** Reads now (joining a read in flight). */
  refresh(): Promise<KeyLogState> {
    if (!this.reading) {
      const reading = this.read().finally(() => {
        if (this.reading === reading) this.reading = undefined;
      });
      this.reading = reading;
    }
    return this.reading;
  }

  /**
   * Something will show what a charge that just ended cost: one read once the burst of charges is over (never a read
   * per charge).
   */
  want(): void {
    this.wanted = true;
    if (this.knownNotOffered()) return;
    this.stale = true;
    this.debounce.value ??= this.options.clock.setTimeout(() => this.readNow(), this.options.chargeDebounceMs ?? DEFAULT_CHARGE_DEBOUNCE_MS);
  }

  /** A charged request went out: one read once the burst is over, if the log is in use. */
  afterCharge(): void {
    if (!this.wanted || this.knownNotOffered()) return;
    this.stale = true;
    this.debounce.value = this.options.clock.setTimeout(() => this.readNow(), this.options.chargeDebounceMs ?? DEFAULT_CHARGE_DEBOUNCE_MS);
  }

  /**
   * Someone is waiting to show what a request that just ended cost: the burst's one read comes sooner. False (and no
   * read) where the service is known to publish no log.
   */
  soon(): boolean {
    this.wanted = true;
    if (this.knownNotOffered()) return false;
    this.stale = true;
    this.debounce.value = this.options.clock.setTimeout(() => this.readNow(), this.options.waitingDebounceMs ?? DEFAULT_WAITING_DEBOUNCE_MS);
    return true;
  }

  private knownNotOffered(): boolean {
    return this.current.kind === 'not-offered' && this.options.clock.now() - this.current.readAt < NOT_OFFERED_RECHECK_MS;
  }

  private readNow(): void {
    this.debounce.clear();
    void this.refresh();
  }

  /** Another key or service. */
  forget(): void {
    this.generation++;
    this.reading = undefined;
    this.wanted = false;
    this.stale = false;
    this.debounce.clear();
    this.set({ kind: 'unknown' });
  }

  private async read(): Promise<KeyLogState> {
    const generation = this.generation;
    const reader = await this.options.reader();
    if (!reader) return this.current;
    try {
      const answer = await reader.keyLog(this.options.display(reader));
      if (generation !== this.generation) return this.current;
      this.stale = false;
      if (!answer.offered) this.options.log.debug(`The key's log is not offered: ${answer.why}`);
      this.set(
        answer.offered ? { kind: 'known', entries: answer.value, readAt: this.options.clock.now() } : { kind: 'not-offered', readAt: this.options.clock.now() },
      );
    } catch (error) {
      if (generation !== this.generation) return this.current;
      this.options.log.debug(`Could not read the key's log: ${error instanceof Error ? error.message : String(error)}`);
    }
    return this.current;
  }

  private set(state: KeyLogState): void {
    this.current = state;
    this.changed.fire(state);
  }
}
