import * as assert from 'node:assert/strict';
import { ApiError, type ChatStreamEvent } from '../../../../src/api';
import { rateLimitDelay, withRateLimitRetry, type RateLimitPolicy, type RateLimitWait } from '../../../../src/api/chat/rateLimitRetry';
import { clientFor, collect, useLocalService } from '../../support/localService';

const hello = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'hello' }] };
const textOf = (events: ChatStreamEvent[]) => events.map((event) => (event.type === 'text' ? event.text : '')).join('');
const CHAT = '^/v1/chat/completions$';

const http429 = (retryAfterMs?: number) =>
  new ApiError({ kind: 'http', status: 429, message: 'rate limited', hint: '', retryable: true, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

describe('waiting out HTTP 429 before a reply starts', () => {
  describe('rateLimitDelay', () => {
    const policy: RateLimitPolicy = { retries: 3, maxWaitMs: 60_000, baseDelayMs: 5_000 };

    it('follows Retry-After up to the longest wait, and never past the number of retries', () => {
      assert.equal(rateLimitDelay(http429(12_000), 0, policy), 12_000);
      assert.equal(rateLimitDelay(http429(60_000), 2, policy), 60_000);
      assert.equal(rateLimitDelay(http429(61_000), 0, policy), undefined, 'a longer Retry-After goes to the user');
      assert.equal(rateLimitDelay(http429(1_000), 3, policy), undefined);
      assert.equal(rateLimitDelay(http429(1_000), 0, { ...policy, retries: 0 }), undefined);
    });

    it('backs off 5 s, 10 s, 20 s without Retry-After, capped at the longest wait', () => {
      assert.deepEqual(
        [0, 1, 2].map((attempt) => rateLimitDelay(http429(), attempt, policy)),
        [5_000, 10_000, 20_000],
      );
      assert.equal(rateLimitDelay(http429(), 2, { ...policy, maxWaitMs: 15_000 }), 15_000);
    });
  });

  describe('against the local service', () => {
    const ctx = useLocalService();
    const chatRequests = () => ctx.service.requests.filter((request) => request.path === '/v1/chat/completions');

    function run(policy: Partial<RateLimitPolicy>, onWait: (wait: RateLimitWait) => void, signal = new AbortController().signal) {
      const client = clientFor(ctx.service);
      const retried: number[] = [];
      const events = withRateLimitRetry(() => client.streamChatCompletion(hello, signal), {
        policy: { retries: 3, maxWaitMs: 60_000, baseDelayMs: 5_000, ...policy },
        signal,
        onWait,
        onRetry: (attempt) => retried.push(attempt),
      });
      return { events, retried };
    }

    it("waits the service's Retry-After, then sends the same request again and streams the reply", async () => {
      ctx.service.setScenario({ fault: { status: 429, retryAfter: '0.05', times: 2, path: CHAT } });
      const waits: RateLimitWait[] = [];
      const { events, retried } = run({}, (wait) => waits.push(wait));
      assert.equal(textOf(await collect(events)), 'You said: hello');
      assert.deepEqual(
        waits.map((wait) => [wait.attempt, wait.retries, wait.delayMs, wait.fromService, wait.error.status]),
        [
          [1, 3, 50, true, 429],
          [2, 3, 50, true, 429],
        ],
      );
      assert.deepEqual(retried, [1, 2]);
      const bodies = chatRequests().map((request) => JSON.stringify(request.body));
      assert.equal(bodies.length, 3);
      assert.equal(new Set(bodies).size, 1, 'the same request each time');
    });

    it('backs off by itself when the 429 has no Retry-After and an empty body; Retry now ends the wait', async () => {
      ctx.service.setScenario({ fault: { status: 429, body: 'empty', times: 1, path: CHAT } });
      const waits: RateLimitWait[] = [];
      const { events } = run({ baseDelayMs: 600_000, maxWaitMs: 600_000 }, (wait) => {
        waits.push(wait);
        wait.retryNow();
      });
      assert.equal(textOf(await collect(events)), 'You said: hello');
      assert.deepEqual(
        waits.map((wait) => [wait.delayMs, wait.fromService]),
        [[600_000, false]],
      );
      assert.equal(chatRequests().length, 2);
    });

    it('gives the last 429 to the caller once the retries are used up', async () => {
      ctx.service.setScenario({ fault: { status: 429, retryAfter: '0', path: CHAT } });
      const waits: RateLimitWait[] = [];
      const { events } = run({ retries: 2 }, (wait) => waits.push(wait));
      await assert.rejects(collect(events), (error: unknown) => error instanceof ApiError && error.status === 429);
      assert.equal(waits.length, 2);
      assert.equal(chatRequests().length, 3, 'the first request and two retries');
    });

    it('does not wait a Retry-After longer than the longest wait: the 429 goes to the user at once', async () => {
      ctx.service.setScenario({ fault: { status: 429, retryAfter: '120', path: CHAT } });
      const waits: RateLimitWait[] = [];
      const { events } = run({ maxWaitMs: 60_000 }, (wait) => waits.push(wait));
      await assert.rejects(collect(events), (error: unknown) => error instanceof ApiError && error.retryAfterMs === 120_000);
      assert.equal(waits.length, 0);
      assert.equal(chatRequests().length, 1);
    });

    it('Cancel during the wait ends it at once, with nothing sent again', async () => {
      ctx.service.setScenario({ fault: { status: 429, retryAfter: '30', path: CHAT } });
      const controller = new AbortController();
      const { events, retried } = run({}, () => controller.abort(), controller.signal);
      await assert.rejects(collect(events), (error: unknown) => error instanceof ApiError && error.kind === 'aborted');
      assert.deepEqual(retried, []);
      assert.equal(chatRequests().length, 1);
    });

    it('retries nothing else: a 503 and a 401 go to the caller after one request', async () => {
      for (const status of [503, 401]) {
        ctx.service.reset();
        ctx.service.setScenario({ fault: { status, retryAfter: '0', path: CHAT } });
        const waits: RateLimitWait[] = [];
        const { events } = run({}, (wait) => waits.push(wait));
        await assert.rejects(collect(events), (error: unknown) => error instanceof ApiError && error.status === status);
        assert.equal(waits.length, 0, `HTTP ${status} is not waited out`);
        assert.equal(chatRequests().length, 1);
      }
    });
  });
});
