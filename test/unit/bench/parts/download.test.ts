import * as assert from 'node:assert/strict';
import { rotated, timesSeconds } from '../../../../bench/parts/download';

describe('bench: the download part (bench/parts/download.ts)', () => {
  it('lets each tool go first, second and last in turn', () => {
    const tools = ['curl', 'ours', 'plain'];
    assert.deepEqual(
      [0, 1, 2, 3].map((rep) => rotated(tools, rep)),
      [
        ['curl', 'ours', 'plain'],
        ['ours', 'plain', 'curl'],
        ['plain', 'curl', 'ours'],
        ['curl', 'ours', 'plain'],
      ],
    );
  });

  it("reads curl's CPU time from bash's times (user plus system of the children)", () => {
    assert.equal(timesSeconds('0m0.052s 0m0.371s'), 0.423);
    assert.equal(timesSeconds('1m2.500s 0m0.250s'), 62.75);
    assert.throws(() => timesSeconds(''), /unexpected output of times/);
  });
});
