import type { Usage } from '../../../api/chat/events';
import { Emitter, type Event } from '../../../common/emitter';
import { Disposable } from '../../../common/lifecycle';
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

/** A reply's record ended within this of the reply. */
const SAME_REPLY_MS = 3_000;

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
  ) {
    super();
    this._register(spending.onDidRecord(() => keyLog.want()));
    this._register(keyLog.onDidChange(() => this.rematch()));
  }

  forTask(taskId: string): ChargedCost | undefined {
    return this.costAt(this.own.findIndex((entry) => entry.taskId === taskId));
  }

  forReply(reply: ReplyRef): ChargedCost | undefined {
    if (reply.requestId) return this.costAt(this.own.findIndex((entry) => entry.requestId === reply.requestId));
    // The record of this reply: same model (and counts, when it has them), the nearest in time.
    let best = -1;
    let bestDistance = SAME_REPLY_MS;
    this.own.forEach((entry, index) => {
      if (entry.kind !== 'chat' || entry.model !== reply.model) return;
      if (reply.usage && (entry.promptTokens !== reply.usage.promptTokens || entry.completionTokens !== reply.usage.completionTokens)) return;
      const distance = Math.abs(entry.at - reply.at);
      if (distance <= bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    return this.costAt(best);
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
