import type { Usage } from '../../../api/chat/events';
import { Emitter, type Event } from '../../../common/emitter';
import { systemClock, type Clock } from '../../../common/clock';
import { Disposable, DisposableStore, toDisposable } from '../../../common/lifecycle';
import { describeChargeReasons, matchCharges, type Charge, type OwnRequest } from './chargeMatching';
import type { KeyLogMonitor } from './keyLogMonitor';
import type { SpendTracker } from './spendTracker';
import type { SpendEntry } from './spendLedger';

/** What the gateway's log says a request really cost, and why it differs from the estimate when that can be told. */
export interface ChargedCost {
  usd: number;
  /** Beyond rounding from the estimate made when the request ended. */
  differs: boolean;
  /** Why, in the user's words (cached tokens, the key's group ratio), when it differs and can be told. */
  reason?: string;
}

/** What a reply knows of itself, to find its own record. */
export interface ReplyRef {
  model: string;
  /** When it ended (ms). */
  at: number;
  usage?: Usage;
  requestId?: string;
}

/** What a reply that just ended cost, as far as is known once it settled. */
export interface SettledReply {
  /** This machine's estimate, when the model's price was known. */
  estimateUsd?: number;
  charged?: ChargedCost;
}

export interface SettleOptions {
  /** How long to wait for the key's log at most. */
  waitMs: number;
  signal?: AbortSignal;
  /** Called when there is something to wait for (the log may have the charge). */
  onWaiting?: () => void;
}

/** A reply's record ended within this of the reply. */
const SAME_REPLY_MS = 3_000;

/** The record of a reply: its gateway request id, else the same model (and counts, when it has them), the nearest in time. */
function indexOfReply(entries: readonly SpendEntry[], reply: ReplyRef): number {
  if (reply.requestId) return entries.findIndex((entry) => entry.requestId === reply.requestId);
  let best = -1;
  let bestDistance = SAME_REPLY_MS;
  entries.forEach((entry, index) => {
    if (entry.kind !== 'chat' || entry.model !== reply.model) return;
    if (reply.usage && (entry.promptTokens !== reply.usage.promptTokens || entry.completionTokens !== reply.usage.completionTokens)) return;
    const distance = Math.abs(entry.at - reply.at);
    if (distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}

/**
 * The one place where this machine's charged requests (SpendTracker) meet the gateway's log of the key (KeyLogMonitor):
 * each request matched to at most one log entry. Every surface that shows what a reply or a video really cost asks
 * here. A recorded charge asks for one read of the log after its burst, never one per request.
 */
export class ChargedCosts extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** New matches are known (the log was read). */
  readonly onDidChange: Event<void> = this.changed.event;
  private own: readonly SpendEntry[] = [];
  private charges: readonly (Charge | undefined)[] = [];

  constructor(
    private readonly keyLog: KeyLogMonitor,
    private readonly spending: SpendTracker,
    private readonly service: () => string | undefined,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this._register(spending.onDidRecord(() => keyLog.want()));
    this._register(keyLog.onDidChange(() => this.rematch()));
  }

  forTask(taskId: string): ChargedCost | undefined {
    return this.costAt(this.own.findIndex((entry) => entry.taskId === taskId));
  }

  forReply(reply: ReplyRef): ChargedCost | undefined {
    return this.costAt(indexOfReply(this.own, reply));
  }

  /**
   * What a reply that just ended cost: the estimate of this machine's record, and what the key's log charged when a read
   * brings it within `waitMs` (one read soon after, and one more if the gateway had not written it yet). Nothing is
   * waited for where the service publishes no log.
   */
  async settleReply(reply: ReplyRef, { waitMs, signal, onWaiting }: SettleOptions): Promise<SettledReply> {
    const service = this.service();
    const recorded = service ? this.spending.entries(service) : [];
    const estimateUsd = recorded[indexOfReply(recorded, reply)]?.usd;
    const charged = this.forReply(reply) ?? (await this.awaitCharge(reply, waitMs, signal, onWaiting));
    return { ...(estimateUsd !== undefined ? { estimateUsd } : {}), ...(charged ? { charged } : {}) };
  }

  private awaitCharge(reply: ReplyRef, waitMs: number, signal?: AbortSignal, onWaiting?: () => void): Promise<ChargedCost | undefined> {
    if (signal?.aborted || !this.keyLog.soon()) return Promise.resolve(undefined);
    onWaiting?.();
    return new Promise((resolve) => {
      const waiting = new DisposableStore();
      const finish = (charged: ChargedCost | undefined) => {
        waiting.dispose();
        resolve(charged);
      };
      let reads = 0;
      waiting.add(
        this.keyLog.onDidChange((state) => {
          // ChargedCosts rematched before this listener runs (it registered first).
          const charged = this.forReply(reply);
          if (charged || state.kind !== 'known') finish(charged);
          else if (++reads === 1) this.keyLog.soon();
          else finish(undefined);
        }),
      );
      waiting.add(this.clock.setTimeout(() => finish(undefined), waitMs));
      if (signal) {
        const onAbort = () => finish(undefined);
        signal.addEventListener('abort', onAbort, { once: true });
        waiting.add(toDisposable(() => signal.removeEventListener('abort', onAbort)));
      }
    });
  }

  private costAt(index: number): ChargedCost | undefined {
    const charge = index >= 0 ? this.charges[index] : undefined;
    if (!charge) return undefined;
    const reason = charge.differs ? describeChargeReasons(charge.reasons) : undefined;
    return { usd: charge.usd, differs: charge.differs, ...(reason ? { reason } : {}) };
  }

  private rematch(): void {
    const state = this.keyLog.state;
    const service = this.service();
    if (state.kind !== 'known' || !service) {
      this.own = [];
      this.charges = [];
      return;
    }
    this.own = this.spending.entries(service);
    this.charges = matchCharges(this.own.map(ownRequest), state.entries);
    this.changed.fire();
  }
}

/** One of this machine's recorded requests, as the matching takes it. */
export function ownRequest(entry: SpendEntry): OwnRequest {
  return {
    kind: entry.kind,
    model: entry.model,
    startedAt: entry.at,
    finishedAt: entry.at,
    ...(entry.requestId ? { requestId: entry.requestId } : {}),
    ...(entry.promptTokens !== undefined ? { promptTokens: entry.promptTokens } : {}),
    ...(entry.completionTokens !== undefined ? { completionTokens: entry.completionTokens } : {}),
    ...(entry.usd !== undefined ? { estimateUsd: entry.usd } : {}),
  };
}
