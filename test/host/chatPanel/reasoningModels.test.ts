import * as assert from 'node:assert/strict';
import { chatRequests, CHAT, lastChatBody, newConversation, readyViewHost, setSetting, testApi } from './chatTestSupport';
import { useConnectedService } from '../support/connectedService';

describe('chat: a DeepSeek-style reasoning model with tool calls', () => {
  const ctx = useConnectedService(CHAT);

  afterEach(async () => {
    await setSetting('models.capabilities', undefined);
  });

  it('runs three turns without a 400: the tool-call turn carries its reasoning back, the others do not', async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-chat': { tools: true } });
    ctx.service.setScenario({ chat: { deepseekReasoning: true, toolScript: [[{ name: 'promptreel_read_file', arguments: { path: 'README.md' } }]] } });
    const conversation = await newConversation();
    conversation.allowedTools = ['promptreel_read_file'];
    const first = await api.chat.controller.send(conversation.id, { text: 'what does the README say?' });
    assert.equal(first?.status, 'done', first?.error?.message);
    const toolTurn = conversation.messages[1];
    assert.ok(toolTurn?.role === 'assistant' && toolTurn.toolCalls.length === 1 && toolTurn.toolCalls[0]?.state === 'done');
    assert.match(toolTurn.reasoning, /promptreel_read_file/);
    ctx.service.setScenario({ chat: { toolScript: null } });
    for (const text of ['and tomorrow?', 'thanks']) {
      const reply = await api.chat.controller.send(conversation.id, { text });
      assert.equal(reply?.status, 'done', reply?.error?.message);
    }
    const sent = chatRequests(ctx.service).map(
      (request) => (request.body as { messages: { role: string; tool_calls?: unknown[]; reasoning_content?: string }[] }).messages,
    );
    assert.equal(sent.length, 4, 'the tool round, its answer, then two turns');
    const assistants = sent[3].filter((message) => message.role === 'assistant');
    assert.deepEqual(
      assistants.map((message) => [Boolean(message.tool_calls?.length), message.reasoning_content]),
      [
        [true, toolTurn.reasoning],
        [false, undefined],
        [false, undefined],
      ],
    );
  });

  it("sends the chat's reasoning options as the model expects them; thinking switched off from the panel's options", async () => {
    const api = await testApi();
    await setSetting('models.capabilities', { 'promptreel-reasoner': { reasoningFormat: 'enable_thinking', thinking: true } });
    const host = await readyViewHost(api);
    const conversation = await newConversation({ model: 'promptreel-reasoner' });
    host.showConversation(conversation.id);
    const reasoning = await api.chat.controller.send(conversation.id, { text: 'hello' });
    assert.equal(lastChatBody(ctx.service).enable_thinking, true);
    assert.ok(reasoning?.reasoning, 'the model thought');
    // The page's "Thinking: Off" (validated as any message from the page).
    await host.handleMessage({ type: 'setOptions', conversationId: conversation.id, options: { thinking: false } });
    const quick = await api.chat.controller.send(conversation.id, { text: 'again' });
    assert.equal(lastChatBody(ctx.service).enable_thinking, false);
    assert.equal(quick?.reasoning, '', 'no thinking when it is switched off');
    assert.equal(api.chat.store.get(conversation.id)?.options.thinking, false, 'kept with the chat');
  });
});
