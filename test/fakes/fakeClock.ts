import type { Clock } from '../../src/common/clock';
import { toDisposable, type IDisposable } from '../../src/common/lifecycle';

interface Timer {
  at: number;
  seq: number;
  callback: () => void;
}

/** A clock that only moves when told to; timers fire in order, with the promises they start settled in between. */
export class FakeClock implements Clock {
  private time: number;
  private timers: Timer[] = [];
  private seq = 0;
  /** How many timers were set in all. */
  timersSet = 0;

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): IDisposable {
    const timer: Timer = { at: this.time + Math.max(0, delayMs), seq: this.seq++, callback };
    this.timers.push(timer);
    this.timersSet++;
    return toDisposable(() => {
      this.timers = this.timers.filter((candidate) => candidate !== timer);
    });
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** When the next timer fires, if any. */
  get nextTimerAt(): number | undefined {
    return this.timers.length ? Math.min(...this.timers.map((timer) => timer.at)) : undefined;
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = target;
  }
}

/** Lets every promise chain started so far run to its end (fakes answer without real I/O). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
