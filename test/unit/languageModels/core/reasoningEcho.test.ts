import * as assert from 'node:assert/strict';
import type { ChatMessage, ChatStreamEvent, ChatTool } from '../../../../src/api';
import { ReasoningMemory } from '../../../../src/languageModels/core/reasoningMemory';
import { toChatMessages } from '../../../../src/chatRequest/messages';
import { clientFor, collect, useLocalService } from '../../support/localService';

const tools: ChatTool[] = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } } }];

describe('reasoning sent back on tool-call turns (DeepSeek-style models)', () => {
  const ctx = useLocalService();

  it('remembers the reasoning per tool-call id, the newest first out when full', () => {
    const memory = new ReasoningMemory(2);
    memory.remember(['a', 'b'], 'thought 1');
    assert.equal(memory.recall(['b']), 'thought 1');
    memory.remember(['c'], 'thought 2');
    assert.equal(memory.recall(['a']), undefined, 'the oldest is dropped');
    assert.equal(memory.recall(['x', 'c']), 'thought 2');
    memory.remember(['d'], '');
    assert.equal(memory.recall(['d']), undefined, 'no reasoning, nothing kept');
  });

  it('puts the reasoning on assistant turns with tool calls only', () => {
    const messages = toChatMessages(
      [
        { role: 'user', parts: [{ kind: 'text', text: 'weather?' }] },
        { role: 'assistant', parts: [{ kind: 'tool-call', callId: 'call_1', name: 'get_weather', input: { city: 'Oslo' } }] },
        { role: 'user', parts: [{ kind: 'tool-result', callId: 'call_1', parts: [{ kind: 'text', text: 'sunny' }] }] },
        { role: 'assistant', parts: [{ kind: 'text', text: 'It is sunny.' }] },
      ],
      { reasoningOf: (ids) => (ids.includes('call_1') ? 'I need the weather.' : 'wrong') },
    );
    const assistants = messages.filter((message): message is Extract<ChatMessage, { role: 'assistant' }> => message.role === 'assistant');
    assert.deepEqual(
      assistants.map((message) => message.reasoning_content),
      ['I need the weather.', undefined],
    );
  });

  it('lets the local DeepSeek-style model answer three turns when the reasoning goes back, and refuses otherwise', async () => {
    ctx.service.setScenario({ chat: { deepseekReasoning: true } });
    const client = clientFor(ctx.service, { retry: { retries: 0 } });
    const ask = (messages: ChatMessage[]) => collect(client.streamChatCompletion({ model: 'promptreel-chat', messages, tools }));
    const reasoningOf = (events: ChatStreamEvent[]) => events.map((event) => (event.type === 'reasoning' ? event.text : '')).join('');

    const first = await ask([{ role: 'user', content: 'use get_weather for Oslo' }]);
    const calls = first.flatMap((event) => (event.type === 'tool-calls' ? event.calls : []));
    assert.equal(calls.length, 1);
    const thought = reasoningOf(first);
    assert.match(thought, /get_weather/);
    const toolTurn: ChatMessage[] = [
      { role: 'user', content: 'use get_weather for Oslo' },
      {
        role: 'assistant',
        content: null,
        reasoning_content: thought,
        tool_calls: calls.map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: call.arguments } })),
      },
      { role: 'tool', tool_call_id: calls[0].id, content: 'sunny' },
    ];
    const second = await ask(toolTurn);
    const answer = second.map((event) => (event.type === 'text' ? event.text : '')).join('');
    assert.equal(answer, 'Tool result received: sunny');
    const third = await ask([...toolTurn, { role: 'assistant', content: answer }, { role: 'user', content: 'thanks' }]);
    assert.ok(third.some((event) => event.type === 'text'));

    const { reasoning_content: _dropped, ...withoutReasoning } = toolTurn[1] as Extract<ChatMessage, { role: 'assistant' }>;
    await assert.rejects(ask([toolTurn[0], withoutReasoning, toolTurn[2]]), /Missing `reasoning_content` field in the assistant message at message index 1/);
    await assert.rejects(
      ask([...toolTurn, { role: 'assistant', content: answer, reasoning_content: 'superfluous' }, { role: 'user', content: 'thanks' }]),
      /not allowed in an assistant message without tool calls/,
    );
  });
});
