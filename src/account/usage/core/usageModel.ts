import type { KeyLogEntry } from '../../../api/account/keyLog';
import { formatUsd } from '../../../api/account/prices';
import { t } from '../../../api/l10n';
import { matchCharges } from '../../../connection/account/core/chargeMatching';
import { ownRequest } from '../../../connection/account/core/chargedCosts';
import type { SpendEntry } from '../../../connection/account/core/spendLedger';
import { spendSummary, type SpendItem } from '../../../connection/account/core/spendSummary';
import type { Budgets } from '../../../connection/core/budgets';
import type { UsageBudget, UsageDay, UsageModel, UsageRow, UsageSnapshot, UsageTick } from '../protocol';

/** What the usage view is built from. */
export interface UsageInputs {
  /** The gateway's log of the key, newest first; undefined where it publishes none (or it could not be read). */
  log: readonly KeyLogEntry[] | undefined;
  /** What this machine recorded for the service, oldest first. */
  own: readonly SpendEntry[];
  budgets: Budgets;
  now: number;
  /** A request's time as the user's language writes it. */
  formatTime: (epochMs: number) => string;
  /** A day's short label on the chart's axis (`Oct 15`). */
  formatDay: (epochMs: number) => string;
}

/** The table shows this many requests; the CSV has them all. */
export const TABLE_ROWS = 100;

/**
 * The usage view's whole content: where the figures come from, today's and this month's totals against the budgets,
 * 30 days of spend per model, the spend per model, and every request newest first, this machine's own marked.
 */
export function usageSnapshot(inputs: UsageInputs): { snapshot: UsageSnapshot; rows: UsageRecord[] } {
  const fromLog = inputs.log !== undefined;
  const rows: UsageRecord[] = inputs.log ? logRows(inputs.log, inputs.own) : ownRows(inputs.own);
  const items: SpendItem[] = rows.flatMap((row) => (row.usd === undefined ? [] : [{ createdAt: row.at, usd: row.usd, model: row.model }]));
  const summary = spendSummary(items, inputs.now);
  const monthStart = new Date(new Date(inputs.now).getFullYear(), new Date(inputs.now).getMonth(), 1).getTime();
  const unpriced = rows.filter((row) => row.usd === undefined && row.at >= monthStart).length;
  const models = summary.models.map((model) => model.model);
  const days: UsageDay[] = summary.days.map((day) => ({
    day: day.day,
    label: inputs.formatDay(day.start),
    usd: day.usd,
    usdText: formatUsd(day.usd),
    requests: day.requests,
    byModel: models
      .filter((model) => (day.byModel[model] ?? 0) > 0)
      .map((model) => ({ model, usd: day.byModel[model] ?? 0, usdText: formatUsd(day.byModel[model] ?? 0) })),
  }));
  const perModel: UsageModel[] = summary.models.map((model) => ({
    model: model.model,
    usd: model.usd,
    usdText: formatUsd(model.usd),
    requests: model.requests,
  }));
  const snapshot: UsageSnapshot = {
    source: fromLog ? 'log' : 'local',
    sourceText: fromLog ? t("From the service's log of the key.") : t('As recorded by Promptreel on this machine: the service publishes no log of the key.'),
    todayText: formatUsd(summary.todayUsd),
    monthText: formatUsd(summary.monthUsd),
    ...(unpriced > 0
      ? {
          unpricedText:
            unpriced === 1
              ? t('1 request this month whose price was not known is not counted.')
              : t('{0} requests this month whose price was not known are not counted.', unpriced),
        }
      : {}),
    budgets: budgetsOf(inputs.budgets, summary.todayUsd, summary.monthUsd),
    models,
    days,
    ticks: ticksFor(Math.max(0, ...days.map((day) => day.usd))),
    perModel,
    rows: rows
      .slice(0, TABLE_ROWS)
      .map((row) => ({ ...row, time: inputs.formatTime(row.at), ...(row.usd !== undefined ? { usdText: formatUsd(row.usd) } : {}) })),
    requestCount: rows.length,
  };
  return { snapshot, rows };
}

/** A request as the CSV has it (the table's row without its formatted time). */
export type UsageRecord = Omit<UsageRow, 'time' | 'usdText'>;

/** The log's charges, newest first; those this machine's record matches are marked as its own. */
function logRows(log: readonly KeyLogEntry[], own: readonly SpendEntry[]): UsageRecord[] {
  const mine = new Set(matchCharges(own.map(ownRequest), log).flatMap((charge) => (charge ? [charge.entry] : [])));
  return log.map((entry) => ({
    at: entry.createdAt,
    model: entry.model,
    promptTokens: entry.promptTokens,
    completionTokens: entry.completionTokens,
    ...(entry.cachedTokens !== undefined ? { cachedTokens: entry.cachedTokens } : {}),
    usd: entry.usd,
    ...(entry.useTimeSeconds !== undefined ? { latencySeconds: entry.useTimeSeconds } : {}),
    ...(entry.isStream !== undefined ? { stream: entry.isStream } : {}),
    fromThisMachine: mine.has(entry),
    ...(entry.requestId ? { requestId: entry.requestId } : {}),
  }));
}

/** What this machine recorded, newest first (all its own; no latency: the record does not keep it). */
function ownRows(own: readonly SpendEntry[]): UsageRecord[] {
  return [...own]
    .sort((a, b) => b.at - a.at)
    .map((entry) => ({
      at: entry.at,
      model: entry.model,
      ...(entry.promptTokens !== undefined ? { promptTokens: entry.promptTokens } : {}),
      ...(entry.completionTokens !== undefined ? { completionTokens: entry.completionTokens } : {}),
      ...(entry.usd !== undefined ? { usd: entry.usd } : {}),
      ...(entry.stream !== undefined ? { stream: entry.stream } : {}),
      fromThisMachine: true,
      ...(entry.requestId ? { requestId: entry.requestId } : {}),
    }));
}

function budgetsOf(budgets: Budgets, todayUsd: number, monthUsd: number): UsageBudget[] {
  const shown: UsageBudget[] = [];
  if (budgets.dailyUsd > 0)
    shown.push({
      period: 'day',
      spentUsd: todayUsd,
      limitUsd: budgets.dailyUsd,
      text: t('Daily budget: {0} of {1} spent', formatUsd(todayUsd), formatUsd(budgets.dailyUsd)),
    });
  if (budgets.monthlyUsd > 0)
    shown.push({
      period: 'month',
      spentUsd: monthUsd,
      limitUsd: budgets.monthlyUsd,
      text: t('Monthly budget: {0} of {1} spent', formatUsd(monthUsd), formatUsd(budgets.monthlyUsd)),
    });
  return shown;
}

/** The chart's gridlines: from 0 to a round value at or above `maxUsd`, in 4 steps (1, 2 or 5 times a power of ten). */
export function ticksFor(maxUsd: number): UsageTick[] {
  if (!(maxUsd > 0)) return [{ usd: 0, text: formatUsd(0) }];
  const rough = maxUsd / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = ([1, 2, 5, 10].find((factor) => factor * power >= rough - 1e-12) ?? 10) * power;
  return [0, 1, 2, 3, 4].map((index) => {
    const usd = Number((step * index).toPrecision(12));
    return { usd, text: formatUsd(usd) };
  });
}
