import * as assert from 'node:assert/strict';
import { isApiError, type ChatStreamEvent } from '../../../src/api';
import { clientFor, testDispatcher, useLocalService, waitUntil } from '../support/localService';

const hello = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'hello there' }] };

describe('chat stream timeouts per model: the first token, and silence once begun (against the local service)', () => {
  const ctx = useLocalService();

  async function read(client: ReturnType<typeof clientFor>): Promise<{ events: ChatStreamEvent[]; error: unknown; ms: number }> {
    const events: ChatStreamEvent[] = [];
    const started = Date.now();
    try {
      for await (const event of client.streamChatCompletion(hello)) events.push(event);
      return { events, error: undefined, ms: Date.now() - started };
    } catch (error) {
      return { events, error, ms: Date.now() - started };
    }
  }

  it("opens a model's connections with its own connect timeout, in a pool of their own; other requests use the default", async () => {
    const asked: (number | undefined)[] = [];
    const client = clientFor(ctx.service, {
      dispatcher: (connectTimeoutMs) => {
        asked.push(connectTimeoutMs);
        return testDispatcher({ service: ctx.service.baseUrl, ...(connectTimeoutMs ? { connectTimeoutMs } : {}) });
      },
      streamTimeouts: (model) => ({ firstTokenMs: 5_000, idleMs: 5_000, ...(model === 'promptreel-chat' ? { connectMs: 3_000 } : {}) }),
    });
    await client.listModels();
    const { error } = await read(client);
    assert.equal(error, undefined);
    await read(client);
    assert.deepEqual(asked, [undefined, 3_000], 'one pool per connect timeout, made once');
  });

  it('reports a half-open connection by the idle timeout, with what arrived, and closes the socket', async () => {
    ctx.service.setScenario({ chat: { stallAfterChunks: 2 } });
    const client = clientFor(ctx.service, { streamTimeouts: () => ({ firstTokenMs: 5_000, idleMs: 300 }) });
    const { events, error } = await read(client);
    assert.ok(isApiError(error), String(error));
    assert.match(error.message, /stopped sending/);
    assert.ok(
      events.some((event) => event.type === 'text'),
      'the text that arrived was handed over first',
    );
    await waitUntil(() => ctx.service.activeRequests() === 0);
  });

  it('reports an answer that does not begin within the first-token timeout', async () => {
    ctx.service.setScenario({ chat: { firstChunkDelayMs: 3_000 } });
    const client = clientFor(ctx.service, { streamTimeouts: (model) => ({ firstTokenMs: model === 'promptreel-chat' ? 300 : 10_000, idleMs: 10_000 }) });
    const { error, ms } = await read(client);
    assert.ok(isApiError(error), String(error));
    assert.equal(error.kind, 'timeout');
    assert.equal(error.message, 'promptreel-chat did not begin its answer within 300 ms.');
    assert.ok(ms < 2_500, `given up after the timeout, not the delay (${ms} ms)`);
    await waitUntil(() => ctx.service.activeRequests() === 0);
  });

  it('lets a slow start through when it is within the timeout', async () => {
    ctx.service.setScenario({ chat: { firstChunkDelayMs: 200 } });
    const client = clientFor(ctx.service, { streamTimeouts: () => ({ firstTokenMs: 2_000, idleMs: 2_000 }) });
    const { events, error } = await read(client);
    assert.equal(error, undefined);
    assert.equal(events.map((event) => (event.type === 'text' ? event.text : '')).join(''), 'You said: hello there');
  });
});
