import type { ChargedRequestRecord } from '../../../api/charges';
import { costOf, videoCost } from '../../../api/account/prices';
import type { PriceQuote } from './priceBook';

/** One charged request Promptreel made from this machine, with what it cost when the price was known. */
export interface SpendEntry {
  at: number;
  kind: 'chat' | 'video';
  model: string;
  /** US dollars; absent when the model's price was not known. */
  usd?: number;
  requestId?: string;
  taskId?: string;
  promptTokens?: number;
  completionTokens?: number;
  stream?: boolean;
}

/** Long enough for this month and a 30-day view. */
export const LEDGER_DAYS = 35;
const MAX_ENTRIES = 20_000;
const DAY_MS = 86_400_000;

/** The entry of a charged request, priced with what is known of its model's price. */
export function spendEntry(record: ChargedRequestRecord, price: PriceQuote | undefined): SpendEntry {
  const entry: SpendEntry = { at: record.at, kind: record.kind, model: record.model, ...(record.requestId ? { requestId: record.requestId } : {}) };
  if (record.kind === 'video') {
    entry.taskId = record.taskId;
    const usd = videoCost(price, record.seconds);
    if (usd !== undefined) entry.usd = usd;
    return entry;
  }
  entry.stream = record.stream;
  if (record.usage) {
    entry.promptTokens = record.usage.promptTokens;
    entry.completionTokens = record.usage.completionTokens;
  }
  if (price?.kind === 'per-call') entry.usd = price.usd;
  else if (price?.kind === 'per-token' && record.usage) entry.usd = costOf(price, record.usage);
  return entry;
}

/** The entries with `entry` added, without those older than LEDGER_DAYS (and never more than MAX_ENTRIES). */
export function withEntry(entries: readonly SpendEntry[], entry: SpendEntry, now: number): SpendEntry[] {
  const since = now - LEDGER_DAYS * DAY_MS;
  return [...entries.filter((kept) => kept.at >= since), entry].slice(-MAX_ENTRIES);
}

export interface SpendTotals {
  todayUsd: number;
  monthUsd: number;
  /** Requests of this month whose price was not known (not in the totals). */
  unpriced: number;
}

/** What was spent today and this calendar month, in local time. */
export function spendTotals(entries: readonly { at: number; usd?: number }[], now: number): SpendTotals {
  const day = startOfDay(now);
  const month = startOfMonth(now);
  const totals: SpendTotals = { todayUsd: 0, monthUsd: 0, unpriced: 0 };
  for (const entry of entries) {
    if (entry.at < month || entry.at > now + DAY_MS) continue;
    if (entry.usd === undefined) {
      totals.unpriced++;
      continue;
    }
    totals.monthUsd += entry.usd;
    if (entry.at >= day) totals.todayUsd += entry.usd;
  }
  return totals;
}

export function startOfDay(now: number): number {
  const date = new Date(now);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

export function startOfMonth(now: number): number {
  const date = new Date(now);
  return new Date(date.getFullYear(), date.getMonth(), 1).getTime();
}
