import * as assert from 'node:assert/strict';
import type { KeyLogEntry } from '../../../../src/api/account/keyLog';
import type { SpendEntry } from '../../../../src/connection/account/core/spendLedger';
import { TABLE_ROWS, ticksFor, usageSnapshot, type UsageInputs } from '../../../../src/account/usage/core/usageModel';

const UNIT = 500_000;
/** Noon, local time, mid-month: "today" and "this month" hold whatever the machine's time zone. */
const NOW = new Date(2026, 9, 15, 12, 0, 0).getTime();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

function logged(fields: Partial<KeyLogEntry> & { at: number; quota: number; model: string }): KeyLogEntry {
  const { at, ...rest } = fields;
  return { createdAt: Math.floor(at / 1000) * 1000, usd: fields.quota / UNIT, promptTokens: 0, completionTokens: 0, ...rest };
}

function inputs(fields: Partial<UsageInputs>): UsageInputs {
  return {
    log: undefined,
    own: [],
    budgets: { dailyUsd: 0, monthlyUsd: 0 },
    now: NOW,
    formatTime: (at) => `t${at}`,
    formatDay: (at) => `d${new Date(at).getDate()}`,
    ...fields,
  };
}

describe('account: the usage view model (issue 26.3)', () => {
  it("issue 26.3: from the key's log: its charges newest first, totals, 30 days stacked per model, and this machine's requests marked", () => {
    const chatMine = logged({
      at: NOW - HOUR,
      quota: 1000,
      model: 'chat',
      promptTokens: 12,
      completionTokens: 30,
      useTimeSeconds: 2,
      isStream: true,
      requestId: 'rid-1',
    });
    const videoMine = logged({ at: NOW - 2 * HOUR, quota: 200_000, model: 'video', useTimeSeconds: 1, isStream: false });
    const elsewhere = logged({ at: NOW - 3 * DAY, quota: 50_000, model: 'video' });
    const lastMonth = logged({ at: new Date(2026, 8, 20, 12).getTime(), quota: 5000, model: 'chat', cachedTokens: 4 });
    const own: SpendEntry[] = [
      { at: NOW - 2 * HOUR + 300, kind: 'video', model: 'video', usd: 0.4, taskId: 'task-1' },
      { at: NOW - HOUR + 200, kind: 'chat', model: 'chat', usd: 0.001, requestId: 'rid-1', promptTokens: 12, completionTokens: 30, stream: true },
    ];
    const { snapshot, rows } = usageSnapshot(inputs({ log: [chatMine, videoMine, elsewhere, lastMonth], own, budgets: { dailyUsd: 1, monthlyUsd: 0 } }));

    assert.equal(snapshot.source, 'log');
    assert.equal(snapshot.sourceText, "From the service's log of the key.");
    assert.equal(snapshot.todayText, '$0.40');
    assert.equal(snapshot.monthText, '$0.50');
    assert.deepEqual(snapshot.budgets, [{ period: 'day', spentUsd: 0.402, limitUsd: 1, text: 'Daily budget: $0.40 of $1.00 spent' }]);
    assert.deepEqual(
      rows.map((row) => [row.model, row.usd, row.fromThisMachine]),
      [
        ['chat', 0.002, true],
        ['video', 0.4, true],
        ['video', 0.1, false],
        ['chat', 0.01, false],
      ],
    );
    assert.deepEqual(snapshot.rows[0], {
      at: chatMine.createdAt,
      time: `t${chatMine.createdAt}`,
      model: 'chat',
      promptTokens: 12,
      completionTokens: 30,
      usd: 0.002,
      usdText: '$0.002',
      latencySeconds: 2,
      stream: true,
      fromThisMachine: true,
      requestId: 'rid-1',
    });
    assert.equal(rows[3]?.cachedTokens, 4);
    assert.equal(snapshot.requestCount, 4);

    assert.equal(snapshot.days.length, 30);
    assert.equal(snapshot.days.at(-1)?.label, 'd15', 'today last');
    assert.deepEqual(snapshot.models, ['video', 'chat'], 'the most spent first');
    assert.deepEqual(snapshot.days.at(-1)?.byModel, [
      { model: 'video', usd: 0.4, usdText: '$0.40' },
      { model: 'chat', usd: 0.002, usdText: '$0.002' },
    ]);
    assert.deepEqual(snapshot.days.at(-4)?.byModel, [{ model: 'video', usd: 0.1, usdText: '$0.10' }]);
    assert.deepEqual(
      snapshot.perModel.map((model) => [model.model, model.usdText, model.requests]),
      [
        ['video', '$0.50', 2],
        ['chat', '$0.01', 2],
      ],
    );
    assert.ok((snapshot.ticks.at(-1)?.usd ?? 0) >= 0.402, 'the top gridline is above the highest day');
  });

  it("issue 26.3: where the service publishes no log, this machine's record, all of it its own, and it says so", () => {
    const own: SpendEntry[] = [
      { at: NOW - 5 * DAY, kind: 'chat', model: 'chat', usd: 0.25, promptTokens: 5, completionTokens: 7, stream: false },
      { at: NOW - HOUR, kind: 'video', model: 'video', usd: 0.4, taskId: 'task-2' },
      { at: NOW - 30 * 60_000, kind: 'video', model: 'mystery' },
    ];
    const { snapshot, rows } = usageSnapshot(inputs({ log: undefined, own, budgets: { dailyUsd: 0, monthlyUsd: 0.5 } }));
    assert.equal(snapshot.source, 'local');
    assert.equal(snapshot.sourceText, 'As recorded by Promptreel on this machine: the service publishes no log of the key.');
    assert.deepEqual(
      rows.map((row) => [row.model, row.usd, row.fromThisMachine, row.latencySeconds]),
      [
        ['mystery', undefined, true, undefined],
        ['video', 0.4, true, undefined],
        ['chat', 0.25, true, undefined],
      ],
    );
    assert.equal(snapshot.todayText, '$0.40');
    assert.equal(snapshot.monthText, '$0.65');
    assert.equal(snapshot.unpricedText, '1 request this month whose price was not known is not counted.');
    assert.deepEqual(snapshot.budgets, [{ period: 'month', spentUsd: 0.65, limitUsd: 0.5, text: 'Monthly budget: $0.65 of $0.50 spent' }]);
    assert.equal(snapshot.rows[0]?.usdText, undefined, 'no price: nothing to show');
  });

  it('issue 26.3: the table holds the last requests, the CSV every one; nothing at all is an empty view', () => {
    const log = Array.from({ length: TABLE_ROWS + 20 }, (_, index) => logged({ at: NOW - index * 60_000, quota: 100, model: 'chat' }));
    const { snapshot, rows } = usageSnapshot(inputs({ log }));
    assert.equal(snapshot.rows.length, TABLE_ROWS);
    assert.equal(rows.length, TABLE_ROWS + 20);
    assert.equal(snapshot.requestCount, TABLE_ROWS + 20);

    const empty = usageSnapshot(inputs({ log: [] })).snapshot;
    assert.equal(empty.source, 'log', 'an empty log is still the log');
    assert.deepEqual([empty.rows, empty.models, empty.perModel, empty.budgets, empty.todayText], [[], [], [], [], '$0.00']);
    assert.deepEqual(empty.ticks, [{ usd: 0, text: '$0.00' }]);
  });

  it('issue 26.3: the gridlines step by 1, 2 or 5 times a power of ten up to the highest day', () => {
    assert.deepEqual(
      ticksFor(0.37).map((tick) => tick.usd),
      [0, 0.1, 0.2, 0.3, 0.4],
    );
    assert.deepEqual(
      ticksFor(7).map((tick) => tick.usd),
      [0, 2, 4, 6, 8],
    );
    assert.deepEqual(
      ticksFor(0.0031).map((tick) => tick.text),
      ['$0.00', '$0.001', '$0.002', '$0.003', '$0.004'],
    );
    assert.deepEqual(
      ticksFor(40).map((tick) => tick.usd),
      [0, 10, 20, 30, 40],
    );
  });
});
