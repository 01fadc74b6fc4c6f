// Pinned by `npm run bench -- --only poller`: requests per cycle, none while idle, a completion seen within one interval.
// When to ask about a task again. Pure, so the numbers are unit-tested without any timer.

/** No task waits longer than this between two polls (unless the configured interval itself is longer). */
export const MAX_POLL_DELAY_MS = 5 * 60_000;
/** Ages from which a task is polled half as often again: 1 min, 5 min, 20 min, 1 h. */
const AGE_STEPS_MS = [60_000, 5 * 60_000, 20 * 60_000, 60 * 60_000];
const MAX_ERROR_DOUBLINGS = 6;
/** While the view is hidden the user is not watching progress: poll half as often. */
const HIDDEN_FACTOR = 2;

export interface PollDelayInput {
  /** `promptreel.video.pollIntervalSeconds` in ms. */
  baseMs: number;
  viewVisible: boolean;
  /** How long the task has existed. */
  ageMs: number;
  /** Failed polls in a row for this task. */
  consecutiveErrors: number;
}

/** Exponential per task: doubles with each age step passed and with each failed poll in a row; capped. */
export function pollDelay(input: PollDelayInput): number {
  const ageDoublings = AGE_STEPS_MS.filter((step) => input.ageMs >= step).length;
  const errorDoublings = Math.min(input.consecutiveErrors, MAX_ERROR_DOUBLINGS);
  const factor = 2 ** (ageDoublings + errorDoublings) * (input.viewVisible ? 1 : HIDDEN_FACTOR);
  return Math.min(input.baseMs * factor, Math.max(input.baseMs, MAX_POLL_DELAY_MS));
}

/** While offline, one probe request after this delay (doubling per failed probe, at most a minute). */
export function offlineProbeDelay(baseMs: number, failedProbes: number): number {
  return Math.min(baseMs * 2 ** Math.min(failedProbes, 10), Math.max(baseMs, 60_000));
}

/** How often a window that does not hold the lease looks whether the holder is gone. */
export const FOLLOWER_DELAY_MS = 10_000;

export interface TimerInputs {
  now: number;
  baseMs: number;
  /** Another window holds the poll lease: this one only watches for the holder to go. */
  follower: boolean;
  /** Offline: the probes that failed so far (undefined while online). */
  offlineProbes: number | undefined;
  /** When the first pending task is due. */
  nextDue: number;
  /** No request before this time (a `Retry-After`). */
  notBefore: number;
  leaseTtlMs: number;
}

/** When the poller's one timer fires next. */
export function timerDelay(inputs: TimerInputs): number {
  const { now, baseMs } = inputs;
  if (inputs.follower) return Math.max(FOLLOWER_DELAY_MS, baseMs);
  if (inputs.offlineProbes !== undefined) return offlineProbeDelay(baseMs, inputs.offlineProbes);
  // The holder renews its lease well before it expires, even when no task is due for a while.
  return Math.min(Math.max(inputs.nextDue - now, inputs.notBefore - now, 0), inputs.leaseTtlMs / 3);
}
