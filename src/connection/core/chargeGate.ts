import { randomUUID } from 'node:crypto';
import { videoCost } from '../../api/account/prices';
import { chargeQuote, describeChargeQuote, type ChargeQuote } from '../account/core/chargeQuote';
import type { KeyHealthState } from '../account/core/keyHealthMonitor';
import type { PriceQuote } from '../account/core/priceBook';
import type { Clock } from '../../common/clock';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';

/** A request the service charges for once sent, as the user confirms it. */
export interface ChargedRequest {
  readonly model: string;
  /** The seconds of video asked for (a model priced per second costs this many times its price). */
  readonly seconds?: string;
}

/** A video task's request as it is confirmed, sent and remembered (an image as its location, never its bytes). */
export interface ChargedVideoRequest extends ChargedRequest {
  readonly prompt: string;
  readonly seconds?: string;
  readonly moderator?: boolean;
  readonly metadata?: {
    readonly resolution?: string;
    readonly ratio?: string;
    readonly generate_audio?: boolean;
    readonly watermark?: boolean;
    readonly seed?: number;
  };
  readonly firstFrame?: { readonly uri: string; readonly fileName: string; readonly contentType: string };
  /**
   * The request starts from the previous shot's last frame, which exists only once that shot is made (a film's
   * first-frame chain): quoted without it (an image does not change the price), and taken only with it (`take`).
   */
  readonly firstFrameFromPrevious?: true;
}

/** The image a marked request starts from, given when it is taken. */
export type TakenFirstFrame = NonNullable<ChargedVideoRequest['firstFrame']>;

/**
 * What exactly would be charged: the requests, their price (or that it is not known) and what the key keeps, and the
 * choices a folder's settings made in them. Only the gate makes quotes; only a quote the gate made can be approved.
 */
export interface Quote<R extends ChargedRequest> {
  readonly id: string;
  readonly requests: readonly R[];
  readonly charge: ChargeQuote;
  /** Settings of the open folder (not the user's) that chose something in these requests, in the user's words. */
  readonly fromFolder: readonly string[];
  /** The user's budgets this charge passes, with what was spent (a sentence), or undefined. */
  readonly budgetNote?: string;
}

/** The user accepted a quote: its requests, each of which may be sent once. */
export interface Approval<R extends ChargedRequest> {
  readonly quote: Quote<R>;
}

export interface ChargeGateSources<R extends ChargedRequest> {
  /** The price of one request to `model`, from the service or the user's own settings (never a folder's). */
  priceOf(model: string): Promise<PriceQuote | undefined>;
  /** What is known of the key, read when not known yet. */
  keyHealth(): Promise<KeyHealthState>;
  /** The choices in `requests` that came from the open folder's settings. */
  fromFolder(requests: readonly R[]): string[];
  /** The sentence naming a budget a charge of this price passes (undefined price: not known), or undefined. */
  budgetNote?(priceUsd: number | undefined): Promise<string | undefined>;
  clock: Clock;
}

/** A price or quota that has not arrived by then is shown as not known: a confirmation never waits on the service. */
export const QUOTE_DEADLINE_MS = 8_000;
/** Quotes shown but not answered yet (a chat turn waiting for its follow-up) are kept this long. */
const PENDING_QUOTE_MS = 60 * 60_000;
const MAX_PENDING_QUOTES = 64;

interface Spending {
  next: number;
}

/**
 * The one owner of "may this charged request be sent?". Every surface that creates a video task asks it for a quote,
 * shows that quote (`describeQuote`), and hands the quote back once the user accepted it; the approval names the
 * exact requests quoted and lets each be sent once. Arguments, files and earlier answers may prefill a request,
 * never skip the confirmation or change the request after it, and an accepted confirmation is never accepted again
 * (a replayed chat turn, a Retry).
 */
export class ChargeGate<R extends ChargedRequest> {
  private readonly pending = new Map<string, { quote: Quote<R>; shownAt: number }>();
  private readonly approvals = new WeakMap<Approval<R>, Spending>();
  /** Quotes held for a confirmation shown by someone else (VS Code's tool confirmation), by what was asked. */
  private readonly held = new Map<string, string[]>();

  constructor(private readonly sources: ChargeGateSources<R>) {}

  /** Prices `requests` as they are (deep copies: changing the originals afterwards changes nothing). */
  async quote(requests: readonly R[], extraFromFolder: readonly string[] = []): Promise<Quote<R>> {
    const frozen = requests.map((request) => deepFreeze(structuredClone(request)));
    const models = [...new Set(frozen.map((request) => request.model))];
    const [prices, health] = await Promise.all([
      withinDeadline(Promise.all(models.map((model) => this.sources.priceOf(model))), this.sources.clock),
      withinDeadline(this.sources.keyHealth(), this.sources.clock),
    ]);
    const total = totalPrice(frozen.map((request) => ({ price: prices?.[models.indexOf(request.model)], seconds: request.seconds })));
    const charge = chargeQuote(total, health ?? { kind: 'unknown' }, this.sources.clock.now());
    const fromFolder = [...new Set([...this.sources.fromFolder(frozen), ...extraFromFolder])];
    const budgetNote = this.sources.budgetNote ? await withinDeadline(this.sources.budgetNote(charge.priceUsd), this.sources.clock) : undefined;
    const quote: Quote<R> = Object.freeze({
      id: randomUUID(),
      requests: Object.freeze(frozen),
      charge,
      fromFolder: Object.freeze(fromFolder),
      ...(budgetNote ? { budgetNote } : {}),
    });
    this.remember(quote);
    return quote;
  }

