import * as assert from 'node:assert/strict';
import { costFooter } from '../../../../src/participant/core/costFooter';

describe('participant: the cost line under an answer (issue 26.2)', () => {
  it('says nothing when neither the price nor the charge is known', () => {
    assert.equal(costFooter({}), undefined);
  });

  it('shows the estimate alone, marked as such', () => {
    assert.equal(costFooter({ estimateUsd: 0.0044 }), 'Cost: ≈ $0.0044 (estimated).');
  });

  it('shows the charge alone when it is the estimate, or when there is no estimate', () => {
    assert.equal(costFooter({ estimateUsd: 0.0044, charged: { usd: 0.0044, differs: false } }), 'Cost: charged $0.0044.');
    assert.equal(costFooter({ charged: { usd: 0.0035, differs: false } }), 'Cost: charged $0.0035.');
  });

  it('shows both, and why they differ, when they do', () => {
    assert.equal(
      costFooter({ estimateUsd: 0.0044, charged: { usd: 0.0035, differs: true, reason: 'The key is charged at the group "vip" (ratio 0.8).' } }),
      'Cost: ≈ $0.0044 estimated, charged $0.0035. The key is charged at the group "vip" (ratio 0.8).',
    );
  });
});
