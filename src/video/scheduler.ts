import { toDisposable, type IDisposable } from '../common/lifecycle';

/** Time for the poller: the real clock in the extension, a fake one in unit tests. */
export interface Scheduler {
  now(): number;
  /** Runs `callback` once after `delayMs`; disposing the result cancels it. */
  setTimeout(callback: () => void, delayMs: number): IDisposable;
}

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    return toDisposable(() => clearTimeout(handle));
  },
};
