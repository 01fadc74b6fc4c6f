import * as assert from 'node:assert/strict';
import { chargeQuote, describeChargeQuote } from '../../../../../src/connection/account/core/chargeQuote';
import type { KeyHealthState } from '../../../../../src/connection/account/core/keyHealthMonitor';
import { keyProblem, keyWarnings } from '../../../../../src/connection/account/core/keyWarnings';
import { modelDescription } from '../../../../../src/connection/account/core/modelDescription';
import type { KeyHealth } from '../../../../../src/api/account/keyHealth';

const NOW = Date.UTC(2026, 10, 24, 12);
const DAY = 86_400_000;
const SERVICE = 'http://127.0.0.1:9/v1';

function known(health: Partial<KeyHealth>): KeyHealthState {
  return {
    kind: 'known',
    health: { source: 'token-usage', unlimited: false, grantedUsd: 10, usedUsd: 6.8, leftUsd: 3.2, expiresAt: NOW + 12 * DAY, ...health },
    display: { unit: 'USD', quotaPerUnit: 500_000 },
    readAt: NOW,
  };
}

describe('key warnings', () => {
  it('warns about nothing for a healthy key, or one not known', () => {
    assert.deepEqual(keyWarnings(known({}), SERVICE, NOW, 0.1), []);
    assert.deepEqual(keyWarnings({ kind: 'unknown' }, SERVICE, NOW, 0.1), []);
    assert.deepEqual(keyWarnings({ kind: 'not-offered' }, SERVICE, NOW, 0.1), []);
  });

  it('warns when the key expires within 7 days (not at 7), with the date', () => {
    assert.deepEqual(keyWarnings(known({ expiresAt: NOW + 7 * DAY }), SERVICE, NOW, 0.1), []);
    const [warning] = keyWarnings(known({ expiresAt: NOW + 3 * DAY + 1000 }), SERVICE, NOW, 0.1);
    assert.equal(warning.kind, 'expiring');
    assert.equal(warning.message, 'Your Promptreel API key expires in 3 days (2026-11-27).');
    assert.equal(keyWarnings(known({ expiresAt: NOW + 1000 }), SERVICE, NOW, 0.1)[0].message, 'Your Promptreel API key expires today (2026-11-24).');
  });

  it('warns when less than the configured share is left; 0 turns it off', () => {
    const low = known({ leftUsd: 0.8, usedUsd: 9.2 });
    const [warning] = keyWarnings(low, SERVICE, NOW, 0.1);
    assert.equal(warning.kind, 'low');
    assert.equal(warning.message, "Less than 10% of your Promptreel API key's quota is left: $0.80 of $10.00.");
    assert.deepEqual(keyWarnings(low, SERVICE, NOW, 0), []);
    assert.deepEqual(keyWarnings(low, SERVICE, NOW, 0.05), [], '8% left is above 5%');
    assert.deepEqual(keyWarnings(known({ unlimited: true, grantedUsd: undefined, leftUsd: undefined }), SERVICE, NOW, 0.5), []);
  });

  it('names an expired or used-up key alone, and gives each key its own ids', () => {
    const expired = keyWarnings(known({ expiresAt: NOW - DAY }), SERVICE, NOW, 0.1);
    assert.deepEqual(
      expired.map((warning) => [warning.kind, warning.message]),
      [['expired', 'Your Promptreel API key expired on 2026-11-23.']],
    );
    const usedUp = keyWarnings(known({ leftUsd: 0, usedUsd: 10, expiresAt: NOW + 2 * DAY }), SERVICE, NOW, 0.1);
    assert.deepEqual(
      usedUp.map((warning) => warning.kind),
      ['used-up'],
    );
    const expiring = (expiresAt: number) => keyWarnings(known({ expiresAt }), SERVICE, NOW, 0.1)[0].id;
    assert.equal(expiring(NOW + 2 * DAY), expiring(NOW + 2 * DAY + 1_000), 'the same key read a second later: the same id (shown once)');
    assert.notEqual(expiring(NOW + 2 * DAY), expiring(NOW + 3 * DAY), 'another key: warned about again');
    assert.notEqual(keyWarnings(known({ expiresAt: NOW + DAY }), 'http://other/v1', NOW, 0.1)[0].id, expiring(NOW + DAY));
  });

  it('describes a key that cannot pay, including one the service refused', () => {
    assert.equal(keyProblem(known({}), NOW), undefined);
    assert.equal(
      keyProblem({ kind: 'refused', message: 'token expired' }, NOW),
      'The service refused your Promptreel API key when asked about its quota (token expired).',
    );
    assert.equal(keyProblem(known({ leftUsd: 0 }), NOW), "Your Promptreel API key's quota is used up.");
  });
});

describe('charge quotes', () => {
  const video = { kind: 'per-call', usd: 0.4, source: 'service' } as const;

  it('shows the price and what is left after it', () => {
    const quote = chargeQuote(video, known({}), NOW);
    assert.equal(quote.priceUsd, 0.4);
    assert.ok(Math.abs((quote.leftAfterUsd ?? 0) - 2.8) < 1e-9);
    assert.equal(quote.warning, undefined);
    assert.equal(describeChargeQuote(quote), '$0.40 · $2.80 left after');
  });

  it('warns when the key cannot cover it, and still quotes the price', () => {
    const quote = chargeQuote(video, known({ leftUsd: 0.2 }), NOW);
    assert.equal(quote.warning, 'Your key has $0.20 left, less than the $0.40 this costs: the service may refuse it.');
    assert.equal(describeChargeQuote(quote), '$0.40');
    assert.match(chargeQuote(video, known({ expiresAt: NOW - DAY }), NOW).warning ?? '', /expired on 2026-11-23\. The service will likely refuse it\./);
  });

  it('says unlimited, or only the price when the quota is not known; nothing without a per-call price', () => {
    assert.equal(describeChargeQuote(chargeQuote(video, known({ unlimited: true, leftUsd: undefined }), NOW)), '$0.40 · unlimited key');
    assert.equal(describeChargeQuote(chargeQuote(video, { kind: 'not-offered' }, NOW)), '$0.40');
    const perToken = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12, source: 'settings' } as const;
    assert.equal(describeChargeQuote(chargeQuote(perToken, known({}), NOW)), undefined);
    assert.equal(describeChargeQuote(chargeQuote(undefined, known({}), NOW)), undefined);
  });
});

describe('model descriptions in pickers', () => {
  it('joins current, the price and the owner', () => {
    assert.equal(modelDescription('a', 'a', 'openai', { kind: 'per-call', usd: 0.4 }), 'current · $0.40 per request · openai');
    assert.equal(
      modelDescription('a', 'b', undefined, { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 }),
      '$3.00 in / $12.00 out per 1M tokens',
    );
    assert.equal(modelDescription('a', 'b'), undefined);
  });
});
