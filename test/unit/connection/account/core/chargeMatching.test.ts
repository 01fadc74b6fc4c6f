import * as assert from 'node:assert/strict';
import { describeChargeReasons, matchCharges, type OwnRequest } from '../../../../../src/connection/account/core/chargeMatching';
import type { KeyLogEntry } from '../../../../../src/api/account/keyLog';
import { quotaDisplay } from '../../../../../src/api/account/keyHealth';
import { costOf, modelPrices } from '../../../../../src/api/account/prices';
import type { Usage } from '../../../../../src/api/chat/events';
import { clientFor, collect, useLocalService } from '../../../support/localService';

const T0 = Date.UTC(2026, 9, 15, 12, 0, 0);
const UNIT = 500_000;

function entry(fields: Partial<KeyLogEntry> & { at: number; quota: number }): KeyLogEntry {
  const { at, ...rest } = fields;
  return { createdAt: Math.floor(at / 1000) * 1000, model: 'chat', usd: fields.quota / UNIT, promptTokens: 0, completionTokens: 0, ...rest };
}

function chat(fields: Partial<OwnRequest> & { at: number }): OwnRequest {
  const { at, ...rest } = fields;
  return { kind: 'chat', model: 'chat', startedAt: at - 2000, finishedAt: at, ...rest };
}

describe('matching requests to the key log (issue 26.2)', () => {
  it('issue 26.2: by request id first, whatever the times and tokens say', () => {
    const a = entry({ at: T0, quota: 100, requestId: 'rid-a', promptTokens: 10, completionTokens: 5 });
    const b = entry({ at: T0, quota: 200, requestId: 'rid-b', promptTokens: 10, completionTokens: 5 });
    const charges = matchCharges([chat({ at: T0, requestId: 'rid-b', promptTokens: 10, completionTokens: 5 }), chat({ at: T0, requestId: 'rid-a' })], [a, b]);
    assert.deepEqual(
      charges.map((charge) => charge?.entry),
      [b, a],
    );
  });

  it('issue 26.2: never gives a request an entry that carries another request id', () => {
    const other = entry({ at: T0, quota: 100, requestId: 'rid-other', promptTokens: 10, completionTokens: 5 });
    assert.deepEqual(matchCharges([chat({ at: T0, requestId: 'rid-mine', promptTokens: 10, completionTokens: 5 })], [other]), [undefined]);
    assert.equal(matchCharges([chat({ at: T0, promptTokens: 10, completionTokens: 5 })], [other])[0]?.entry, other, 'a request without an id: by the rest');
  });

  it('issue 26.2: without ids, by model, equal tokens and the nearest time, each entry once', () => {
    const first = entry({ at: T0, quota: 100, promptTokens: 10, completionTokens: 5 });
    const second = entry({ at: T0 + 1500, quota: 300, promptTokens: 30, completionTokens: 7 });
    const otherModel = entry({ at: T0, quota: 999, model: 'reasoner', promptTokens: 10, completionTokens: 5 });
    const charges = matchCharges(
      [
        chat({ at: T0 + 1600, promptTokens: 10, completionTokens: 5 }),
        chat({ at: T0, promptTokens: 30, completionTokens: 7 }),
        chat({ at: T0 + 200, promptTokens: 10, completionTokens: 5 }),
      ],
      [otherModel, second, first],
    );
    assert.equal(charges[1]?.entry, second, 'the tokens decide over the time');
    assert.equal(charges[2]?.entry, first, 'the nearer of the two identical replies');
    assert.equal(charges[0], undefined, 'the entry is taken; the other model is not its');
  });

  it('issue 26.2: two identical replies ended within one second (which the log cannot tell apart): the older takes the older entry', () => {
    const older = entry({ at: T0 + 100, quota: 100, promptTokens: 10, completionTokens: 5 });
    const newer = entry({ at: T0 + 700, quota: 80, promptTokens: 10, completionTokens: 5 });
    // The log lists the newest first.
    const charges = matchCharges(
      [chat({ at: T0 + 150, promptTokens: 10, completionTokens: 5 }), chat({ at: T0 + 750, promptTokens: 10, completionTokens: 5 })],
      [newer, older],
    );
    assert.deepEqual(
      charges.map((charge) => charge?.usd),
      [100 / UNIT, 80 / UNIT],
    );
  });

  it('issue 26.2: a reply without usage goes by model and time; an entry too far from the end is not its', () => {
    const near = entry({ at: T0 + 3000, quota: 100, promptTokens: 10, completionTokens: 5 });
    assert.equal(matchCharges([chat({ at: T0 })], [near])[0]?.entry, near);
    assert.equal(matchCharges([chat({ at: T0 })], [entry({ at: T0 + 6100, quota: 1 })])[0], undefined);
    assert.equal(matchCharges([chat({ at: T0 })], [entry({ at: T0 - 6100, quota: 1 })])[0], undefined);
    assert.ok(matchCharges([chat({ at: T0 })], [entry({ at: T0 + 20_000, quota: 1 })], { windowMs: 30_000 })[0], 'a wider window');
  });

  it('issue 26.2: a video task by model and the time of its creation (the log counts whole seconds)', () => {
    const task = entry({ at: T0 + 400, quota: 200_000, model: 'video', modelPrice: 0.4 });
    const charges = matchCharges([{ kind: 'video', model: 'video', startedAt: T0 - 300, finishedAt: T0 + 900, estimateUsd: 0.4 }], [task]);
    assert.equal(charges[0]?.usd, 0.4);
    assert.equal(charges[0]?.differs, false);
  });

  it('issue 26.2: tells a charge from its estimate only beyond the rounding, and why when it can', () => {
    const at = T0;
    const tokens = { promptTokens: 1000, completionTokens: 100 };
    const same = matchCharges([chat({ at, ...tokens, estimateUsd: 0.0042 })], [entry({ at, quota: 2101, ...tokens })])[0];
    assert.equal(same?.differs, false, 'one quota unit apart');
    assert.deepEqual(same?.reasons, []);

    const cached = matchCharges(
      [chat({ at, ...tokens, estimateUsd: 0.0042 })],
      [entry({ at, quota: 1200, ...tokens, cachedTokens: 800, cacheRatio: 0.1, groupRatio: 1, group: 'default' })],
    )[0];
    assert.equal(cached?.differs, true);
    assert.deepEqual(cached?.reasons, [{ kind: 'cached-tokens', cachedTokens: 800, cacheRatio: 0.1 }]);

    const vip = matchCharges([chat({ at, ...tokens, estimateUsd: 0.0042 })], [entry({ at, quota: 1680, ...tokens, group: 'vip', groupRatio: 0.8 })])[0];
    assert.deepEqual(vip?.reasons, [{ kind: 'group-ratio', group: 'vip', groupRatio: 0.8 }]);

    const unexplained = matchCharges([chat({ at, ...tokens, estimateUsd: 0.0042 })], [entry({ at, quota: 5000, ...tokens, group: 'default' })])[0];
    assert.equal(unexplained?.differs, true);
    assert.deepEqual(unexplained?.reasons, []);

    const noEstimate = matchCharges([chat({ at, ...tokens })], [entry({ at, quota: 5000, ...tokens, group: 'vip' })])[0];
    assert.equal(noEstimate?.differs, false);
    assert.equal(noEstimate?.estimateUsd, undefined);
  });

  it('issue 26.2: says why in a sentence per reason', () => {
    assert.equal(
      describeChargeReasons([
        { kind: 'cached-tokens', cachedTokens: 800, cacheRatio: 0.1 },
        { kind: 'group-ratio', group: 'vip', groupRatio: 0.8 },
      ]),
      '800 prompt tokens came from the cache, charged at 10% of the price. The key is charged at the group "vip" (ratio 0.8).',
    );
    assert.equal(describeChargeReasons([{ kind: 'cached-tokens', cachedTokens: 5 }]), '5 prompt tokens came from the cache, charged at another price.');
    assert.equal(describeChargeReasons([{ kind: 'group-ratio', group: 'vip' }]), 'The key is charged at the group "vip".');
    assert.equal(describeChargeReasons([]), undefined);
  });
});

