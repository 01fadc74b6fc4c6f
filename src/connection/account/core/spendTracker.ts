import * as z from 'zod/mini';
import type { ChargedRequestRecord } from '../../../api/charges';
import type { Clock } from '../../../common/clock';
import { Emitter, type Event } from '../../../common/emitter';
import { Disposable } from '../../../common/lifecycle';
import type { StateStorage } from '../../../common/stateStorage';
import type { Spent } from '../../core/budgets';
import type { PriceQuote } from './priceBook';
import { spendEntry, spendTotals, withEntry, type SpendEntry } from './spendLedger';
import { lazy } from '../../../api/lazy';

/** globalState: the charged requests of this machine, per service (normalized base URL). */
const LEDGER_KEY = 'promptreel.spending.v1';

const entrySchema = lazy(() =>
  z.object({
    at: z.number(),
    kind: z.enum(['chat', 'video']),
    model: z.string(),
    usd: z.optional(z.number()),
    requestId: z.optional(z.string()),
    taskId: z.optional(z.string()),
    promptTokens: z.optional(z.number()),
    completionTokens: z.optional(z.number()),
    stream: z.optional(z.boolean()),
  }),
);
const ledgerSchema = lazy(() => z.record(z.string(), z.array(entrySchema())));

export interface SpendTrackerOptions {
  memory: StateStorage;
  clock: Clock;
  /** The price of a model as known now (asks nothing). */
  priceOf: (model: string) => PriceQuote | undefined;
  /** What the gateway's log of the key says was spent, or undefined where it publishes none (or could not be read). */
  loggedSpend?: () => Promise<Spent | undefined>;
}

/**
 * The one record of what Promptreel's requests cost: every charged request any surface makes reaches it through the
 * client (ClientProvider), priced with what is known then. What was spent is the gateway's log where it publishes
 * one, else this record.
 */
export class SpendTracker extends Disposable {
  private readonly recorded = this._register(new Emitter<{ service: string; entry: SpendEntry }>());
  /** A charged request was recorded. */
  readonly onDidRecord: Event<{ service: string; entry: SpendEntry }> = this.recorded.event;
  /** Read from the storage once, then kept here: a storage that reloads itself (another window) never loses a record. */
  private cached: Record<string, SpendEntry[]> | undefined;

  constructor(private readonly options: SpendTrackerOptions) {
    super();
  }

  record(service: string, record: ChargedRequestRecord): SpendEntry {
    const entry = spendEntry(record, this.options.priceOf(record.model));
    const ledger = this.ledger();
    ledger[service] = withEntry(ledger[service] ?? [], entry, this.options.clock.now());
    void Promise.resolve(this.options.memory.update(LEDGER_KEY, ledger)).catch(() => undefined);
    this.recorded.fire({ service, entry });
    return entry;
  }

  /** What this machine recorded for `service`, oldest first. */
  entries(service: string): readonly SpendEntry[] {
    return this.ledger()[service] ?? [];
  }

  /** What was spent today and this month on `service`: the gateway's log where offered, else this machine's record. */
  async spent(service: string): Promise<Spent> {
    const logged = await this.options.loggedSpend?.().catch(() => undefined);
    if (logged) return logged;
    const totals = spendTotals(this.entries(service), this.options.clock.now());
    return { todayUsd: totals.todayUsd, monthUsd: totals.monthUsd, source: 'local' };
  }

  private ledger(): Record<string, SpendEntry[]> {
    if (!this.cached) {
      const parsed = ledgerSchema().safeParse(this.options.memory.get(LEDGER_KEY));
      this.cached = parsed.success ? (parsed.data as Record<string, SpendEntry[]>) : {};
    }
    return this.cached;
  }
}
