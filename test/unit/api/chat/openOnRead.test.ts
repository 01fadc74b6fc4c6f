import * as assert from 'node:assert/strict';
import { openOnRead } from '../../../../src/api/chat/openOnRead';

/** A source that records whether it was closed. */
function source(values: number[]) {
  const state = { closed: 0 };
  async function* generate(): AsyncGenerator<number, void> {
    try {
      yield* values;
    } finally {
      state.closed++;
    }
  }
  return { state, iterator: generate() };
}

describe('openOnRead (a stream that sends its request when read)', () => {
  it('opens nothing until the first read, then hands out the source in order', async () => {
    let opened = 0;
    const stream = openOnRead(async () => {
      opened++;
      return source([1, 2, 3]).iterator;
    });
    const iterator = stream[Symbol.asyncIterator]();
    assert.equal(opened, 0);
    const seen: number[] = [];
    for (let step = await iterator.next(); !step.done; step = await iterator.next()) seen.push(step.value);
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(opened, 1);
    assert.deepEqual(await iterator.next(), { value: undefined, done: true });
  });

  it('opens again for each iteration', async () => {
    let opened = 0;
    const stream = openOnRead(async () => source([++opened]).iterator);
    const first: number[] = [];
    for await (const value of stream) first.push(value);
    const second: number[] = [];
    for await (const value of stream) second.push(value);
    assert.deepEqual([first, second], [[1], [2]]);
  });

  it('closes the source on break', async () => {
    const { state, iterator } = source([1, 2, 3]);
    for await (const value of openOnRead(async () => iterator)) if (value === 1) break;
    assert.equal(state.closed, 1);
  });

  it('closes a source that opens after the reader already stopped', async () => {
    let closed = 0;
    let read = 0;
    const late: AsyncIterator<number, void> = {
      next: async () => ({ value: ++read, done: false }),
      return: async () => {
        closed++;
        return { value: undefined, done: true };
      },
    };
    let release!: () => void;
    const ready = new Promise<void>((resolve) => (release = resolve));
    const reader = openOnRead(async () => {
      await ready;
      return late;
    })[Symbol.asyncIterator]();
    const pending = reader.next();
    const returned = reader.return?.();
    release();
    assert.deepEqual(await pending, { value: undefined, done: true });
    await returned;
    assert.equal(closed, 1, 'the request that was on its way is released');
    assert.equal(read, 0, 'nothing is read from it');
  });

  it('passes the error of opening to the reader, then ends', async () => {
    const reader = openOnRead<number>(async () => {
      throw new Error('refused');
    })[Symbol.asyncIterator]();
    await assert.rejects(reader.next(), /refused/);
    assert.deepEqual(await reader.next(), { value: undefined, done: true });
  });
});
