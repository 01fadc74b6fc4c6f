import * as assert from 'node:assert/strict';
import { PriceBook, priceFromSetting } from '../../../../../src/connection/account/core/priceBook';
import type { PromptreelClient } from '../../../../../src/api/client';
import { silentLogger } from '../../../../../src/api/apiLogger';
import type { PriceSetting } from '../../../../../src/config/schema';
import { clientFor, useLocalService } from '../../../support/localService';

describe('price book (against the local service)', () => {
  const ctx = useLocalService();

  function bookFor(client: PromptreelClient | undefined, overrides: Record<string, PriceSetting> = {}) {
    return new PriceBook({ reader: async () => client?.account, overrides: () => overrides, log: silentLogger });
  }
  const pricingReads = () => ctx.service.requests.filter((request) => request.path === '/api/pricing').length;

  it("reads the service's prices once, with the default group's ratio", async () => {
    ctx.service.setScenario({ account: { groupRatio: { default: 0.5, vip: 0.2 } } });
    const book = bookFor(clientFor(ctx.service));
    assert.deepEqual(book.known(), new Map(), 'nothing is asked before a price is wanted');
    assert.equal(pricingReads(), 0);
    assert.deepEqual(await book.priceOf('promptreel-video'), { kind: 'per-call', usd: 0.2, source: 'service' });
    assert.deepEqual(await book.priceOf('promptreel-chat'), { kind: 'per-token', promptUsdPerMillion: 1.5, completionUsdPerMillion: 6, source: 'service' });
    assert.equal(await book.priceOf('unpriced-model'), undefined);
    assert.equal(pricingReads(), 1);
    assert.equal(book.known().size, 3, 'known without asking again once read');
  });

  it('lets promptreel.models.prices override and add to the service prices', async () => {
    const book = bookFor(clientFor(ctx.service), { 'promptreel-video': { perRequest: 1.25 }, 'my-model': { input: 2, output: 8 } });
    const prices = await book.prices();
    assert.deepEqual(prices.get('promptreel-video'), { kind: 'per-call', usd: 1.25, source: 'settings' });
    assert.deepEqual(prices.get('my-model'), { kind: 'per-token', promptUsdPerMillion: 2, completionUsdPerMillion: 8, source: 'settings' });
    assert.equal(prices.get('promptreel-chat')?.source, 'service');
  });

  for (const pricing of ['absent', 'unsuccessful'] as const) {
    it(`leaves only the settings when /api/pricing is ${pricing}`, async () => {
      ctx.service.setScenario({ account: { pricing } });
      const book = bookFor(clientFor(ctx.service), { 'promptreel-chat': { input: 1 } });
      const prices = await book.prices();
      assert.deepEqual([...prices.keys()], ['promptreel-chat']);
      assert.equal(prices.get('promptreel-chat')?.source, 'settings');
    });
  }

  it('asks nothing without a service and key, and again after forget() or a failed read', async () => {
    assert.deepEqual(await bookFor(undefined).prices(), new Map());
    assert.equal(pricingReads(), 0);
    // Nothing listens on port 1: the read fails on the network.
    let client = clientFor(ctx.service, { baseUrl: 'http://127.0.0.1:1', retry: { retries: 0 } });
    const book = new PriceBook({ reader: async () => client.account, overrides: () => ({}), log: silentLogger });
    assert.equal(await book.priceOf('promptreel-video'), undefined, 'a failed read gives no price, never an error');
    client = clientFor(ctx.service);
    assert.equal((await book.priceOf('promptreel-video'))?.source, 'service', 'read again after a failure');
    let changes = 0;
    book.onDidChange(() => changes++);
    book.forget();
    assert.equal(book.known().size, 0);
    await book.prices();
    assert.equal(changes, 2, 'forgotten, then read');
  });
});

describe('price settings', () => {
  it('turns perRequest into a per-call price and input/output into per-token prices', () => {
    assert.deepEqual(priceFromSetting({ perRequest: 0.4 }), { kind: 'per-call', usd: 0.4 });
    assert.deepEqual(priceFromSetting({ input: 3 }), { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 3 });
    assert.deepEqual(priceFromSetting({ input: 3, output: 12 }), { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 });
    assert.equal(priceFromSetting({ output: 12 }), undefined, 'an output price alone says nothing about the prompt');
    assert.equal(priceFromSetting({}), undefined);
  });

  it('issue 27: turns perSecond into a price per second of video (perRequest, when also set, wins)', () => {
    assert.deepEqual(priceFromSetting({ perSecond: 0.1 }), { kind: 'per-second', usd: 0.1 });
    assert.deepEqual(priceFromSetting({ perRequest: 0.4, perSecond: 0.1 }), { kind: 'per-call', usd: 0.4 });
  });
});
