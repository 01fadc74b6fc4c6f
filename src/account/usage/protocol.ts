import * as z from 'zod/mini';

// The usage view's page and its host (UsageHost): what the host sends (the whole view, as a snapshot) and what the
// page may ask (checked here with zod; the page imports only the types).

/** One request, as the table and the CSV show it. */
export interface UsageRow {
  /** Epoch milliseconds. */
  at: number;
  /** The time as the user's language writes it. */
  time: string;
  model: string;
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  /** What was charged (the log), or what this machine estimated (its record); absent when the price was not known. */
  usd?: number;
  /** `$0.0012`. */
  usdText?: string;
  /** The gateway's `use_time`, in seconds. */
  latencySeconds?: number;
  stream?: boolean;
  /** Made by Promptreel on this machine. */
  fromThisMachine: boolean;
  requestId?: string;
}

export interface UsageDay {
  /** `2026-10-15`, local time. */
  day: string;
  /** The axis label, `Oct 15`. */
  label: string;
  usd: number;
  usdText: string;
  requests: number;
  /** The day's spend per model, in the order of `UsageSnapshot.models`, only those with a spend. */
  byModel: { model: string; usd: number; usdText: string }[];
}

export interface UsageModel {
  model: string;
  usd: number;
  usdText: string;
  requests: number;
}

export interface UsageBudget {
  period: 'day' | 'month';
  spentUsd: number;
  limitUsd: number;
  /** `Daily budget: $0.40 of $1.00 spent`. */
  text: string;
}

/** A gridline of the chart. */
export interface UsageTick {
  usd: number;
  text: string;
}

export interface UsageSnapshot {
  /** `log`: the gateway's log of the key; `local`: what Promptreel recorded on this machine. */
  source: 'log' | 'local';
  /** The sentence that says which. */
  sourceText: string;
  todayText: string;
  monthText: string;
  /** Requests of this month without a known price, left out of the totals (this machine's record only). */
  unpricedText?: string;
  budgets: UsageBudget[];
  /** The models of the last 30 days, the most spent first: the chart's series, in order. */
  models: string[];
  /** The last 30 days, oldest first. */
  days: UsageDay[];
  ticks: UsageTick[];
  perModel: UsageModel[];
  /** The last requests, newest first (the table's; the CSV has them all). */
  rows: UsageRow[];
  /** How many requests there are in all. */
  requestCount: number;
}

/** Host → page: the view, and whether a read of the log is under way. */
export type HostToUsage = { type: 'snapshot'; snapshot: UsageSnapshot } | { type: 'busy'; busy: boolean };

/** Page → host: `ready` asks for a snapshot; `refresh` reads the log again; `exportCsv` saves every request as CSV. */
export const usageToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('refresh') }),
  z.object({ type: z.literal('exportCsv') }),
]);
export type UsageToHost = z.infer<typeof usageToHostSchema>;
