import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import { describeKeyHealth, keyCondition, keyHealthFromBilling, keyHealthFromTokenUsage, quotaDisplay } from '../../../../src/api/account/keyHealth';
import { costOf, describePrice, formatUsd, modelPrices, videoCost } from '../../../../src/api/account/prices';
import { clientFor, useLocalService } from '../../support/localService';

const DAY = 86_400_000;

describe('account: the key quota, its expiry and prices, against the local service', () => {
  const ctx = useLocalService();

  it('reads the key usage (new-api) in quota units and turns it into dollars and days', async () => {
    const client = clientFor(ctx.service);
    const usage = await client.account.tokenUsage();
    assert.ok(usage.offered);
    const health = keyHealthFromTokenUsage(usage.value);
    assert.equal(health.unlimited, false);
    assert.equal(health.grantedUsd, 10);
    assert.equal(health.usedUsd, 6.8);
    assert.ok(Math.abs((health.leftUsd ?? 0) - 3.2) < 1e-9);
    const now = Date.now();
    assert.equal(keyCondition(health, now).daysLeft, 11, 'twelve days from the answer, minus the part of a day gone');
    assert.match(describeKeyHealth(health, quotaDisplay(undefined), now), /^\$3\.20 left · 1[12] days$/);
    assert.equal(ctx.service.requests.at(-1)?.key, ctx.service.demoKey, 'the key endpoint gets the key');
  });

  it('names an unlimited, a never-expiring, an expiring, an expired and an exhausted key', async () => {
    const client = clientFor(ctx.service);
    const read = async () => {
      const usage = await client.account.tokenUsage();
      assert.ok(usage.offered);
      return keyHealthFromTokenUsage(usage.value);
    };
    const usd = quotaDisplay(undefined);
    ctx.service.setScenario({ account: { tokenUsage: 'unlimited', expiresInDays: null } });
    assert.equal(describeKeyHealth(await read(), usd, Date.now()), 'unlimited · never expires');
    ctx.service.setScenario({ account: { tokenUsage: 'limited', expiresInDays: 0.5 } });
    assert.match(describeKeyHealth(await read(), usd, Date.now()), /expires today$/);
    ctx.service.setScenario({ account: { expiresInDays: -1 } });
    const expired = await read();
    assert.equal(keyCondition(expired, Date.now()).expired, true);
    assert.equal(describeKeyHealth(expired, usd, Date.now()), 'expired');
    ctx.service.setScenario({ account: { tokenUsage: 'exhausted', expiresInDays: 30 } });
    const exhausted = await read();
    assert.equal(keyCondition(exhausted, Date.now()).exhausted, true);
    assert.equal(describeKeyHealth(exhausted, usd, Date.now()), 'used up');
  });

  it('shows model limits only when the key has them enabled', async () => {
    const client = clientFor(ctx.service);
    ctx.service.setScenario({ account: { modelLimits: { 'promptreel-video': 1_000_000 } } });
    const usage = await client.account.tokenUsage();
    assert.ok(usage.offered);
    assert.deepEqual(keyHealthFromTokenUsage(usage.value).modelLimitsUsd, { 'promptreel-video': 2 });
  });

  for (const variant of ['absent', 'html', 'unsuccessful'] as const) {
    it(`takes a key usage endpoint that is ${variant} as not offered, not as an error`, async () => {
      ctx.service.setScenario({ account: { tokenUsage: variant } });
      const usage = await clientFor(ctx.service).account.tokenUsage();
      assert.equal(usage.offered, false);
    });
  }

  it('throws a refused key on the key endpoint (the caller says so), and never sends it to the public ones', async () => {
    const client = clientFor(ctx.service, { apiKey: () => 'sk-not-a-key' });
    await assert.rejects(client.account.tokenUsage(), (error: unknown) => error instanceof ApiError && error.status === 401);
    const status = await client.account.status();
    assert.ok(status.offered, 'public: answered without a valid key');
    const pricing = await client.account.pricing();
    assert.ok(pricing.offered);
    for (const request of ctx.service.requests.filter((candidate) => candidate.path.startsWith('/api/status') || candidate.path.startsWith('/api/pricing'))) {
      assert.equal(request.key, undefined, `${request.path} got no key`);
    }
  });

  for (const where of ['both', 'v1', 'root'] as const) {
    it(`reads the billing pair under ${where === 'both' ? '/v1/dashboard (first)' : where === 'v1' ? '/v1/dashboard' : '/dashboard'}`, async () => {
      ctx.service.setScenario({ account: { billing: where } });
      const billing = await clientFor(ctx.service).account.billing();
      assert.ok(billing.offered);
      const health = keyHealthFromBilling(billing.value);
      assert.equal(health.grantedUsd, 10);
      assert.ok(Math.abs((health.usedUsd ?? 0) - 6.8) < 1e-9);
      assert.ok(Math.abs((health.leftUsd ?? 0) - 3.2) < 1e-9);
      assert.ok(health.expiresAt && health.expiresAt > Date.now() + 11 * DAY);
      const usageRequest = ctx.service.requests.find((request) => request.path.includes('/dashboard/billing/usage?'));
      assert.match(usageRequest?.path ?? '', /start_date=\d{4}-\d\d-\d\d&end_date=\d{4}-\d\d-\d\d$/);
      if (where === 'root') assert.ok(usageRequest?.path.startsWith('/dashboard/'), 'after /v1/dashboard answered 404');
    });
  }

  it('takes the huge limit of an unlimited key as unlimited, and no billing endpoint as not offered', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'unlimited' } });
    const billing = await clientFor(ctx.service).account.billing();
    assert.ok(billing.offered);
    assert.equal(keyHealthFromBilling(billing.value).unlimited, true);
    ctx.service.setScenario({ account: { billing: 'absent' } });
    assert.equal((await clientFor(ctx.service).account.billing()).offered, false);
  });

  for (const display of ['USD', 'CNY', 'TOKENS'] as const) {
    it(`reads the display unit ${display} from /api/status`, async () => {
      ctx.service.setScenario({ account: { display } });
      const status = await clientFor(ctx.service).account.status();
      assert.ok(status.offered);
      const unit = quotaDisplay(status.value);
      assert.equal(unit.quotaPerUnit, 500_000);
      assert.equal(unit.unit, display === 'TOKENS' ? 'TOKENS' : 'USD', 'CNY is shown in the dollars the service charges');
      const usage = await clientFor(ctx.service).account.tokenUsage();
      assert.ok(usage.offered);
      const words = describeKeyHealth(keyHealthFromTokenUsage(usage.value, unit.quotaPerUnit), unit, Date.now());
      assert.match(words, display === 'TOKENS' ? /^1\.6M tokens left/ : /^\$3\.20 left/);
    });
  }

  it('reads per-call and per-token prices with the group ratio', async () => {
    const pricing = await clientFor(ctx.service).account.pricing();
    assert.ok(pricing.offered);
    const prices = modelPrices(pricing.value);
    assert.deepEqual(prices.get('promptreel-video'), { kind: 'per-call', usd: 0.4 });
    assert.deepEqual(prices.get('promptreel-chat'), { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 });
    const vip = modelPrices(pricing.value, 'vip');
    assert.ok(Math.abs((vip.get('promptreel-video') as { usd: number }).usd - 0.32) < 1e-9);
    const unknownGroup = modelPrices(pricing.value, 'nobody');
    assert.deepEqual(unknownGroup.get('promptreel-video'), { kind: 'per-call', usd: 0.4 }, 'an unknown group counts as ratio 1');
  });

  for (const variant of ['absent', 'unsuccessful'] as const) {
    it(`takes a pricing endpoint that is ${variant} as not offered`, async () => {
      ctx.service.setScenario({ account: { pricing: variant } });
      assert.equal((await clientFor(ctx.service).account.pricing()).offered, false);
    });
  }

  it('tells when a charged request was accepted (a chat, a video task), not for reads nor refused requests', async () => {
    let charged = 0;
    const client = clientFor(ctx.service, { onCharged: () => charged++ });
    await client.listModels();
    await client.account.tokenUsage();
    assert.equal(charged, 0);
    await client.createChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(charged, 1);
    await client.createVideoTask({ model: 'promptreel-video', prompt: 'a kite' });
    assert.equal(charged, 2);
    ctx.service.setScenario({ fault: { status: 401, code: 'invalid_api_key', message: 'expired' } });
    await assert.rejects(client.createChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'hi' }] }));
    assert.equal(charged, 2);
  });

  it('takes an absent /api/status as the default scale (500000 units per dollar)', async () => {
    ctx.service.setScenario({ account: { display: 'absent' } });
    const status = await clientFor(ctx.service).account.status();
    assert.equal(status.offered, false);
    assert.deepEqual(quotaDisplay(undefined), { unit: 'USD', quotaPerUnit: 500_000 });
  });
});

