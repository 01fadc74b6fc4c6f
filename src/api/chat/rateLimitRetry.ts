import { abortedError, isApiError, type ApiError } from '../errors';

export interface RateLimitPolicy {
  /** Retries after a 429 that happen by themselves (0: none, the error goes straight to the user). */
  retries: number;
  /** The longest wait taken by itself: a `Retry-After` beyond it ends the request with the error. */
  maxWaitMs: number;
  /** Without `Retry-After`: `baseDelayMs * 2^attempt`, at most `maxWaitMs`. */
  baseDelayMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitPolicy = { retries: 3, maxWaitMs: 60_000, baseDelayMs: 5_000 };

/** A wait before the next attempt, as the user sees it (a countdown with "Retry now" and "Cancel"). */
export interface RateLimitWait {
  /** The attempt that comes after the wait, 1 for the first retry. */
  attempt: number;
  /** How many retries the policy allows. */
  retries: number;
  delayMs: number;
  /** Whether the service said how long to wait (`Retry-After`), else the delay is Promptreel's back-off. */
  fromService: boolean;
  error: ApiError;
  /** Ends the wait at once: the request is sent again now. */
  retryNow(): void;
}

export interface RateLimitRetryOptions {
  policy: RateLimitPolicy;
  /** The user's cancellation: ends a wait at once (with an `aborted` error). */
  signal: AbortSignal;
  /** A wait began. */
  onWait?: (wait: RateLimitWait) => void;
  /** A wait ended (timed out, or Retry now): the request is sent again. */
  onRetry?: (attempt: number) => void;
}

export function isRateLimited(error: unknown): error is ApiError {
  return isApiError(error) && error.kind === 'http' && error.status === 429;
}

/** How long to wait before retry `attempt` (0-based) after a 429, or undefined when no retry is made by itself. */
export function rateLimitDelay(error: ApiError, attempt: number, policy: RateLimitPolicy): number | undefined {
  if (attempt >= policy.retries) return undefined;
  if (error.retryAfterMs !== undefined) return error.retryAfterMs <= policy.maxWaitMs ? error.retryAfterMs : undefined;
  return Math.min(policy.maxWaitMs, policy.baseDelayMs * 2 ** attempt);
}

/**
 * Streams `start()`, and when the service answers 429 before anything arrived, waits (`Retry-After`, or a capped
 * back-off) and sends the request again, up to `policy.retries` times. A 429 means the request was not served, so a
 * retry cannot charge twice. Anything else, a 429 after text arrived, or the last 429 goes to the caller unchanged.
 */
export async function* withRateLimitRetry<T>(start: () => AsyncIterable<T>, options: RateLimitRetryOptions): AsyncGenerator<T> {
  for (let attempt = 0; ; attempt++) {
    let received = false;
    try {
      for await (const item of start()) {
        received = true;
        yield item;
      }
      return;
    } catch (error) {
      if (received || options.signal.aborted || !isRateLimited(error)) throw error;
      const delayMs = rateLimitDelay(error, attempt, options.policy);
      if (delayMs === undefined) throw error;
      await waitOrRetryNow(delayMs, options.signal, (retryNow) =>
        options.onWait?.({ attempt: attempt + 1, retries: options.policy.retries, delayMs, fromService: error.retryAfterMs !== undefined, error, retryNow }),
      );
      options.onRetry?.(attempt + 1);
    }
  }
}

function waitOrRetryNow(delayMs: number, signal: AbortSignal, began: (retryNow: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortedError(signal.reason));
    const end = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      end();
      reject(abortedError(signal.reason));
    };
    const timer = setTimeout(() => {
      end();
      resolve();
    }, delayMs);
    signal.addEventListener('abort', onAbort, { once: true });
    began(() => {
      end();
      resolve();
    });
  });
}
