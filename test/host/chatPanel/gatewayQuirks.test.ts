import * as assert from 'node:assert/strict';
import { chatRequests, CHAT, newConversation, setSetting, testApi } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

describe('chat: gateways that refuse stream_options or streaming', () => {
  const ctx = useConnectedService(CHAT);

  afterEach(async () => {
    await setSetting('models.capabilities', undefined);
  });

  it('answers in the panel when the gateway refuses stream_options, asking without it from then on', async () => {
    const api = await testApi();
    // This block's service has its own address, so its client remembers nothing yet.
    ctx.service.setScenario({ chat: { refuseStreamOptions: true } });
    const conversation = await newConversation();
    const first = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.equal(first?.status, 'done', first?.error?.message);
    assert.equal(first.text, 'You said: hello there');
    const second = await api.chat.controller.send(conversation.id, { text: 'again' });
    assert.equal(second?.status, 'done');
    assert.deepEqual(
      chatRequests(ctx.service).map((request) => (request.body as { stream_options?: unknown }).stream_options !== undefined),
      [true, false, false],
    );
  });

  it('asks a model declared with "stream": false in promptreel.models.capabilities without streaming', async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-chat': { stream: false } });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.equal(reply?.status, 'done', reply?.error?.message);
    assert.equal(reply.text, 'You said: hello there');
    assert.ok(reply.usage, 'the whole answer carries its usage');
    assert.deepEqual(
      chatRequests(ctx.service).map((request) => (request.body as { stream?: boolean }).stream),
      [false],
    );
  });

  it('reports a half-open stream by the idle timeout of promptreel.models.capabilities, keeping what arrived', async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-chat': { idleTimeoutSeconds: 1 } });
    ctx.service.setScenario({ chat: { stallAfterChunks: 3 } });
    const conversation = await newConversation();
    const started = Date.now();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.equal(reply?.status, 'cut-off', reply?.error?.message);
    assert.ok(reply.text.length > 0, 'the text that arrived is kept');
    assert.match(reply.error?.message ?? '', /stopped sending/);
    assert.ok(Date.now() - started < 10_000, 'not waited on for the default two minutes');
  });

  it("answers through the connection pool of a model's own connectTimeoutSeconds", async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-chat': { connectTimeoutSeconds: 7 } });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.equal(reply?.status, 'done', reply?.error?.message);
    assert.equal(reply.text, 'You said: hello there');
  });
});
