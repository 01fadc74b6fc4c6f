import * as assert from 'node:assert/strict';
import { budgetPasses, describeBudgetPasses, describeBudgets, periodId } from '../../../../src/connection/core/budgets';

describe('budgets (issue 26.4)', () => {
  const spent = { todayUsd: 0.8, monthUsd: 12.4, source: 'log' as const };

  it('a known price passes a budget when what was spent plus it goes over; exactly reaching it does not', () => {
    assert.deepEqual(budgetPasses({ dailyUsd: 1, monthlyUsd: 0 }, spent, 0.4), [{ period: 'day', limitUsd: 1, spentUsd: 0.8 }]);
    assert.deepEqual(budgetPasses({ dailyUsd: 1.2, monthlyUsd: 0 }, spent, 0.4), []);
    assert.deepEqual(budgetPasses({ dailyUsd: 5, monthlyUsd: 12.5 }, spent, 0.4), [{ period: 'month', limitUsd: 12.5, spentUsd: 12.4 }]);
  });

  it('without a price (a chat reply) a budget counts once it is reached; 0 is no budget', () => {
    assert.deepEqual(budgetPasses({ dailyUsd: 0.8, monthlyUsd: 0 }, spent), [{ period: 'day', limitUsd: 0.8, spentUsd: 0.8 }]);
    assert.deepEqual(budgetPasses({ dailyUsd: 0.9, monthlyUsd: 0 }, spent), []);
    assert.deepEqual(budgetPasses({ dailyUsd: 0, monthlyUsd: 0 }, { todayUsd: 1e6, monthUsd: 1e6, source: 'local' }, 1), []);
  });

  it('names the budget, what was spent and where that comes from', () => {
    const passes = budgetPasses({ dailyUsd: 1, monthlyUsd: 12 }, spent, 0.4);
    assert.equal(
      describeBudgetPasses(passes, 'log'),
      "This passes your daily budget of $1.00: $0.80 spent today (from the service's log of the key). This passes your monthly budget of $12.00: $12.40 spent this month (from the service's log of the key).",
    );
    assert.equal(describeBudgetPasses([], 'log'), undefined);
    assert.match(describeBudgetPasses(passes.slice(0, 1), 'local') ?? '', /as recorded by Promptreel on this machine/);
  });

  it('summarizes the budgets for the status bar, saying where the spend comes from', () => {
    assert.equal(
      describeBudgets({ dailyUsd: 1, monthlyUsd: 30 }, spent),
      "Budget: $0.80 of $1.00 today · $12.40 of $30.00 this month (from the service's log of the key)",
    );
    assert.equal(describeBudgets({ dailyUsd: 0, monthlyUsd: 0 }, spent), undefined);
  });

  it('names periods by the local day and month', () => {
    const noon = new Date(2026, 10, 26, 12, 0).getTime();
    assert.equal(periodId('day', noon), 'day:2026-11-26');
    assert.equal(periodId('month', noon), 'month:2026-11');
    assert.equal(periodId('day', new Date(2026, 10, 27, 0, 0, 1).getTime()), 'day:2026-11-27');
  });
});
