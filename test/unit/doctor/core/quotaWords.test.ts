import * as assert from 'node:assert/strict';
import type { QuotaDisplay } from '../../../../src/api/account/keyHealth';
import { describeQuota } from '../../../../src/doctor/core/quotaWords';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const DAY = 86_400_000;
const USD: QuotaDisplay = { unit: 'USD', quotaPerUnit: 500_000 };

describe('Test Connection: the key quota in words', () => {
  it('words a key as the billing pair describes it (no quota units)', () => {
    const health = { source: 'billing' as const, unlimited: false, grantedUsd: 10, usedUsd: 6.8, leftUsd: 3.2, expiresAt: NOW + 12 * DAY };
    assert.equal(describeQuota(health, USD, NOW), '$3.20 left of $10.00 (used $6.80), expires 2026-12-06 (12 days)');
    assert.equal(
      describeQuota(health, { unit: 'TOKENS', quotaPerUnit: 500_000 }, NOW),
      '1.6M tokens left of 5M tokens (used 3.4M tokens), expires 2026-12-06 (12 days)',
    );
    assert.equal(describeQuota({ ...health, expiresAt: NOW + DAY + 1 }, USD, NOW), '$3.20 left of $10.00 (used $6.80), expires 2026-11-25 (1 day)');
  });

  it('says what it does not know', () => {
    assert.equal(describeQuota({ source: 'billing', unlimited: false, grantedUsd: 10 }, USD, NOW), 'left unknown, never expires');
    assert.equal(describeQuota({ source: 'billing', unlimited: false, usedUsd: 1 }, USD, NOW), 'used $1.00, left unknown, never expires');
    assert.equal(describeQuota({ source: 'billing', unlimited: true }, USD, NOW), 'unlimited, never expires');
    assert.equal(describeQuota({ source: 'billing', unlimited: false, leftUsd: 0 }, USD, NOW), 'used up, never expires');
  });
});
