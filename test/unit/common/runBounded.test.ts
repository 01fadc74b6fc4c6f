import * as assert from 'node:assert/strict';
import { runBounded } from '../../../src/common/runBounded';

describe('runBounded', () => {
  it('runs every item, never more than the limit at once', async () => {
    let running = 0;
    let most = 0;
    const done: number[] = [];
    await runBounded(
      [1, 2, 3, 4, 5, 6, 7],
      3,
      () => true,
      async (item) => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 5 * (item % 3)));
        done.push(item);
        running--;
      },
    );
    assert.deepEqual([...done].sort(), [1, 2, 3, 4, 5, 6, 7]);
    assert.equal(most, 3);
  });

  it('starts no further item once told to stop; those running finish', async () => {
    const started: number[] = [];
    let stop = false;
    await runBounded(
      [1, 2, 3, 4, 5],
      2,
      () => !stop,
      async (item) => {
        started.push(item);
        if (item === 2) stop = true;
        await Promise.resolve();
      },
    );
    assert.deepEqual(started, [1, 2]);
  });

  it('does nothing for no items', async () => {
    let calls = 0;
    await runBounded(
      [],
      4,
      () => true,
      async () => {
        calls++;
      },
    );
    assert.equal(calls, 0);
  });
});