  /** The user accepted `quote` (or the quote of this id): its approval, once. Undefined for a quote already used or unknown. */
  approve(quote: Quote<R> | string): Approval<R> | undefined {
    const id = typeof quote === 'string' ? quote : quote.id;
    const entry = this.pending.get(id);
    if (!entry || (typeof quote !== 'string' && entry.quote !== quote)) return undefined;
    this.pending.delete(id);
    const approval: Approval<R> = Object.freeze({ quote: entry.quote });
    this.approvals.set(approval, { next: 0 });
    return approval;
  }

  /** Keeps `quote` under `key` for a confirmation shown outside Promptreel (VS Code's own, for a tool call). */
  hold(key: string, quote: Quote<R>): void {
    this.held.set(key, [...(this.held.get(key) ?? []).filter((id) => this.pending.has(id)), quote.id]);
  }

  /** The approval of the oldest quote held under `key` (its confirmation was accepted), once. */
  approveHeld(key: string): Approval<R> | undefined {
    const quote = this.takeHeld(key);
    return quote && this.approve(quote);
  }

  /** The oldest quote held under `key`, no longer held: to be confirmed here after all (then `approve`), once. */
  takeHeld(key: string): Quote<R> | undefined {
    const ids = this.held.get(key) ?? [];
    const id = ids.shift();
    if (ids.length === 0) this.held.delete(key);
    return id === undefined ? undefined : this.pending.get(id)?.quote;
  }

  /**
   * The next request of an approval, to send now; undefined when all were sent or the approval is not the gate's.
   * A request quoted with `firstFrameFromPrevious` is handed out only with `firstFrame` (filled in, the marker gone);
   * a first frame for any other request is refused: the approval covers exactly what was quoted. A refusal takes
   * nothing (the request is still the next one).
   */
  take(approval: Approval<R>, firstFrame?: TakenFirstFrame): R | undefined {
    const spending = this.approvals.get(approval);
    if (!spending || spending.next >= approval.quote.requests.length) return undefined;
    const request = approval.quote.requests[spending.next];
    const marked = 'firstFrameFromPrevious' in request && request.firstFrameFromPrevious === true;
    if (marked !== (firstFrame !== undefined)) return undefined;
    spending.next++;
    if (!firstFrame) return request;
    const filled: Record<string, unknown> = structuredClone(request) as unknown as Record<string, unknown>;
    delete filled['firstFrameFromPrevious'];
    const { uri, fileName, contentType } = firstFrame;
    filled['firstFrame'] = { uri, fileName, contentType };
    return deepFreeze(filled as unknown as R);
  }

  /** Whether the next request of an approval waits for the previous shot's last frame (see `take`). */
  needsFirstFrame(approval: Approval<R>): boolean {
    const spending = this.approvals.get(approval);
    const request = spending ? approval.quote.requests[spending.next] : undefined;
    return request !== undefined && 'firstFrameFromPrevious' in request && request.firstFrameFromPrevious === true;
  }

  /** How many requests of an approval were not taken yet. */
  remaining(approval: Approval<R>): number {
    const spending = this.approvals.get(approval);
    return spending ? approval.quote.requests.length - spending.next : 0;
  }

  private remember(quote: Quote<R>): void {
    const now = this.sources.clock.now();
    for (const [id, entry] of this.pending) if (now - entry.shownAt > PENDING_QUOTE_MS) this.pending.delete(id);
    while (this.pending.size >= MAX_PENDING_QUOTES) this.pending.delete(this.pending.keys().next().value as string);
    this.pending.set(quote.id, { quote, shownAt: now });
  }
}

/** `$0.40 · $2.80 left after`, or that the price is not known: every confirmation says one or the other. */
export function describeQuotePrice(quote: Quote<ChargedRequest>): string {
  return describeChargeQuote(quote.charge) ?? t('price not known');
}

/** The price, then what a folder chose, then why the key may not cover it: the sentences every confirmation shows. */
export function describeQuote(quote: Quote<ChargedRequest>): string {
  return joinSentences(
    quote.charge.priceUsd === undefined ? t('The price of this model is not known: it uses your quota like any other request.') : undefined,
    folderNote(quote),
    quoteWarning(quote),
  );
}

/** Why this charge deserves a second look: the budgets it passes, then why the key may not cover it; or undefined. */
export function quoteWarning(quote: Quote<ChargedRequest>): string | undefined {
  return joinSentences(quote.budgetNote, quote.charge.warning);
}

/** `The model and the duration come from this folder's settings.`, or undefined. */
export function folderNote(quote: Quote<ChargedRequest>): string | undefined {
  return quote.fromFolder.length ? t("From this folder's settings (not yours): {0}.", quote.fromFolder.join(', ')) : undefined;
}

/** What all the requests cost together (per call, or per second times each one's seconds); undefined when any one's cost is not known. */
function totalPrice(priced: readonly { price: PriceQuote | undefined; seconds: string | undefined }[]): PriceQuote | undefined {
  const costs = priced.map(({ price, seconds }) => videoCost(price, seconds));
  if (costs.length === 0 || costs.some((cost) => cost === undefined)) return undefined;
  const usd = costs.reduce((sum: number, cost) => sum + (cost ?? 0), 0);
  return { kind: 'per-call', usd, source: priced.every(({ price }) => price?.source === 'settings') ? 'settings' : 'service' };
}

async function withinDeadline<T>(work: Promise<T>, clock: Clock): Promise<T | undefined> {
  let timer: { dispose(): void } | undefined;
  const late = new Promise<undefined>((resolve) => (timer = clock.setTimeout(() => resolve(undefined), QUOTE_DEADLINE_MS)));
  try {
    return await Promise.race([work.catch(() => undefined), late]);
  } finally {
    timer?.dispose();
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
