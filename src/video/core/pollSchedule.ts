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
