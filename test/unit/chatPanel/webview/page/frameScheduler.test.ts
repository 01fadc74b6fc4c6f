import * as assert from 'node:assert/strict';
import { FrameScheduler, type FrameHost } from '../../../../../src/chatPanel/webview/page/frameScheduler';

/** Frames that come only when the test says so, and a clock that the jobs move. */
class FakeFrames implements FrameHost {
  time = 0;
  requested = 0;
  readonly errors: unknown[] = [];
  private callback: (() => void) | undefined;

  requestFrame(callback: () => void): unknown {
    assert.equal(this.callback, undefined, 'one frame requested at a time');
    this.requested++;
    this.callback = callback;
    return this.requested;
  }

  now(): number {
    return this.time;
  }

  reportError(error: unknown): void {
    this.errors.push(error);
  }

  get waiting(): boolean {
    return this.callback !== undefined;
  }

  /** Runs the frame requested, if any. */
  frame(): void {
    const callback = this.callback;
    this.callback = undefined;
    callback?.();
  }
}

describe('FrameScheduler (the chat webview’s rendering work per frame)', () => {
  it('runs an owner’s job once in the next frame, however often it was scheduled, and the latest version of it', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: string[] = [];
    const owner = {};
    scheduler.schedule(owner, () => runs.push('first'));
    scheduler.schedule(owner, () => runs.push('second'));
    assert.deepEqual(runs, [], 'nothing before the frame');
    assert.equal(frames.requested, 1);
    frames.frame();
    assert.deepEqual(runs, ['second']);
    assert.equal(frames.waiting, false, 'no frame requested with nothing to do');
  });

  it('spreads background jobs over frames within the budget, at least one per frame, in the order queued', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: number[] = [];
    for (let i = 0; i < 7; i++) {
      scheduler.schedule(
        {},
        () => {
          runs.push(i);
          frames.time += i === 3 ? 20 : 3;
        },
        'later',
      );
    }
    frames.frame();
    assert.deepEqual(runs, [0, 1, 2], '3 + 3 + 3 ms: the third job ends past the 8 ms budget');
    frames.frame();
    assert.deepEqual(runs, [0, 1, 2, 3], 'a job longer than the budget still runs, alone');
    frames.frame();
    assert.deepEqual(runs, [0, 1, 2, 3, 4, 5, 6]);
    assert.equal(frames.waiting, false);
  });

  it('runs urgent jobs every frame before background work, and those they queue in the same frame', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: string[] = [];
    const scroll = {};
    const queueScroll = () => scheduler.schedule(scroll, () => runs.push('scroll'));
    for (let i = 0; i < 3; i++) {
      scheduler.schedule(
        {},
        () => {
          runs.push(`old ${i}`);
          frames.time += 10;
          queueScroll();
        },
        'later',
      );
    }
    scheduler.schedule({}, () => {
      runs.push('streaming');
      queueScroll();
    });
    frames.frame();
    assert.deepEqual(runs, ['streaming', 'scroll', 'old 0', 'scroll']);
  });

  it('a job scheduled now replaces the same owner’s background job; a background one never delays an urgent one', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: string[] = [];
    const filler = {};
    scheduler.schedule(
      filler,
      () => {
        runs.push('filler');
        frames.time += 20;
      },
      'later',
    );
    const message = {};
    scheduler.schedule(message, () => runs.push('later'), 'later');
    scheduler.schedule(message, () => runs.push('now'));
    scheduler.schedule(message, () => runs.push('later again'), 'later');
    frames.frame();
    assert.deepEqual(runs, ['later again', 'filler'], 'it ran first, as an urgent job, with the latest version');
    assert.equal(scheduler.pending, 0);
  });

  it('cancel drops the owner’s job', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: string[] = [];
    const owner = {};
    scheduler.schedule(owner, () => runs.push('dropped'));
    scheduler.schedule({}, () => runs.push('kept'), 'later');
    scheduler.cancel(owner);
    frames.frame();
    assert.deepEqual(runs, ['kept']);
  });

  it('a job that throws is reported, and the other jobs of the frame still run', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    const runs: string[] = [];
    scheduler.schedule({}, () => {
      throw new Error('render failed');
    });
    scheduler.schedule({}, () => runs.push('after'));
    scheduler.schedule(
      {},
      () => {
        throw new Error('background failed');
      },
      'later',
    );
    scheduler.schedule({}, () => runs.push('background after'), 'later');
    frames.frame();
    assert.deepEqual(runs, ['after', 'background after']);
    assert.deepEqual(
      frames.errors.map((error) => (error as Error).message),
      ['render failed', 'background failed'],
    );
  });

  it('a job that keeps queueing itself does not hold the frame: it runs again in the next one', () => {
    const frames = new FakeFrames();
    const scheduler = new FrameScheduler(frames, 8);
    let runs = 0;
    const owner = {};
    const job = () => {
      runs++;
      scheduler.schedule(owner, job);
    };
    scheduler.schedule(owner, job);
    frames.frame();
    assert.ok(runs >= 1 && runs <= 3, `${runs} runs in one frame`);
    assert.equal(frames.waiting, true);
  });
});
