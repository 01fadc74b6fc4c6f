/** One charge, from the key's log (a `KeyLogEntry` is one) or from what Promptreel recorded itself. */
export interface SpendItem {
  /** Epoch milliseconds. */
  createdAt: number;
  usd: number;
  model: string;
  promptTokens?: number;
  completionTokens?: number;
}

/** One local day. */
export interface DaySpend {
  /** `2026-10-15`, in local time. */
  day: string;
  /** Epoch milliseconds of its local midnight. */
  start: number;
  usd: number;
  requests: number;
  /** US dollars per model. */
  byModel: Record<string, number>;
}

export interface ModelSpend {
  model: string;
  usd: number;
  requests: number;
  promptTokens: number;
  completionTokens: number;
}

export interface SpendSummary {
  /** Since local midnight. */
  todayUsd: number;
  /** Since the first of the month, local time (whatever `days` covers). */
  monthUsd: number;
  /** The last `days` days, oldest first, today last; days without a charge included (a chart's axis). */
  days: DaySpend[];
  /** Over those days, the most spent first. */
  models: ModelSpend[];
  /** Over those days. */
  totalUsd: number;
  /** The oldest charge given: a log that begins after the month's start may not hold the whole month. */
  oldestAt?: number;
}

export const SUMMARY_DAYS = 30;

/**
 * Totals for the usage view and the budgets, in local time. A charge later than `now` (the gateway's clock ahead of
 * this one) counts as now.
 */
export function spendSummary(items: readonly SpendItem[], now: number, days = SUMMARY_DAYS): SpendSummary {
  const today = new Date(now);
  const dayStart = (offset: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate() - offset).getTime();
  const todayStart = dayStart(0);
  const monthStart = new Date(today.getFullYear(), today.getMonth(), 1).getTime();
  const timeline: DaySpend[] = [];
  for (let offset = days - 1; offset >= 0; offset--) {
    const start = dayStart(offset);
    timeline.push({ day: localDay(start), start, usd: 0, requests: 0, byModel: {} });
  }
  const models = new Map<string, ModelSpend>();
  let todayUsd = 0;
  let monthUsd = 0;
  let oldestAt: number | undefined;
  for (const item of items) {
    const at = Math.min(item.createdAt, now);
    oldestAt = oldestAt === undefined ? item.createdAt : Math.min(oldestAt, item.createdAt);
    if (at >= todayStart) todayUsd += item.usd;
    if (at >= monthStart) monthUsd += item.usd;
    const day = dayOf(timeline, at);
    if (!day) continue;
    day.usd += item.usd;
    day.requests += 1;
    day.byModel[item.model] = (day.byModel[item.model] ?? 0) + item.usd;
    const model = models.get(item.model) ?? { model: item.model, usd: 0, requests: 0, promptTokens: 0, completionTokens: 0 };
    model.usd += item.usd;
    model.requests += 1;
    model.promptTokens += item.promptTokens ?? 0;
    model.completionTokens += item.completionTokens ?? 0;
    models.set(item.model, model);
  }
  return {
    todayUsd,
    monthUsd,
    days: timeline,
    models: [...models.values()].sort((a, b) => b.usd - a.usd || a.model.localeCompare(b.model)),
    totalUsd: timeline.reduce((sum, day) => sum + day.usd, 0),
    ...(oldestAt !== undefined ? { oldestAt } : {}),
  };
}

/** The day of the timeline `at` falls in (the last one starting at or before it), or undefined before the first. */
function dayOf(timeline: DaySpend[], at: number): DaySpend | undefined {
  if (timeline.length === 0 || at < timeline[0].start) return undefined;
  for (let index = timeline.length - 1; index >= 0; index--) if (timeline[index].start <= at) return timeline[index];
  return undefined;
}

function localDay(epochMs: number): string {
  const date = new Date(epochMs);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
