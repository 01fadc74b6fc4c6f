import * as assert from 'node:assert/strict';
import { LEDGER_DAYS, spendEntry, spendTotals, withEntry } from '../../../../../src/connection/account/core/spendLedger';

const DAY = 86_400_000;

describe('the spend ledger: what this machine’s requests cost (issue 26)', () => {
  const now = new Date(2026, 10, 26, 15, 0).getTime();

  it('prices a video per call and a reply from the tokens the service counted; an unknown price stays unknown', () => {
    assert.equal(spendEntry({ kind: 'video', model: 'v', at: now, taskId: 't1' }, { kind: 'per-call', usd: 0.4, source: 'service' }).usd, 0.4);
    assert.equal(
      spendEntry({ kind: 'video', model: 'v', at: now, taskId: 't2', seconds: '8' }, { kind: 'per-second', usd: 0.05, source: 'settings' }).usd,
      0.4,
    );
    assert.equal(spendEntry({ kind: 'video', model: 'v', at: now, taskId: 't3' }, { kind: 'per-second', usd: 0.05, source: 'settings' }).usd, undefined);
    const reply = spendEntry(
      { kind: 'chat', model: 'c', at: now, stream: true, usage: { promptTokens: 1_000_000, completionTokens: 500_000, totalTokens: 1_500_000 } },
      { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12, source: 'service' },
    );
    assert.equal(reply.usd, 9);
    assert.equal(reply.promptTokens, 1_000_000);
    assert.equal(
      spendEntry(
        { kind: 'chat', model: 'c', at: now, stream: true },
        { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12, source: 'service' },
      ).usd,
      undefined,
    );
    assert.equal(spendEntry({ kind: 'video', model: 'v', at: now, taskId: 't' }, undefined).usd, undefined);
  });

  it('totals today and this calendar month in local time, counting what had no price apart', () => {
    const entries = [
      { at: new Date(2026, 10, 26, 0, 0, 1).getTime(), usd: 0.4 },
      { at: new Date(2026, 10, 25, 23, 59).getTime(), usd: 1 },
      { at: new Date(2026, 10, 1, 0, 0).getTime(), usd: 2 },
      { at: new Date(2026, 9, 31, 23, 59).getTime(), usd: 100 },
      { at: now - 1000 },
    ];
    assert.deepEqual(spendTotals(entries, now), { todayUsd: 0.4, monthUsd: 3.4, unpriced: 1 });
  });

  it('keeps the last LEDGER_DAYS days only', () => {
    const old = { at: now - (LEDGER_DAYS + 1) * DAY, kind: 'chat' as const, model: 'c' };
    const recent = { at: now - DAY, kind: 'chat' as const, model: 'c' };
    const added = { at: now, kind: 'video' as const, model: 'v' };
    assert.deepEqual(withEntry([old, recent], added, now), [recent, added]);
  });
});
