import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../../src/api/chat/events';
import {
  addUserMessage,
  applyStreamEvent,
  completeAssistantMessage,
  createConversation,
  dropRepliesAfterLastUser,
  editUserMessage,
  failAssistantMessage,
  rename,
  setOptions,
  startAssistantMessage,
  titleFrom,
  truncateFrom,
  usageTotals,
} from '../../../../src/chatPanel/core/conversation';
import type { SelectionContext } from '../../../../src/chatPanel/core/model';

function ids(): () => string {
  let n = 0;
  return () => `id-${++n}`;
}

const context: SelectionContext = {
  fileName: 'sample.ts',
  relativePath: 'src/sample.ts',
  languageId: 'typescript',
  startLine: 2,
  endLine: 4,
  code: 'export function add(a: number, b: number): number {\n  return a + b;\n}',
  diagnostics: [],
};

describe('chat conversation model', () => {
  it('names a conversation after its first message, shortened on a word boundary', () => {
    const newId = ids();
    const conversation = createConversation({}, 1, newId);
    assert.equal(conversation.title, 'New chat');
    addUserMessage(conversation, { text: '\n  How do I read a file in Node without blocking the event loop for long?\nmore' }, 2, newId);
    assert.equal(conversation.title, 'How do I read a file in Node without blocking the event…');
    addUserMessage(conversation, { text: 'second question' }, 3, newId);
    assert.equal(conversation.title, 'How do I read a file in Node without blocking the event…', 'later messages keep the title');
    assert.equal(conversation.updatedAt, 3);
  });

  it('titles a context-only message after the file and lines', () => {
    assert.equal(titleFrom('', context), 'About sample.ts:2-4');
    assert.equal(titleFrom('   '), 'New chat');
  });

  it('keeps a title the user chose', () => {
    const conversation = createConversation({}, 1, ids());
    rename(conversation, '  My chat  ', 5);
    addUserMessage(conversation, { text: 'hello' }, 6);
    assert.equal(conversation.title, 'My chat');
    assert.equal(conversation.titleEdited, true);
  });

  it('folds stream events into the reply: text, reasoning, tool call fragments, usage, finish', () => {
    const conversation = createConversation({}, 1, ids());
    const reply = startAssistantMessage(conversation, 'm', 2, () => 'r1');
    const events: ChatStreamEvent[] = [
      { type: 'role', role: 'assistant' },
      { type: 'reasoning', text: 'thinking ' },
      { type: 'reasoning', text: 'hard' },
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo' },
      { type: 'tool-call', index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '{"ci' },
      { type: 'tool-call', index: 0, argumentsDelta: 'ty":"Oslo"}' },
      { type: 'tool-call', index: 1, id: 'call_2', name: 'lookup', argumentsDelta: '{}' },
      { type: 'finish', reason: 'tool_calls' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } },
    ];
    const deltas = events.map((event) => applyStreamEvent(reply, event));
    assert.equal(reply.text, 'Hello');
    assert.equal(reply.reasoning, 'thinking hard');
    assert.deepEqual(reply.toolCalls, [
      { id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
      { id: 'call_2', name: 'lookup', arguments: '{}' },
    ]);
    assert.equal(reply.finishReason, 'tool_calls');
    assert.deepEqual(reply.usage, { promptTokens: 3, completionTokens: 4, totalTokens: 7 });
    assert.deepEqual(deltas[3], { text: 'Hel', reasoning: '', toolCallsChanged: false });
    assert.deepEqual(deltas[1], { text: '', reasoning: 'thinking ', toolCallsChanged: false });
    assert.equal(deltas[5].toolCallsChanged, true);
    assert.equal(reply.status, 'streaming');
    completeAssistantMessage(reply);
    assert.equal(reply.status, 'done');
  });

  it('takes the final tool-call list over the fragments', () => {
    const reply = startAssistantMessage(createConversation({}, 1, ids()), 'm');
    applyStreamEvent(reply, { type: 'tool-call', index: 0, id: 'a', name: 'f', argumentsDelta: '{' });
    applyStreamEvent(reply, { type: 'tool-calls', calls: [{ id: 'a', name: 'f', arguments: '{"x":1}' }] });
    assert.deepEqual(reply.toolCalls, [{ id: 'a', name: 'f', arguments: '{"x":1}' }]);
  });

  it('keeps the text of a reply that was stopped or cut off, and marks it', () => {
    const reply = startAssistantMessage(createConversation({}, 1, ids()), 'm');
    applyStreamEvent(reply, { type: 'text', text: 'partial' });
    failAssistantMessage(reply, 'cut-off', { message: 'The reply was cut off.', actions: ['retry'] });
    assert.equal(reply.text, 'partial');
    assert.equal(reply.status, 'cut-off');
    assert.deepEqual(reply.error?.actions, ['retry']);
    failAssistantMessage(reply, 'stopped');
    assert.equal(reply.status, 'stopped');
    assert.equal(reply.error, undefined);
  });

  it('edits a user message and drops every later turn', () => {
    const newId = ids();
    const conversation = createConversation({}, 1, newId);
    const first = addUserMessage(conversation, { text: 'first' }, 2, newId);
    startAssistantMessage(conversation, 'm', 3, newId);
    addUserMessage(conversation, { text: 'second' }, 4, newId);
    startAssistantMessage(conversation, 'm', 5, newId);
    const edited = editUserMessage(conversation, first.id, 'first, edited', 6);
    assert.equal(edited?.text, 'first, edited');
    assert.deepEqual(
      conversation.messages.map((m) => m.role),
      ['user'],
    );
    assert.equal(conversation.title, 'first, edited');
    assert.equal(editUserMessage(conversation, 'missing', 'x'), undefined);
  });

  it('refuses to edit a reply', () => {
    const conversation = createConversation({}, 1, ids());
    addUserMessage(conversation, { text: 'q' });
    const reply = startAssistantMessage(conversation, 'm');
    assert.equal(editUserMessage(conversation, reply.id, 'changed'), undefined);
    assert.equal(conversation.messages.length, 2);
  });

  it('gets ready to regenerate: the replies after the last user message go', () => {
    const conversation = createConversation({}, 1, ids());
    assert.equal(dropRepliesAfterLastUser(conversation), false, 'nothing to answer');
    addUserMessage(conversation, { text: 'q1' });
    startAssistantMessage(conversation, 'm');
    addUserMessage(conversation, { text: 'q2' });
    startAssistantMessage(conversation, 'm');
    assert.equal(dropRepliesAfterLastUser(conversation), true);
    assert.deepEqual(
      conversation.messages.map((m) => (m.role === 'user' ? m.text : 'reply')),
      ['q1', 'reply', 'q2'],
    );
  });

  it('truncates from a message', () => {
    const conversation = createConversation({}, 1, ids());
    addUserMessage(conversation, { text: 'q1' });
    const reply = startAssistantMessage(conversation, 'm');
    addUserMessage(conversation, { text: 'q2' });
    assert.equal(truncateFrom(conversation, reply.id), true);
    assert.equal(conversation.messages.length, 1);
    assert.equal(truncateFrom(conversation, 'missing'), false);
  });

  it('sums the usage of every reply', () => {
    const conversation = createConversation({}, 1, ids());
    assert.deepEqual(usageTotals(conversation), { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
    for (const total of [10, 20]) {
      addUserMessage(conversation, { text: 'q' });
      const reply = startAssistantMessage(conversation, 'm');
      applyStreamEvent(reply, { type: 'usage', usage: { promptTokens: total - 2, completionTokens: 2, totalTokens: total } });
    }
    addUserMessage(conversation, { text: 'q' });
    startAssistantMessage(conversation, 'm');
    assert.deepEqual(usageTotals(conversation), { promptTokens: 26, completionTokens: 4, totalTokens: 30 });
  });

  it('keeps the context and images of a user message', () => {
    const conversation = createConversation({}, 1, ids());
    const image = { name: 'a.png', mimeType: 'image/png', size: 3, dataUrl: 'data:image/png;base64,AAAA' };
    const message = addUserMessage(conversation, { text: 'look', context, images: [image] });
    assert.deepEqual(message.context, context);
    assert.deepEqual(message.images, [image]);
    const plain = addUserMessage(conversation, { text: 'no extras', images: [] });
    assert.equal('images' in plain, false);
  });

  it('replaces options and drops cleared ones so the settings apply again', () => {
    const conversation = createConversation({ model: 'a', temperature: 0.5 }, 1, ids());
    setOptions(conversation, { model: 'b', temperature: undefined, systemPrompt: '' });
    assert.deepEqual(conversation.options, { model: 'b' });
  });
});
