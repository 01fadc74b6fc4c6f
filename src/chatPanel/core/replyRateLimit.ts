import type { ApiError } from '../../api/errors';
import type { RateLimitWait } from '../../api/chat/rateLimitRetry';
import type { RateLimitView } from '../webview/protocol';

/**
 * The wait after HTTP 429 of one reply: what the views are told (a countdown, then its end), Retry now, and the 429
 * a stop during the wait leaves behind (to retry later).
 */
export class ReplyRateLimit {
  private wait: RateLimitWait | undefined;
  private began = 0;

  constructor(
    private readonly notify: (wait: RateLimitView | undefined) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** The 429 being waited out now, if any. */
  get waitedOut(): ApiError | undefined {
    return this.wait?.error;
  }

  start(wait: RateLimitWait): void {
    this.wait = wait;
    this.began = this.now();
    this.notify(this.view());
  }

  /** The request went again, or the reply ended: the views drop the countdown (told only when there was one). */
  end(): void {
    if (!this.wait) return;
    this.wait = undefined;
    this.notify(undefined);
  }

  /** The wait with the time left now, for a view that opens during it. */
  view(): RateLimitView | undefined {
    const wait = this.wait;
    if (!wait) return undefined;
    const delayMs = Math.max(0, wait.delayMs - (this.now() - this.began));
    return { attempt: wait.attempt, retries: wait.retries, delayMs, fromService: wait.fromService };
  }

  /** Ends the wait at once; the wait that ended, or undefined when there was none. */
  retryNow(): RateLimitWait | undefined {
    const wait = this.wait;
    wait?.retryNow();
    return wait;
  }
}
