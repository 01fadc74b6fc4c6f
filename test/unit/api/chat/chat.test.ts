import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../../src/api/chat/events';
import { ApiError } from '../../../../src/api/errors';
import { clientFor, collect, useLocalService, v1Requests, waitUntil } from '../../support/localService';

const ask = (content: string, extra: object = {}) => ({ model: 'promptreel-chat', messages: [{ role: 'user' as const, content }], ...extra });

function textOf(events: ChatStreamEvent[]): string {
  return events.map((event) => (event.type === 'text' ? event.text : '')).join('');
}
function reasoningOf(events: ChatStreamEvent[]): string {
  return events.map((event) => (event.type === 'reasoning' ? event.text : '')).join('');
}

describe('chat completions against the local service', () => {
  const ctx = useLocalService();

  it('createChatCompletion returns the reply, finish reason and usage', async () => {
    const completion = await clientFor(ctx.service).createChatCompletion(ask('hello there'));
    assert.equal(completion.text, 'You said: hello there');
    assert.equal(completion.finishReason, 'stop');
    assert.ok(completion.usage && completion.usage.totalTokens > 0);
    assert.equal((ctx.service.requests[0].body as { stream?: boolean }).stream, false);
  });

  it("a one-token completion (the doctor's probe)", async () => {
    const completion = await clientFor(ctx.service).createChatCompletion(ask('ping', { max_tokens: 1 }));
    assert.equal(completion.finishReason, 'length');
    assert.equal((ctx.service.requests[0].body as { max_tokens?: number }).max_tokens, 1);
  });

  it('streams the reply in order and ends with finish then usage', async () => {
    // Chunks apart in time arrive in separate reads: each comes out as it arrives (those of one read are joined).
    ctx.service.setScenario({ chat: { delayMs: 20 } });
    const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('stream me please')));
    assert.deepEqual(events[0], { type: 'role', role: 'assistant' });
    assert.equal(textOf(events), 'You said: stream me please');
    assert.ok(events.filter((event) => event.type === 'text').length > 1, 'several deltas');
    const tail = events.slice(-2).map((event) => event.type);
    assert.deepEqual(tail, ['finish', 'usage']);
    const body = ctx.service.requests[0].body as { stream?: boolean; stream_options?: unknown };
    assert.equal(body.stream, true);
  });

  it('usage in the last choice chunk, or none at all', async () => {
    ctx.service.setScenario({ chat: { usage: 'last-choice-chunk' } });
    const withUsage = await collect(clientFor(ctx.service).streamChatCompletion(ask('a')));
    assert.ok(withUsage.some((event) => event.type === 'usage'));
    ctx.service.setScenario({ chat: { usage: 'none' } });
    const without = await collect(clientFor(ctx.service).streamChatCompletion(ask('a')));
    assert.ok(!without.some((event) => event.type === 'usage'));
    assert.equal(without.at(-1)?.type, 'finish');
  });

  for (const framing of ['crlf', 'cr'] as const) {
    it(`${framing} framing with comments, event fields and multi-line data gives the same text`, async () => {
      ctx.service.setScenario({ chat: { framing, comments: true, eventFields: true, multiLineData: true, chunkChars: 3 } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('framing check ✓ 中文')));
      assert.equal(textOf(events), 'You said: framing check ✓ 中文');
      assert.equal(events.find((event) => event.type === 'finish')?.type, 'finish');
    });
  }

  for (const reasoning of ['reasoning_content', 'reasoning', 'think'] as const) {
    it(`reasoning through ${reasoning} is kept apart from the answer`, async () => {
      ctx.service.setScenario({ chat: { reasoning, chunkChars: 4 } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('why')));
      assert.ok(reasoningOf(events).length > 0, 'some reasoning');
      assert.equal(textOf(events), 'You said: why');
      assert.ok(!textOf(events).includes('<think>'));
    });
  }

  it('tool calls are assembled by index', async () => {
    const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];
    const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('use get_weather for Paris', { tools })));
    const assembled = events.find((event) => event.type === 'tool-calls');
    assert.ok(assembled && assembled.type === 'tool-calls');
    assert.equal(assembled.calls.length, 1);
    assert.equal(assembled.calls[0].name, 'get_weather');
    assert.ok(assembled.calls[0].id.length > 0);
    assert.deepEqual(Object.keys(JSON.parse(assembled.calls[0].arguments)), ['city']);
    assert.ok(events.filter((event) => event.type === 'tool-call').length > 1, 'arguments arrived in pieces');
    assert.deepEqual(
      events.find((event) => event.type === 'finish'),
      { type: 'finish', reason: 'tool_calls' },
    );
    assert.deepEqual((ctx.service.requests[0].body as { tools?: unknown }).tools, tools);
  });

  it('a tool result goes back as a tool message', async () => {
    const completion = await clientFor(ctx.service).createChatCompletion({
      model: 'promptreel-chat',
      messages: [
        { role: 'user', content: 'use get_weather' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      ],
    });
    assert.match(completion.text, /Tool result received: sunny/);
  });

  it('JSON mode', async () => {
    const completion = await clientFor(ctx.service).createChatCompletion(ask('give json', { response_format: { type: 'json_object' } }));
    assert.deepEqual(JSON.parse(completion.text).echo, 'give json');
  });

  it('the developer role and sampling parameters reach the server as sent', async () => {
    await collect(
      clientFor(ctx.service).streamChatCompletion({
        model: 'promptreel-chat',
        messages: [
          { role: 'developer', content: 'be brief' },
          { role: 'user', content: 'x' },
        ],
        temperature: 0.2,
        top_p: 0.9,
        frequency_penalty: 0.5,
        presence_penalty: -0.5,
        max_tokens: 64,
      }),
    );
    const body = ctx.service.requests[0].body as Record<string, unknown>;
    assert.deepEqual(body.messages, [
      { role: 'developer', content: 'be brief' },
      { role: 'user', content: 'x' },
    ]);
    assert.deepEqual([body.temperature, body.top_p, body.frequency_penalty, body.presence_penalty, body.max_tokens], [0.2, 0.9, 0.5, -0.5, 64]);
  });

  it('an out-of-bounds parameter is refused before anything is sent', async () => {
    await assert.rejects(
      collect(clientFor(ctx.service).streamChatCompletion(ask('x', { temperature: 3 }))),
      (error: unknown) => error instanceof ApiError && error.param === 'temperature',
    );
    assert.equal(ctx.service.requests.length, 0);
  });

  it('a mid-stream error ends the stream with an ApiError carrying the text so far', async () => {
    ctx.service.setScenario({ chat: { midStreamError: { afterChunks: 2, message: 'upstream overloaded', code: 'upstream_error', type: 'server_error' } } });
    await assert.rejects(collect(clientFor(ctx.service).streamChatCompletion(ask('long enough reply text'))), (error: unknown) => {
      return (
        error instanceof ApiError && error.kind === 'stream' && error.serverMessage?.includes('upstream overloaded') === true && (error.receivedChars ?? 0) > 0
      );
    });
  });

  it('a stream that ends without [DONE] is cut off', async () => {
    ctx.service.setScenario({ chat: { cut: 'no-done' } });
    await assert.rejects(collect(clientFor(ctx.service).streamChatCompletion(ask('cut me'))), (error: unknown) => {
      return error instanceof ApiError && error.kind === 'cut-off' && error.receivedChars === 'You said: cut me'.length;
    });
  });

  it('a connection dropped before the finish reason is cut off with the partial text', async () => {
    ctx.service.setScenario({ chat: { cut: 'no-finish', cutAfterChunks: 2, chunkChars: 4 } });
    const seen: ChatStreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of clientFor(ctx.service).streamChatCompletion(ask('this will be cut'))) seen.push(event);
      })(),
      (error: unknown) => error instanceof ApiError && error.kind === 'cut-off' && error.receivedChars === textOf(seen).length && textOf(seen).length > 0,
    );
  });

  it('a stalled stream ends as cut off after the idle timeout', async () => {
    ctx.service.setScenario({ chat: { stallAfterChunks: 2 } });
    const client = clientFor(ctx.service, { streamTimeouts: () => ({ firstTokenMs: 5_000, idleMs: 200 }) });
    await assert.rejects(
      collect(client.streamChatCompletion(ask('stall'))),
      (error: unknown) => error instanceof ApiError && error.kind === 'cut-off' && /stopped sending/.test(error.message),
    );
  });

  it('cancelling mid-stream closes the socket', async () => {
    await ctx.service.waitForSocketsClosed(2_000);
    ctx.service.setScenario({ chat: { delayMs: 50, chunkChars: 2 } });
    const controller = new AbortController();
    const seen: ChatStreamEvent[] = [];
    const consuming = (async () => {
      for await (const event of clientFor(ctx.service).streamChatCompletion(ask('a reply that takes a while to stream'), controller.signal)) {
        seen.push(event);
        if (seen.length === 3) controller.abort();
      }
    })();
    await assert.rejects(consuming, (error: unknown) => error instanceof ApiError && error.kind === 'aborted');
    await ctx.service.waitForSocketsClosed(2_000);
    assert.equal(ctx.service.openSockets(), 0);
  });

  it('breaking out of the loop early also closes the socket', async () => {
    await ctx.service.waitForSocketsClosed(2_000);
    ctx.service.setScenario({ chat: { delayMs: 50, chunkChars: 2 } });
    for await (const event of clientFor(ctx.service).streamChatCompletion(ask('another long reply to abandon'))) {
      if (event.type === 'text') break;
    }
    await waitUntil(() => ctx.service.openSockets() === 0, 2_000);
  });

  it('POST chat is not retried on a 500', async () => {
    ctx.service.setScenario({ fault: { status: 500, body: 'openai', method: 'POST' } });
    await assert.rejects(clientFor(ctx.service).createChatCompletion(ask('x')), (error: unknown) => error instanceof ApiError && error.status === 500);
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/chat/completions').length, 1);
  });

  it("a provider's own finish reason is passed through", async () => {
    ctx.service.setScenario({ chat: { finishReason: 'content_filter' } });
    const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('x')));
    assert.deepEqual(
      events.find((event) => event.type === 'finish'),
      { type: 'finish', reason: 'content_filter' },
    );
  });
});
