import * as vscode from 'vscode';
import { CommandIds } from '../common/contributions';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { StateStorage } from '../common/stateStorage';
import type { Settings } from '../config/settings';
import { t } from '../api/l10n';
import { formatUsd } from '../api/account/prices';
import type { Clock } from '../common/clock';
import type { SpendTracker } from './account/core/spendTracker';
import { budgetPasses, describeBudgetPasses, describeBudgets, periodId, type BudgetPass, type Budgets, type Spent } from './core/budgets';

/**
 * globalState: the periods the user chose to go on past a budget in, and the ones warned about, each with the budget
 * (`day:2026-11-26:1`): a new budget is asked about and warned about afresh.
 */
const ALLOWED_KEY = 'promptreel.budget.allowedPeriods';
const WARNED_KEY = 'promptreel.budget.warnedPeriods';
const REMEMBERED_PERIODS = 24;

/**
 * The one owner of "does this charge pass the user's budget?": the video confirmations name a budget their price
 * passes (through the charge gate), a chat request asks first once a budget is spent (once per period), and a
 * recorded charge that reaches a budget warns once per period. Budgets come from the user's settings only.
 */
export class BudgetGuard extends Disposable {
  constructor(
    private readonly settings: Settings,
    private readonly spending: SpendTracker,
    private readonly service: () => string | undefined,
    private readonly memory: StateStorage,
    private readonly clock: Clock,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(spending.onDidRecord(() => void this.warnIfReached()));
  }

  /** The user's budgets (never a folder's: their settings are application-scoped, and read from the user's level). */
  budgets(): Budgets {
    return { dailyUsd: this.settings.userValue('account.dailyBudget'), monthlyUsd: this.settings.userValue('account.monthlyBudget') };
  }

  hasBudget(): boolean {
    const budgets = this.budgets();
    return budgets.dailyUsd > 0 || budgets.monthlyUsd > 0;
  }

  /** What was spent, or undefined without a service or a budget to compare it with. */
  async spent(): Promise<Spent | undefined> {
    const service = this.service();
    if (!service || !this.hasBudget()) return undefined;
    return this.spending.spent(service);
  }

  /** `Budget: $0.80 of $1.00 today (…)`, for the status bar's tooltip; undefined without budgets. */
  async summary(): Promise<string | undefined> {
    if (!this.hasBudget()) return undefined;
    return describeBudgets(this.budgets(), await this.spent());
  }

  /** The sentence a confirmation of a charge of `priceUsd` shows when it passes a budget (an unknown price: if one is spent). */
  async confirmationNote(priceUsd: number | undefined): Promise<string | undefined> {
    const spent = await this.spent();
    if (!spent) return undefined;
    return describeBudgetPasses(budgetPasses(this.budgets(), spent, priceUsd ?? 0), spent.source);
  }

  /**
   * Before a chat request (its cost is known only after it): true to send. Once a budget is spent, asks first, naming
   * it and what was spent; going on holds for the rest of that period.
   */
  async allowChat(): Promise<boolean> {
    const spent = await this.spent();
    if (!spent) return true;
    const now = this.clock.now();
    const allowed = this.memory.get<string[]>(ALLOWED_KEY) ?? [];
    const passes = budgetPasses(this.budgets(), spent, 0).filter((pass) => !allowed.includes(passId(pass, now)));
    if (passes.length === 0) return true;
    const sendAnyway = t('Send Anyway');
    const openSettings = t('Open Settings');
    const answer = await vscode.window.showWarningMessage(
      t('Your Promptreel budget is spent'),
      { modal: true, detail: `${describeBudgetPasses(passes, spent.source) ?? ''} ${t('Send this request anyway? It is charged to your key.')}` },
      sendAnyway,
      openSettings,
    );
    if (answer === sendAnyway) {
      await this.remember(ALLOWED_KEY, passes, now);
      this.log.info(`Going on past the budget for ${passes.map((pass) => periodId(pass.period, now)).join(', ')}`);
      return true;
    }
    if (answer === openSettings) void vscode.commands.executeCommand(CommandIds.openSettings, settingOf(passes[0]));
    return false;
  }

  private async warnIfReached(): Promise<void> {
    const spent = await this.spent();
    if (!spent) return;
    const now = this.clock.now();
    const warned = this.memory.get<string[]>(WARNED_KEY) ?? [];
    const passes = budgetPasses(this.budgets(), spent, 0).filter((pass) => !warned.includes(passId(pass, now)));
    if (passes.length === 0) return;
    await this.remember(WARNED_KEY, passes, now);
    const message = passes.some((pass) => pass.period === 'day')
      ? t('Promptreel has reached your daily budget of {0}.', formatLimit(passes, 'day'))
      : t('Promptreel has reached your monthly budget of {0}.', formatLimit(passes, 'month'));
    const openSettings = t('Open Settings');
    void Promise.resolve(vscode.window.showWarningMessage(message, openSettings)).then((picked) =>
      picked === openSettings ? vscode.commands.executeCommand(CommandIds.openSettings, settingOf(passes[0])) : undefined,
    );
  }

  private async remember(key: string, passes: readonly BudgetPass[], now: number): Promise<void> {
    const ids = this.memory.get<string[]>(key) ?? [];
    await this.memory.update(key, [...ids, ...passes.map((pass) => passId(pass, now))].slice(-REMEMBERED_PERIODS));
  }
}

/** A budget in its period: the period and the limit (another limit is another budget). */
function passId(pass: BudgetPass, now: number): string {
  return `${periodId(pass.period, now)}:${pass.limitUsd}`;
}

function settingOf(pass: BudgetPass | undefined): string {
  return pass?.period === 'month' ? 'promptreel.account.monthlyBudget' : 'promptreel.account.dailyBudget';
}

function formatLimit(passes: readonly BudgetPass[], period: BudgetPass['period']): string {
  return formatUsd(passes.find((pass) => pass.period === period)?.limitUsd ?? 0);
}