describe('matching against the local service (issue 26.2)', () => {
  const ctx = useLocalService();

  it("issue 26.2: a reply's charge is its logged quota at the published unit, and the reason names the cache and the group", async () => {
    ctx.service.setScenario({ account: { keyGroup: 'vip', cacheRatio: 0.1 }, chat: { cachedTokens: 4 } });
    const client = clientFor(ctx.service);
    const status = await client.account.status();
    const display = quotaDisplay(status.offered ? status.value : undefined);
    const pricing = await client.account.pricing();
    assert.ok(pricing.offered);
    const price = modelPrices(pricing.value).get('promptreel-chat');
    assert.ok(price?.kind === 'per-token');
    const own: OwnRequest[] = [];
    for (const text of ['the first question, long enough', 'the second question, a little longer than the first']) {
      const startedAt = Date.now();
      const events = await collect(client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: text }] }));
      const usage = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []))[0] as Usage;
      own.push({
        kind: 'chat',
        model: 'promptreel-chat',
        startedAt,
        finishedAt: Date.now(),
        ...usage,
        estimateUsd: costOf(price, { promptTokens: usage.promptTokens, completionTokens: usage.completionTokens }),
      });
    }
    const log = await client.account.keyLog(display);
    assert.ok(log.offered);
    const charges = matchCharges(own, log.value);
    const served = ctx.service.keyLog();
    assert.deepEqual(
      charges.map((charge) => charge?.usd),
      [served[1].quota / 500_000, served[0].quota / 500_000],
    );
    for (const charge of charges) {
      assert.equal(charge?.differs, true);
      assert.deepEqual(charge?.reasons, [
        { kind: 'cached-tokens', cachedTokens: 4, cacheRatio: 0.1 },
        { kind: 'group-ratio', group: 'vip', groupRatio: 0.8 },
      ]);
    }
  });
});
