import * as assert from 'assert';
import { chatRequests, connectChat, disconnectChat, newConversation, setSetting, testApi } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

const WEATHER = { name: 'get_weather', description: 'The weather in a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

describe('chat: a DeepSeek-style reasoning model with tool calls', () => {
  const ctx = useConnectedService(connectChat, disconnectChat);

  afterEach(async () => {
    await setSetting('chat.tools', undefined);
    await setSetting('models.capabilities', undefined);
  });

  it('runs three turns without a 400: the tool-call turn carries its reasoning back, the others do not', async () => {
    const api = await testApi();
    await setSetting('chat.tools', [WEATHER]);
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true } });
    ctx.service.setScenario({ chat: { deepseekReasoning: true } });
    const conversation = await newConversation();
    const first = await api.chat.controller.send(conversation.id, { text: 'use get_weather for Oslo' });
    assert.strictEqual(first?.status, 'done', first?.error?.message);
    assert.strictEqual(first.toolCalls.length, 1);
    assert.match(first.reasoning, /get_weather/);
    for (const text of ['and tomorrow?', 'thanks']) {
      const reply = await api.chat.controller.send(conversation.id, { text });
      assert.strictEqual(reply?.status, 'done', reply?.error?.message);
    }
    const sent = chatRequests(ctx.service).map(
      (request) => (request.body as { messages: { role: string; tool_calls?: unknown[]; reasoning_content?: string }[] }).messages,
    );
    assert.strictEqual(sent.length, 3);
    const assistants = sent[2].filter((message) => message.role === 'assistant');
    assert.deepStrictEqual(
      assistants.map((message) => [Boolean(message.tool_calls?.length), message.reasoning_content]),
      [
        [true, first.reasoning],
        [false, undefined],
      ],
    );
  });
});