describe('account arithmetic', () => {
  it('costs a reply from its tokens, and a call at its price', () => {
    const chat = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 } as const;
    assert.equal(costOf(chat, { promptTokens: 1000, completionTokens: 500 }), 0.009);
    assert.equal(costOf(chat, {}), 0);
    assert.equal(costOf({ kind: 'per-call', usd: 0.4 }, { promptTokens: 99 }), 0.4);
  });

  it('issue 26.2: costs cached prompt tokens at the cached price where published, else as prompt tokens', () => {
    const cached = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12, cachedPromptUsdPerMillion: 0.3 } as const;
    assert.ok(Math.abs(costOf(cached, { promptTokens: 1000, completionTokens: 500, cachedTokens: 800 }) - (200 * 3 + 800 * 0.3 + 500 * 12) / 1e6) < 1e-15);
    assert.ok(Math.abs(costOf(cached, { promptTokens: 100, cachedTokens: 900 }) - (100 * 0.3) / 1e6) < 1e-15, 'at most the prompt is cached');
    const plain = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 } as const;
    assert.equal(costOf(plain, { promptTokens: 1000, completionTokens: 500, cachedTokens: 800 }), 0.009);
  });

  it('rounds dollars as people read them', () => {
    assert.equal(formatUsd(0), '$0.00');
    assert.equal(formatUsd(3.2), '$3.20');
    assert.equal(formatUsd(1234.567), '$1,234.57');
    assert.equal(formatUsd(0.01), '$0.01');
    assert.equal(formatUsd(0.009), '$0.009');
    assert.equal(formatUsd(0.00042317), '$0.00042');
    assert.equal(formatUsd(-0.5), '-$0.50');
  });

  it('describes a price per request and per million tokens', () => {
    assert.equal(describePrice({ kind: 'per-call', usd: 0.4 }), '$0.40 per request');
    assert.equal(describePrice({ kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 }), '$3.00 in / $12.00 out per 1M tokens');
    assert.equal(describePrice({ kind: 'per-second', usd: 0.05 }), '$0.05 per second of video');
  });

  it('issue 27: a video task costs its price per call, or its price per second times its seconds; nothing else is a video cost', () => {
    assert.equal(videoCost({ kind: 'per-call', usd: 0.4 }, '8'), 0.4);
    assert.equal(videoCost({ kind: 'per-second', usd: 0.05 }, '8'), 0.4);
    assert.equal(videoCost({ kind: 'per-second', usd: 0.05 }, 6), 0.30000000000000004);
    assert.equal(videoCost({ kind: 'per-second', usd: 0.05 }, undefined), undefined, 'per second without a duration is not known');
    assert.equal(videoCost({ kind: 'per-second', usd: 0.05 }, 'ten'), undefined);
    assert.equal(videoCost({ kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 }, '8'), undefined);
    assert.equal(videoCost(undefined, '8'), undefined);
  });

  it('reads quota units to dollars with the gateway scale, and a missing available from granted − used', () => {
    const health = keyHealthFromTokenUsage({ total_granted: 1_000_000, total_used: 250_000, unlimited_quota: false, expires_at: 0 }, 250_000);
    assert.equal(health.grantedUsd, 4);
    assert.equal(health.leftUsd, 3);
    assert.equal(health.expiresAt, undefined);
    assert.equal(keyCondition(health, Date.now()).shareLeft, 0.75);
  });

  it('tolerates numbers sent as strings and drops fields that are not numbers', async () => {
    const { tokenUsageSchema } = await import('../../../../src/api/account/accountAnswers');
    const parsed = tokenUsageSchema.parse({ total_granted: '500000', total_used: 'lots', expires_at: 0, extra: true });
    assert.equal(parsed.total_granted, 500000);
    assert.equal(parsed.total_used, undefined);
  });
});
