import * as assert from 'node:assert/strict';
import { spendSummary, type SpendItem } from '../../../../../src/connection/account/core/spendSummary';

/** Local time, as the summary counts days: the tests hold in any time zone. */
const local = (month: number, day: number, hour = 12, minute = 0) => new Date(2026, month, day, hour, minute).getTime();

const item = (createdAt: number, usd: number, model = 'chat', tokens: Partial<SpendItem> = {}): SpendItem => ({ createdAt, usd, model, ...tokens });

describe('spend summary (issue 26.2)', () => {
  const now = local(9, 3, 15); // 3 October, 15:00

  it("issue 26.2: today's and this month's totals in local time", () => {
    const summary = spendSummary(
      [item(local(9, 3, 0, 1), 1), item(local(9, 3, 14), 2), item(local(9, 2, 23, 59), 4), item(local(9, 1, 0, 0), 8), item(local(8, 30, 23, 59), 16)],
      now,
    );
    assert.equal(summary.todayUsd, 3);
    assert.equal(summary.monthUsd, 15, 'from the first of October at midnight');
    assert.equal(summary.totalUsd, 31);
    assert.equal(summary.oldestAt, local(8, 30, 23, 59));
  });

  it('issue 26.2: thirty days, oldest first, today last, empty days included, per model', () => {
    const summary = spendSummary(
      [
        item(local(9, 3, 9), 0.5, 'video'),
        item(local(9, 3, 10), 0.25, 'chat', { promptTokens: 100, completionTokens: 10 }),
        item(local(8, 20), 0.25, 'chat', { promptTokens: 50, completionTokens: 5 }),
        item(local(8, 4, 12), 9, 'chat'),
        item(local(8, 3, 12), 100, 'old'),
      ],
      now,
    );
    assert.equal(summary.days.length, 30);
    assert.equal(summary.days[0].day, '2026-09-04');
    assert.equal(summary.days.at(-1)?.day, '2026-10-03');
    assert.equal(summary.days[0].start, new Date(2026, 8, 4).getTime());
    assert.deepEqual(summary.days.at(-1), {
      day: '2026-10-03',
      start: new Date(2026, 9, 3).getTime(),
      usd: 0.75,
      requests: 2,
      byModel: { video: 0.5, chat: 0.25 },
    });
    assert.deepEqual(summary.days.find((day) => day.day === '2026-09-20')?.byModel, { chat: 0.25 });
    assert.equal(summary.days.filter((day) => day.requests === 0).length, 27);
    assert.deepEqual(summary.models, [
      { model: 'chat', usd: 9.5, requests: 3, promptTokens: 150, completionTokens: 15 },
      { model: 'video', usd: 0.5, requests: 1, promptTokens: 0, completionTokens: 0 },
    ]);
    assert.equal(summary.totalUsd, 10, 'the charge of 31 days ago is outside');
  });

  it("issue 26.2: a charge stamped after now (the gateway's clock ahead) counts as today", () => {
    const summary = spendSummary([item(local(9, 4, 1), 2)], now);
    assert.equal(summary.todayUsd, 2);
    assert.equal(summary.days.at(-1)?.usd, 2);
  });

  it('issue 26.2: nothing charged is all zeros over thirty days', () => {
    const summary = spendSummary([], now);
    assert.equal(summary.todayUsd, 0);
    assert.equal(summary.monthUsd, 0);
    assert.equal(summary.days.length, 30);
    assert.deepEqual(summary.models, []);
    assert.equal(summary.oldestAt, undefined);
  });

  it('issue 26.2: days are local days across a daylight-saving change', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      // 1 November 2026: clocks go back at 2:00 (a 25-hour day).
      const after = new Date(2026, 10, 2, 12).getTime();
      const summary = spendSummary([item(new Date(2026, 10, 1, 23, 30).getTime(), 1), item(new Date(2026, 10, 2, 0, 30).getTime(), 2)], after);
      assert.equal(summary.days.at(-2)?.day, '2026-11-01');
      assert.equal(summary.days.at(-2)?.usd, 1);
      assert.equal(summary.days.at(-1)?.usd, 2);
      assert.equal((summary.days.at(-1)?.start ?? 0) - (summary.days.at(-2)?.start ?? 0), 25 * 3_600_000);
      assert.equal(new Set(summary.days.map((day) => day.day)).size, 30);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
