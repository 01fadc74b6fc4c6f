import * as assert from 'node:assert/strict';
import { checkAccount } from '../../../../src/doctor/core/accountCheck';
import type { ScenarioPatch } from '../../../service';
import { clientFor, useLocalService } from '../../support/localService';

const DAY = /\d{4}-\d{2}-\d{2}/.source;

describe('Test Connection: the key quota and the prices, against the local service', () => {
  const ctx = useLocalService();

  /** Reads the quota and prices with `patch` on the default scenario (patches do not add up). */
  function check(patch: ScenarioPatch = {}, priceSettings = {}) {
    ctx.service.reset();
    ctx.service.setScenario(patch);
    return checkAccount({ reader: clientFor(ctx.service).account, models: ['promptreel-chat', 'promptreel-video'], priceSettings, now: Date.now() });
  }

  it('says what is left of what, what was used and when the key expires, with the prices of the models in use', async () => {
    const account = await check();
    assert.match(account.quota, new RegExp(`^Key quota: \\$3\\.20 left of \\$10\\.00 \\(used \\$6\\.80\\), expires ${DAY} \\(1[12] days\\)\\.$`));
    assert.equal(account.prices, 'Prices: promptreel-chat $3.00 in / $12.00 out per 1M tokens; promptreel-video $0.40 per request.');
    assert.equal(account.keyProblem, undefined);
  });

  it('words an unlimited key, a key that never expires, and one that expires today', async () => {
    assert.match(
      (await check({ account: { tokenUsage: 'unlimited' } })).quota,
      new RegExp(`^Key quota: unlimited \\(used \\$6\\.80\\), expires ${DAY} \\(1[12] days\\)\\.$`),
    );
    assert.equal((await check({ account: { tokenUsage: 'unlimited', expiresInDays: null } })).quota, 'Key quota: unlimited (used $6.80), never expires.');
    assert.equal((await check({ account: { expiresInDays: null } })).quota, 'Key quota: $3.20 left of $10.00 (used $6.80), never expires.');
    assert.match((await check({ account: { expiresInDays: 0.5 } })).quota, new RegExp(`, expires ${DAY} \\(today\\)\\.$`));
  });

  it('flags a used-up and an expired key', async () => {
    const exhausted = await check({ account: { tokenUsage: 'exhausted', expiresInDays: 3.5 } });
    assert.match(exhausted.quota, new RegExp(`^Key quota: used up \\(\\$10\\.00 of \\$10\\.00\\), expires ${DAY} \\(3 days\\)\\.$`));
    assert.equal(exhausted.keyProblem, 'used-up');
    const expired = await check({ account: { expiresInDays: -1 } });
    assert.match(expired.quota, new RegExp(`^Key quota: expired on ${DAY}\\.$`));
    assert.equal(expired.keyProblem, 'expired');
  });

  it('names the per-model limits when the key has them enabled', async () => {
    const account = await check({ account: { modelLimits: { 'promptreel-video': 1_000_000, 'promptreel-chat': 250_000 } } });
    assert.match(account.quota, /; model limits: promptreel-video \$2\.00, promptreel-chat \$0\.50\.$/);
  });

  it('counts in tokens where /api/status says the gateway displays quota that way, in dollars when it says nothing', async () => {
    assert.match((await check({ account: { display: 'TOKENS' } })).quota, /^Key quota: 1\.6M tokens left of 5M tokens \(used 3\.4M tokens\), expires/);
    assert.match((await check({ account: { display: 'absent' } })).quota, /^Key quota: \$3\.20 left of \$10\.00 \(used \$6\.80\), expires/);
    // 1M units per dollar: the same units are half the dollars.
    assert.match((await check({ account: { quotaPerUnit: 1_000_000 } })).quota, /^Key quota: \$1\.60 left of \$5\.00 \(used \$3\.40\), expires/);
  });

  it('falls back to the billing pair when /api/usage/token is absent, a web page or {"success": false}', async () => {
    for (const tokenUsage of ['absent', 'html', 'unsuccessful'] as const) {
      for (const billing of ['v1', 'root'] as const) {
        const account = await check({ account: { tokenUsage, billing } });
        assert.match(
          account.quota,
          new RegExp(`^Key quota: \\$3\\.20 left of \\$10\\.00 \\(used \\$6\\.80\\), expires ${DAY} \\(1[12] days\\)\\.$`),
          `${tokenUsage}/${billing}`,
        );
      }
    }
    const unlimited = await check({ account: { tokenUsage: 'absent', billing: 'both', expiresInDays: null } });
    assert.equal(unlimited.quota, 'Key quota: $3.20 left of $10.00 (used $6.80), never expires.');
  });

  it('says the quota is not offered when neither endpoint answers (absent, a web page, {"success": false})', async () => {
    for (const tokenUsage of ['absent', 'html', 'unsuccessful'] as const) {
      assert.equal((await check({ account: { tokenUsage, billing: 'absent' } })).quota, 'Key quota: not offered by this service.', tokenUsage);
    }
    const page = await check({ account: { tokenUsage: 'html' }, fault: { status: 200, body: 'html', path: 'dashboard/billing' } });
    assert.equal(page.quota, 'Key quota: not offered by this service.', 'the billing pair answers with a web page');
  });

  it('names no price when /api/pricing is absent or {"success": false}, except those of the settings (which win)', async () => {
    for (const pricing of ['absent', 'unsuccessful'] as const) {
      const account = await check({ account: { pricing } });
      assert.equal(account.prices, undefined, pricing);
      assert.match(account.quota, /^Key quota: \$3\.20 left/, 'the quota is read all the same');
    }
    const settings = await check({ account: { pricing: 'absent' } }, { 'promptreel-video': { perRequest: 0.5 } });
    assert.equal(settings.prices, 'Prices: promptreel-video $0.50 per request (promptreel.models.prices).');
    const both = await check({}, { 'promptreel-chat': { input: 1, output: 2 }, 'other-model': { perRequest: 1 } });
    assert.equal(both.prices, 'Prices: promptreel-chat $1.00 in / $2.00 out per 1M tokens (promptreel.models.prices); promptreel-video $0.40 per request.');
  });

  it('reports a refused key or a failing endpoint in words, without throwing', async () => {
    const refused = await check({ fault: { status: 401, code: 'invalid_api_key', message: 'token expired', path: 'usage/token' } });
    assert.match(refused.quota, /^Key quota: the service refused the key when asked about its quota \(token expired.*\)\.$/);
    assert.equal(refused.keyProblem, undefined);
    assert.ok(refused.prices, 'the prices are still named');
    const failing = await check({ fault: { status: 500, path: 'usage/token' } });
    assert.match(failing.quota, /^Key quota: could not be read \(.+\)\.$/);
  });
});
