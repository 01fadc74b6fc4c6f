import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../src/api';
import { ApiError } from '../../../src/api/errors';
import { clientFor, collect, useLocalService } from '../support/localService';

const hello = (model = 'promptreel-chat') => ({ model, messages: [{ role: 'user' as const, content: 'hello' }] });
const textOf = (events: ChatStreamEvent[]) => events.map((event) => (event.type === 'text' ? event.text : '')).join('');

describe('chat streams on gateways that refuse stream_options or streaming (against the local service)', () => {
  const ctx = useLocalService();
  const chatBodies = () =>
    ctx.service.requests.filter((request) => request.path === '/v1/chat/completions').map((request) => request.body as Record<string, unknown>);

  it('asks again without stream_options when the gateway refuses it, and remembers that for the model', async () => {
    ctx.service.setScenario({ chat: { refuseStreamOptions: true } });
    const client = clientFor(ctx.service);
    const events = await collect(client.streamChatCompletion(hello()));
    assert.equal(textOf(events), 'You said: hello');
    assert.deepEqual(
      chatBodies().map((body) => [body.stream, body.stream_options !== undefined]),
      [
        [true, true],
        [true, false],
      ],
    );
    await collect(client.streamChatCompletion(hello()));
    assert.equal(chatBodies().length, 3, 'one request: the refusal is remembered');
    assert.equal(chatBodies()[2].stream_options, undefined);
    await collect(client.streamChatCompletion(hello('promptreel-reasoner'))).catch(() => undefined);
    assert.notEqual(chatBodies()[3].stream_options, undefined, 'another model is asked as usual');
  });

  it('falls back to a whole answer when the gateway cannot stream the model, and remembers it', async () => {
    ctx.service.setScenario({ chat: { refuseStream: true } });
    const client = clientFor(ctx.service);
    const events = await collect(client.streamChatCompletion(hello()));
    assert.equal(textOf(events), 'You said: hello');
    assert.ok(events.some((event) => event.type === 'usage'));
    assert.deepEqual(
      chatBodies().map((body) => body.stream),
      [true, false],
    );
    await collect(client.streamChatCompletion(hello()));
    assert.deepEqual(
      chatBodies().map((body) => body.stream),
      [true, false, false],
    );
  });

  it('asks a model declared unable to stream without stream, in one request', async () => {
    const client = clientFor(ctx.service, { streams: (model) => model !== 'promptreel-chat' });
    const events = await collect(client.streamChatCompletion(hello()));
    assert.equal(textOf(events), 'You said: hello');
    assert.deepEqual(
      chatBodies().map((body) => [body.stream, body.stream_options]),
      [[false, undefined]],
    );
  });

  it('does not retry any other refusal', async () => {
    ctx.service.setScenario({ fault: { status: 400, body: 'openai', code: 'invalid_value', message: 'max_tokens is too large', param: 'max_tokens' } });
    const client = clientFor(ctx.service);
    await assert.rejects(collect(client.streamChatCompletion(hello())), /max_tokens is too large/);
    assert.equal(chatBodies().length, 1);
  });
  describe('a refusal is asked again at most once, and truly without what was refused', () => {
    /** Reads the stream, stopping it (and failing) if the client keeps asking. */
    async function readWatched(client: ReturnType<typeof clientFor>, limit = 6): Promise<ChatStreamEvent[]> {
      const controller = new AbortController();
      const watch = setInterval(() => {
        if (chatBodies().length > limit) controller.abort();
      }, 5);
      try {
        return await collect(client.streamChatCompletion(hello(), controller.signal));
      } catch (error) {
        assert.ok(!controller.signal.aborted, `the client sent ${chatBodies().length} requests before it was stopped`);
        throw error;
      } finally {
        clearInterval(watch);
      }
    }

    it('review 2.9: stream_options in the extra body fields is dropped after the refusal: two requests in all', async () => {
      ctx.service.setScenario({ chat: { refuseStreamOptions: true } });
      const client = clientFor(ctx.service, { extras: () => ({ body: { stream_options: { include_usage: true }, user: 'kept' } }) });
      const events = await readWatched(client);
      assert.equal(textOf(events), 'You said: hello');
      assert.deepEqual(
        chatBodies().map((body) => [body.stream_options !== undefined, body.user]),
        [
          [true, 'kept'],
          [false, 'kept'],
        ],
      );
      await readWatched(client);
      assert.equal(chatBodies().length, 3, 'remembered: one request');
      assert.equal(chatBodies()[2].stream_options, undefined);
    });

    it('a gateway that refuses the same thing again gets no third request', async () => {
      ctx.service.setScenario({
        fault: {
          status: 400,
          body: 'openai',
          code: 'unknown_parameter',
          message: 'Unrecognized request argument supplied: stream_options',
          param: 'stream_options',
        },
      });
      const client = clientFor(ctx.service);
      await assert.rejects(readWatched(client), (error: unknown) => error instanceof ApiError && error.status === 400 && error.param === 'stream_options');
      assert.deepEqual(
        chatBodies().map((body) => body.stream_options !== undefined),
        [true, false],
      );
    });

    it('review 2.9: a whole answer asked for after `stream` was refused carries no stream_options either', async () => {
      ctx.service.setScenario({ chat: { refuseStream: true, refuseStreamOptions: true } });
      const client = clientFor(ctx.service, { extras: () => ({ body: { stream_options: { include_usage: true } } }) });
      const events = await readWatched(client);
      assert.equal(textOf(events), 'You said: hello');
      assert.deepEqual(
        chatBodies().map((body) => [body.stream, body.stream_options !== undefined]),
        [
          [true, true],
          [true, false],
          [false, false],
        ],
      );
    });
  });
});
