import * as assert from 'node:assert/strict';
import { chatRequests, CHAT, newConversation, readyViewHost, recordPosts, setSetting, testApi, waitFor } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';
import type { HostToWebview } from '../../../src/chatPanel/webview/protocol';

const CHAT_PATH = '^/v1/chat/completions$';
type RateLimitPost = Extract<HostToWebview, { type: 'rateLimit' }>;
const rateLimitPosts = (messages: HostToWebview[]) => messages.filter((message): message is RateLimitPost => message.type === 'rateLimit');

describe('chat: rate limits (HTTP 429) are waited out with a countdown', () => {
  const ctx = useConnectedService(CHAT);

  it("waits the service's Retry-After, tells the page the countdown, and answers after sending again", async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '1', times: 1, path: CHAT_PATH } });
    const posts = recordPosts(host);
    try {
      const reply = await api.chat.controller.send(conversation.id, { text: 'hello' });
      assert.equal(reply?.status, 'done', JSON.stringify(reply?.error));
      assert.equal(reply?.text, 'You said: hello');
      const waits = rateLimitPosts(posts.messages);
      const { delayMs, ...first } = waits[0]?.wait ?? { delayMs: Number.NaN };
      assert.deepEqual(first, { attempt: 1, retries: 3, fromService: true }, 'the countdown began');
      // The time left when the page was told: the service's second, less the moment it took to tell it.
      assert.ok(delayMs > 900 && delayMs <= 1000, `${delayMs} ms left when the countdown began`);
      assert.equal(waits.at(-1)?.wait, undefined, 'it ended when the request went again');
      // A page that reloads meanwhile (the view hidden and shown) is told the time left.
      for (const again of waits.slice(1, -1)) assert.ok(again.wait && again.wait.attempt === 1 && again.wait.delayMs <= 1000, JSON.stringify(again));
      assert.equal(waits[0].messageId, reply?.id);
      assert.equal(chatRequests(ctx.service).length, 2);
    } finally {
      posts.dispose();
    }
  });

  it('Retry now (from the page) sends again at once; Cancel (the page sends stop) leaves the 429 with Retry', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '30', times: 1, path: CHAT_PATH } });
    const replying = api.chat.controller.send(conversation.id, { text: 'hello' });
    await waitFor(() => api.chat.controller.rateLimitOf(conversation.id) !== undefined, { what: 'the wait after 429' });
    const left = api.chat.controller.rateLimitOf(conversation.id)?.wait?.delayMs ?? 0;
    assert.ok(left > 25_000 && left <= 30_000, `${left} ms left`);
    await host.handleMessage({ type: 'retryNow', conversationId: conversation.id });
    const reply = await replying;
    assert.equal(reply?.status, 'done');
    assert.equal(chatRequests(ctx.service).length, 2);

    ctx.service.setScenario({ fault: { status: 429, retryAfter: '30', times: 1, path: CHAT_PATH } });
    const second = api.chat.controller.send(conversation.id, { text: 'again' });
    await waitFor(() => api.chat.controller.rateLimitOf(conversation.id) !== undefined, { what: 'the second wait' });
    await host.handleMessage({ type: 'stop', conversationId: conversation.id });
    const cancelled = await second;
    assert.equal(cancelled?.status, 'error');
    assert.equal(cancelled?.error?.status, 429);
    assert.deepEqual(cancelled?.error?.actions, ['retry', 'showLogs']);
    assert.match(cancelled?.error?.message ?? '', /rate limiting requests \(HTTP 429\).*retry after 30 s/);
    assert.equal(cancelled?.cost, undefined, 'a request the service refused cost nothing');
    assert.equal(chatRequests(ctx.service).length, 3, 'nothing was sent again after Cancel');
    assert.equal(api.chat.controller.isBusy(conversation.id), false);
  });

  it('a page opened during the wait gets the countdown with the time left', async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '30', times: 1, path: CHAT_PATH } });
    const replying = api.chat.controller.send(conversation.id, { text: 'hello' });
    await waitFor(() => api.chat.controller.rateLimitOf(conversation.id) !== undefined, { what: 'the wait after 429' });
    const posts = recordPosts(host);
    try {
      host.showConversation(conversation.id);
      await waitFor(() => rateLimitPosts(posts.messages).length > 0, { what: 'the countdown on the page' });
      const [post] = rateLimitPosts(posts.messages);
      assert.equal(post.conversationId, conversation.id);
      assert.ok(post.wait && post.wait.delayMs > 20_000 && post.wait.delayMs <= 30_000, JSON.stringify(post.wait));
    } finally {
      posts.dispose();
    }
    api.chat.controller.retryNow(conversation.id);
    assert.equal((await replying)?.status, 'done');
  });

  it('honours the settings: no retries shows the 429 at once; a Retry-After past the longest wait too', async () => {
    const api = await testApi();
    const conversation = await newConversation();
    await setSetting('chat.rateLimitRetries', 0);
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '1', times: 1, path: CHAT_PATH } });
    const refused = await api.chat.controller.send(conversation.id, { text: 'hello' });
    assert.equal(refused?.status, 'error');
    assert.equal(chatRequests(ctx.service).length, 1);

    await setSetting('chat.rateLimitRetries', 3);
    await setSetting('chat.rateLimitMaxWaitSeconds', 5);
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '10', times: 1, path: CHAT_PATH } });
    const tooLong = await api.chat.controller.regenerate(conversation.id);
    assert.equal(tooLong?.error?.status, 429);
    assert.equal(chatRequests(ctx.service).length, 2, 'a 10 s Retry-After is not waited with a 5 s limit');
  });
});
