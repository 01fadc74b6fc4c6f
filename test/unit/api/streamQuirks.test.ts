import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../src/api';
import { clientFor, collect, useLocalService } from './support';

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
});
