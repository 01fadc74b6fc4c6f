import * as assert from 'node:assert/strict';
import { FrameBatcher } from '../../../../src/editorStream/core/frameBatcher';
import { FakeClock, settle } from '../../../fakes/fakeClock';

function recorder(clock: FakeClock, applyMs = 0) {
  const applied: { text: string; at: number }[] = [];
  const apply = async (text: string) => {
    applied.push({ text, at: clock.now() });
    if (applyMs > 0) await new Promise<void>((resolve) => clock.setTimeout(resolve, applyMs));
  };
  return { applied, apply };
}

describe('FrameBatcher', () => {
  it('applies the first text on the next tick, then at most once per frame however many chunks arrive', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock);
    const batcher = new FrameBatcher(apply, clock, 16);

    batcher.push('a');
    await clock.advance(0);
    assert.deepEqual(applied, [{ text: 'a', at: 0 }]);

    for (let i = 0; i < 1000; i++) {
      batcher.push('b');
      if (i % 100 === 99) await clock.advance(1);
    }
    await clock.advance(5);
    assert.equal(applied.length, 1, 'nothing before the frame has passed');
    await clock.advance(1);
    assert.equal(applied.length, 2);
    assert.deepEqual(applied[1], { text: 'b'.repeat(1000), at: 16 });
    assert.equal(batcher.applyCount, 2);
  });

  it('spaces applies by a frame during a steady stream', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock);
    const batcher = new FrameBatcher(apply, clock, 16);
    for (let t = 0; t < 200; t++) {
      batcher.push('x');
      await clock.advance(1);
    }
    const rest = await batcher.close();
    assert.equal(applied.map((entry) => entry.text).join('') + rest, 'x'.repeat(200));
    for (let i = 1; i < applied.length - 1; i++)
      assert.ok(applied[i].at - applied[i - 1].at >= 16, `apply ${i} came ${applied[i].at - applied[i - 1].at} ms after the previous one`);
    assert.ok(applied.length <= 200 / 16 + 2, `${applied.length} applies for 200 chunks over 200 ms`);
  });

  it('never runs two applies at once: a slow apply makes the next batch bigger, not earlier', async () => {
    const clock = new FakeClock(0);
    let running = 0;
    let maxRunning = 0;
    const texts: string[] = [];
    const batcher = new FrameBatcher(
      async (text) => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        texts.push(text);
        await new Promise<void>((resolve) => clock.setTimeout(resolve, 50));
        running--;
      },
      clock,
      16,
    );
    batcher.push('1');
    await clock.advance(0);
    for (let i = 0; i < 40; i++) {
      batcher.push('2');
      await clock.advance(1);
    }
    await clock.advance(100);
    assert.equal(maxRunning, 1);
    assert.deepEqual(texts, ['1', '2'.repeat(40)]);
  });

  it('after an apply came back, sends what arrived meanwhile at once, without waiting for a timer', async () => {
    const clock = new FakeClock(0);
    const texts: { text: string; at: number }[] = [];
    const releases: (() => void)[] = [];
    const batcher = new FrameBatcher(
      (text) => {
        texts.push({ text, at: clock.now() });
        return new Promise<void>((resolve) => releases.push(resolve));
      },
      clock,
      16,
    );
    batcher.push('1');
    await clock.advance(0);
    assert.equal(clock.timersSet, 1, 'the first text waits one timer tick');
    batcher.push('2');
    batcher.push('3');
    await clock.advance(30);
    assert.equal(texts.length, 1, 'nothing while the apply runs');
    releases[0]();
    await settle();
    assert.deepEqual(texts[1], { text: '23', at: 30 });
    assert.equal(clock.timersSet, 1, 'no timer between the apply coming back and the next one');
  });

  it('an apply that came back within the frame: the next one still waits for the frame to pass', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock, 5);
    const batcher = new FrameBatcher(apply, clock, 16);
    batcher.push('a');
    await clock.advance(0);
    batcher.push('b');
    await clock.advance(10);
    assert.equal(applied.length, 1);
    await clock.advance(6);
    assert.deepEqual(applied[1], { text: 'b', at: 16 });
  });

  it('close waits for the apply in flight, then hands back what is pending without applying it', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock, 5);
    const batcher = new FrameBatcher(apply, clock, 16);
    batcher.push('a');
    await clock.advance(0);
    batcher.push('b');
    batcher.push('c');
    let rest: string | undefined;
    const closing = batcher.close().then((text) => (rest = text));
    await clock.advance(4);
    assert.equal(rest, undefined, 'the apply in flight is waited for');
    await clock.advance(1);
    await closing;
    assert.equal(rest, 'bc');
    assert.deepEqual(
      applied.map((entry) => entry.text),
      ['a'],
    );
    assert.equal(batcher.pendingText, '');
    assert.equal(clock.pendingTimers, 0);
    batcher.push('d');
    await clock.advance(100);
    assert.equal(applied.length, 1, 'nothing is applied after close');
  });

  it('close with nothing in flight resolves at once, not held for the rest of the frame', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock);
    const batcher = new FrameBatcher(apply, clock, 16);
    batcher.push('a');
    await clock.advance(0);
    batcher.push('b');
    assert.equal(clock.pendingTimers, 1, 'b waits for the frame');
    assert.equal(await batcher.close(), 'b');
    assert.equal(clock.now(), 0);
    assert.equal(clock.pendingTimers, 0);
    assert.equal(applied.length, 1);
  });

  it('stop drops what is pending and applies nothing more', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock);
    const batcher = new FrameBatcher(apply, clock, 16);
    batcher.push('a');
    await clock.advance(0);
    batcher.push('b');
    batcher.stop();
    batcher.push('c');
    await clock.advance(100);
    assert.equal(await batcher.close(), '');
    assert.deepEqual(
      applied.map((entry) => entry.text),
      ['a'],
    );
  });

  it('reports a failed apply from close, and hands back nothing', async () => {
    const clock = new FakeClock(0);
    let calls = 0;
    const batcher = new FrameBatcher(
      async () => {
        calls++;
        throw new Error('the editor is gone');
      },
      clock,
      16,
    );
    batcher.push('a');
    await clock.advance(0);
    batcher.push('b');
    await assert.rejects(batcher.close(), /the editor is gone/);
    assert.equal(calls, 1);
  });

  it('ignores empty text', async () => {
    const clock = new FakeClock(0);
    const { applied, apply } = recorder(clock);
    const batcher = new FrameBatcher(apply, clock, 16);
    batcher.push('');
    await clock.advance(50);
    assert.equal(await batcher.close(), '');
    assert.equal(applied.length, 0);
    assert.equal(clock.pendingTimers, 0);
  });
});
