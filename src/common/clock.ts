import { toDisposable, type IDisposable } from './lifecycle';

/** Time for anything that waits: the system clock in the extension, a fake one in unit tests. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `callback` once after `delayMs`; disposing the result cancels it. */
  setTimeout(callback: () => void, delayMs: number): IDisposable;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, delayMs) => {
    const handle = setTimeout(callback, Math.max(0, delayMs));
    return toDisposable(() => clearTimeout(handle));
  },
};
