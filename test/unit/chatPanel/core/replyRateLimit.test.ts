import * as assert from 'node:assert/strict';
import { ApiError, type RateLimitWait } from '../../../../src/api';
import type { RateLimitView } from '../../../../src/chatPanel/webview/protocol';
import { ReplyRateLimit } from '../../../../src/chatPanel/core/replyRateLimit';

function waitOf(delayMs: number, retried: string[]): RateLimitWait {
  const error = new ApiError({ kind: 'http', status: 429, message: 'rate limited', hint: '', retryable: true });
  return { attempt: 1, retries: 3, delayMs, fromService: true, error, retryNow: () => retried.push('now') };
}

describe("a reply's wait after HTTP 429", () => {
  it('tells the views the countdown, the time left to a view that opens later, and its end once', () => {
    let now = 1_000;
    const told: (RateLimitView | undefined)[] = [];
    const retried: string[] = [];
    const rateLimit = new ReplyRateLimit(
      (wait) => told.push(wait),
      () => now,
    );
    rateLimit.end();
    assert.deepEqual(told, [], 'no wait, nothing to end');
    rateLimit.start(waitOf(30_000, retried));
    now += 12_000;
    assert.deepEqual(rateLimit.view(), { attempt: 1, retries: 3, delayMs: 18_000, fromService: true });
    assert.equal(rateLimit.waitedOut?.status, 429);
    assert.equal(rateLimit.retryNow()?.attempt, 1);
    assert.deepEqual(retried, ['now']);
    rateLimit.end();
    rateLimit.end();
    assert.deepEqual(told, [{ attempt: 1, retries: 3, delayMs: 30_000, fromService: true }, undefined]);
    assert.equal(rateLimit.view(), undefined);
    assert.equal(rateLimit.waitedOut, undefined);
    assert.equal(rateLimit.retryNow(), undefined);
  });
});
