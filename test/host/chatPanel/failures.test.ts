import * as assert from 'node:assert/strict';
import {
  assistantAt,
  chatRequests,
  CHAT,
  endedReply,
  endsTold,
  newConversation,
  readyViewHost,
  recordPosts,
  setSetting,
  testApi,
  waitFor,
} from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

describe('chat: stop, cut-off and refused requests', () => {
  const ctx = useConnectedService(CHAT);

  it('Stop mid-stream closes the socket and keeps the text received, marked as stopped', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    ctx.service.setScenario({ chat: { chunkChars: 4, delayMs: 20 } });
    const replying = api.chat.controller.send(conversation.id, { text: '#long' });
    await waitFor(() => conversation.messages[1]?.role === 'assistant' && conversation.messages[1].text.length > 40, {
      timeoutMs: 20_000,
      what: 'some text to arrive',
    });
    assert.equal(api.chat.controller.isBusy(conversation.id), true);
    assert.equal(ctx.service.activeRequests(), 1, 'the stream is open');
    // The Stop button of the webview sends this intent.
    await host.handleMessage({ type: 'stop', conversationId: conversation.id });
    const reply = await replying;
    assert.ok(reply);
    assert.equal(reply.status, 'stopped');
    assert.ok(reply.text.length > 40, 'the text that arrived is kept');
    assert.ok(reply.text.length < 10_000, 'the reply did not run to its end');
    assert.equal(reply.error, undefined);
    await ctx.service.waitForSocketsClosed(5000);
    assert.equal(ctx.service.activeRequests(), 0, 'the service saw the request go');
    assert.equal(api.chat.controller.isBusy(conversation.id), false);
  });

  it('a 401 ends the reply with the server message and a Set API Key action (shown in the conversation)', async () => {
    const api = await testApi();
    await api.connection.keyStore.store('sk-refused-by-service-0042');
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    const posts = recordPosts(host);
    try {
      const reply = await api.chat.controller.send(conversation.id, { text: 'hello' });
      assert.ok(reply);
      assert.equal(reply.status, 'error');
      assert.equal(reply.error?.status, 401);
      assert.match(reply.error?.message ?? '', /refused the API key \(HTTP 401\)\. The service said: ".+"/);
      assert.equal(reply.error?.actions[0], 'setApiKey');
      const error = posts.messages.find((message) => message.type === 'error');
      assert.ok(error && error.type === 'error' && endedReply(error).error?.actions.includes('setApiKey'), 'the webview got the error with its action');
      await new Promise((resolve) => setTimeout(resolve, 200)); // the point: no second end during it
      assert.deepEqual(endsTold(posts.messages, conversation.id, reply.id), ['error'], 'issue 24.3: the page learns the end once');
      assert.equal(conversation.messages[0].role, 'user', 'the question is kept, to retry once the key is fixed');
    } finally {
      posts.dispose();
    }
    await api.connection.keyStore.store(ctx.service.demoKey);
    const retried = await api.chat.controller.regenerate(conversation.id);
    assert.equal(retried?.status, 'done');
    assert.equal(retried?.text, 'You said: hello');
  });

  it('an unsupported-parameter 400 names the parameter', async () => {
    const api = await testApi();
    await setSetting('chat.temperature', 0.5);
    ctx.service.setScenario({
      fault: {
        status: 400,
        body: 'openai',
        code: 'unsupported_parameter',
        type: 'invalid_request_error',
        param: 'temperature',
        message: "Unsupported parameter: 'temperature' is not supported with this model.",
        times: 1,
      },
    });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hi' });
    assert.equal(reply?.status, 'error');
    assert.equal(reply?.error?.param, 'temperature');
    assert.match(reply?.error?.message ?? '', /refused \(HTTP 400\) because of the parameter "temperature"/);
    assert.match(reply?.error?.message ?? '', /Unsupported parameter/);
    assert.ok(reply?.error?.actions.includes('openSettings'));
  });

  it('a cut-off stream keeps the text, marks it and offers Retry, which then completes', async () => {
    const api = await testApi();
    ctx.service.setScenario({ chat: { chunkChars: 4, cut: 'no-finish', cutAfterChunks: 3 } });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'a question that will be cut' });
    assert.equal(reply?.status, 'cut-off');
    assert.equal(reply?.text, 'You said: a ', 'the three chunks that arrived are kept');
    assert.deepEqual(reply?.error?.actions, ['retry', 'showLogs']);
    assert.match(reply?.error?.message ?? '', /cut off/);

    ctx.service.setScenario({ chat: { cut: null } });
    const host = await readyViewHost(api);
    await host.handleMessage({ type: 'retry', conversationId: conversation.id });
    await waitFor(() => conversation.messages.length === 2 && assistantAt(conversation, 1).status === 'done', { what: 'the retried reply' });
    assert.equal(assistantAt(conversation, 1).text, 'You said: a question that will be cut');
  });

  it('a mid-stream error keeps the text and shows the service message', async () => {
    const api = await testApi();
    ctx.service.setScenario({
      chat: { chunkChars: 4, midStreamError: { afterChunks: 2, message: 'upstream overloaded', code: 'server_error', type: 'server_error' } },
    });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello' });
    assert.equal(reply?.status, 'error');
    assert.equal(reply?.text, 'You said');
    assert.match(reply?.error?.message ?? '', /upstream overloaded/);
    assert.ok(reply?.error?.actions.includes('retry'));
  });

  it('without a key: the reply offers Set API Key and nothing is sent', async () => {
    const api = await testApi();
    await api.connection.keyStore.clear();
    const saved = process.env.PROMPTREEL_API_KEY;
    delete process.env.PROMPTREEL_API_KEY;
    try {
      const before = chatRequests(ctx.service).length;
      const conversation = await newConversation();
      const reply = await api.chat.controller.send(conversation.id, { text: 'hi' });
      assert.equal(reply?.status, 'error');
      // The panel asks the connection's readiness, as every surface does: the same answer as the page's setup banner.
      assert.deepEqual(reply?.error?.actions, ['setApiKey']);
      assert.match(reply?.error?.message ?? '', /^The chat request needs an API key for http:\/\/127\.0\.0\.1:\d+/);
      assert.equal(chatRequests(ctx.service).length, before);
      const host = await readyViewHost(api);
      const posts = recordPosts(host);
      await host.handleMessage({ type: 'ready' });
      const snapshot = posts.messages.find((message) => message.type === 'snapshot');
      posts.dispose();
      assert.ok(
        snapshot && snapshot.type === 'snapshot' && snapshot.snapshot.setup?.actions.includes('setApiKey'),
        'the webview shows what is missing, with Set API Key',
      );
      assert.deepEqual(snapshot.snapshot.setup?.actions, reply.error?.actions);
    } finally {
      if (saved !== undefined) process.env.PROMPTREEL_API_KEY = saved;
    }
  });
});
