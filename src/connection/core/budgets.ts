import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';

/** The user's budgets in US dollars; 0 is none. Only the user's settings set them, never a folder's. */
export interface Budgets {
  dailyUsd: number;
  monthlyUsd: number;
}

/** What was spent today and this month, and where that comes from. */
export interface Spent {
  todayUsd: number;
  monthUsd: number;
  /** `log`: the gateway's log of the key (what it really charged); `local`: what Promptreel recorded on this machine. */
  source: 'log' | 'local';
}

export type BudgetPeriod = 'day' | 'month';

export interface BudgetPass {
  period: BudgetPeriod;
  limitUsd: number;
  spentUsd: number;
}

/** The budgets that `addUsd` more would pass (or that are passed already, with 0). */
export function budgetPasses(budgets: Budgets, spent: Spent, addUsd = 0): BudgetPass[] {
  const passes: BudgetPass[] = [];
  if (budgets.dailyUsd > 0 && exceeds(spent.todayUsd + addUsd, budgets.dailyUsd, addUsd))
    passes.push({ period: 'day', limitUsd: budgets.dailyUsd, spentUsd: spent.todayUsd });
  if (budgets.monthlyUsd > 0 && exceeds(spent.monthUsd + addUsd, budgets.monthlyUsd, addUsd))
    passes.push({ period: 'month', limitUsd: budgets.monthlyUsd, spentUsd: spent.monthUsd });
  return passes;
}

/** With a known cost: passing the limit. Without one (a chat reply): having reached it already. */
function exceeds(total: number, limit: number, addUsd: number): boolean {
  return addUsd > 0 ? total > limit + 1e-9 : total >= limit - 1e-9;
}

/** `This passes your daily budget of $1.00: $0.80 spent today (from the service's log of the key).` */
export function describeBudgetPasses(passes: readonly BudgetPass[], source: Spent['source']): string | undefined {
  if (passes.length === 0) return undefined;
  const from = source === 'log' ? t("from the service's log of the key") : t('as recorded by Promptreel on this machine');
  return joinSentences(
    passes.map((pass) =>
      pass.period === 'day'
        ? t('This passes your daily budget of {0}: {1} spent today ({2}).', formatUsd(pass.limitUsd), formatUsd(pass.spentUsd), from)
        : t('This passes your monthly budget of {0}: {1} spent this month ({2}).', formatUsd(pass.limitUsd), formatUsd(pass.spentUsd), from),
    ),
  );
}

/** `Budget: $0.80 of $1.00 today · $12.40 of $30.00 this month (from the service's log of the key)`, or undefined without budgets. */
export function describeBudgets(budgets: Budgets, spent: Spent | undefined): string | undefined {
  const parts: string[] = [];
  const known = (usd: number) => (spent ? formatUsd(usd) : '?');
  if (budgets.dailyUsd > 0) parts.push(t('{0} of {1} today', known(spent?.todayUsd ?? 0), formatUsd(budgets.dailyUsd)));
  if (budgets.monthlyUsd > 0) parts.push(t('{0} of {1} this month', known(spent?.monthUsd ?? 0), formatUsd(budgets.monthlyUsd)));
  if (parts.length === 0) return undefined;
  const from = spent?.source === 'log' ? t("from the service's log of the key") : t('as recorded by Promptreel on this machine');
  return t('Budget: {0} ({1})', parts.join(' · '), from);
}

/** The id of the period `now` is in (local time), so that a warning or an allowance holds for that period only. */
export function periodId(period: BudgetPeriod, now: number): string {
  const date = new Date(now);
  const month = `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}`;
  return period === 'day' ? `day:${month}-${String(date.getDate()).padStart(2, '0')}` : `month:${month}`;
}
