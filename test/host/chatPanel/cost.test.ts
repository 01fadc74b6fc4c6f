import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/api';
import { costOf, formatUsd } from '../../../src/api/account/prices';
import { ConversationStore } from '../../../src/chatPanel/core/conversationStore';
import { estimateReplyTokens } from '../../../src/chatPanel/core/replyCost';
import { assistantAt, CHAT, endedReply, lastChatBody, newConversation, readyViewHost, recordPosts, setSetting, testApi, waitFor } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

// promptreel-chat costs $3.00 per 1M prompt tokens and $12.00 per 1M completion tokens on the local service
// (model ratio 1.5, completion ratio 4, group ratio 1).
const CHAT_PRICE = { kind: 'per-token', promptUsdPerMillion: 3, completionUsdPerMillion: 12 } as const;

describe('chat: issue 13, the cost of each reply and of the chat', () => {
  const ctx = useConnectedService(CHAT);

  afterEach(async () => {
    (await testApi()).connection.prices.forget();
  });

  it("issue 13.1: keeps each reply's cost (usage × price), persists it, and tells the view the chat's total", async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    const conversation = await newConversation();
    host.showConversation(conversation.id);
    const posts = recordPosts(host);
    try {
      const first = await api.chat.controller.send(conversation.id, { text: 'hello there' });
      const second = await api.chat.controller.send(conversation.id, { text: 'and again' });
      assert.ok(first?.usage && second?.usage && first.cost && second.cost, 'both replies have usage and a cost');
      assert.deepEqual(first.cost, { usd: costOf(CHAT_PRICE, first.usage), estimated: false });
      assert.deepEqual(second.cost, { usd: costOf(CHAT_PRICE, second.usage), estimated: false });

      const done = posts.messages.filter((message) => message.type === 'done').at(-1);
      assert.ok(done?.type === 'done', 'the view was told the reply ended');
      const replyCost = endedReply(done).cost;
      const chatCost = done.conversation.cost;
      assert.ok(replyCost && chatCost, 'the view got the cost of the reply and of the chat');
      assert.equal(replyCost.text, formatUsd(second.cost.usd));
      assert.match(replyCost.text, /^\$0\.\d+$/);
      assert.equal(chatCost.text, formatUsd(first.cost.usd + second.cost.usd));
      assert.equal(chatCost.estimated, false);

      await api.chat.store.flush();
      const restored = new ConversationStore(api.storage.workspace).get(conversation.id);
      assert.deepEqual(assistantAt(restored, 1).cost, first.cost, 'the cost is stored with the reply');
    } finally {
      posts.dispose();
    }
  });

  it('issue 13.1: estimates the cost from the request and the reply, and says so, when the service reports no usage', async () => {
    const api = await testApi();
    ctx.service.setScenario({ chat: { usage: 'none' } });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.ok(reply && reply.status === 'done' && !reply.usage && reply.cost, 'a reply without usage, with a cost');
    const sent = lastChatBody(ctx.service).messages as ChatMessage[];
    assert.deepEqual(reply.cost, { usd: costOf(CHAT_PRICE, estimateReplyTokens(sent, reply)), estimated: true });
    assert.ok(reply.cost.usd > 0);
  });

  it('issue 13.1: shows no cost where no price is known', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { pricing: 'absent' } });
    api.connection.prices.forget(); // the prices may have been read since the last test
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
    assert.ok(reply && reply.usage);
    assert.equal(reply.cost, undefined, 'an unknown cost is not $0.00');
  });

  it('issue 13.1: a model priced per request (promptreel.models.prices) costs its price per reply, counted or not', async () => {
    const api = await testApi();
    ctx.service.setScenario({ chat: { usage: 'none' } });
    await setSetting('models.prices', { 'promptreel-chat': { perRequest: 0.02 } });
    try {
      const conversation = await newConversation();
      const reply = await api.chat.controller.send(conversation.id, { text: 'hello there' });
      assert.ok(reply && !reply.usage);
      assert.deepEqual(reply.cost, { usd: 0.02, estimated: false });
    } finally {
      await setSetting('models.prices', undefined);
    }
  });

  it("issue 13.3: the panel's model list carries each model's price once the prices arrive", async () => {
    const api = await testApi();
    const host = await readyViewHost(api);
    api.connection.prices.forget();
    const posts = recordPosts(host);
    try {
      await api.chat.models.refresh();
      await waitFor(() => posts.messages.some((message) => message.type === 'models' && Object.keys(message.models.prices).length > 0), {
        timeoutMs: 10_000,
        what: 'a model list with prices',
      });
      const last = posts.messages.filter((message) => message.type === 'models').at(-1);
      assert.ok(last?.type === 'models');
      assert.deepEqual(last.models.prices, {
        'promptreel-chat': '$3.00 in / $12.00 out per 1M tokens',
        'promptreel-reasoner': '$10.00 in / $40.00 out per 1M tokens',
      });
      assert.ok(last.models.ids.includes('promptreel-chat'));
    } finally {
      posts.dispose();
    }
  });
});
