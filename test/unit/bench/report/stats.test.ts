import * as assert from 'node:assert/strict';
import { median, pairedRatio } from '../../../../bench/report/stats';

describe('bench: ratios of runs made side by side (bench/report/stats.ts)', () => {
  it('takes the median of the per-repetition ratios, not the ratio of the medians', () => {
    // The second repetition ran under twice the load (both slowed down, their ratio did not); in the third, the peer
    // had the machine to itself.
    const ours = [90, 45, 80];
    const peer = [100, 50, 200];
    assert.equal(pairedRatio(ours, peer), 0.9);
    assert.equal(median(ours) / median(peer), 0.8);
  });

  it('refuses runs that do not pair up', () => {
    assert.throws(() => pairedRatio([1, 2], [1]), /2 runs of ours, 1 of the peer/);
  });
});
