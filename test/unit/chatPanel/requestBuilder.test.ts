import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import {
  addUserMessage,
  applyStreamEvent,
  completeAssistantMessage,
  createConversation,
  editUserMessage,
  failAssistantMessage,
  settleToolCallIds,
  startAssistantMessage,
} from '../../../src/chatPanel/core/conversation';
import type { Conversation, ConversationOptions, SelectionContext } from '../../../src/chatPanel/core/model';
import { buildChatRequest, TOOL_NOT_RUN, type ChatDefaults } from '../../../src/chatPanel/core/requestBuilder';
import { toChatTools } from '../../../src/chatPanel/core/tools';
import { TOOL_RESULTS } from '../../../src/chatPanel/core/toolRound';

const defaults: ChatDefaults = { model: 'setting-model', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };

function conversationWith(text: string, options: ConversationOptions = {}): Conversation {
  const conversation = createConversation(options);
  addUserMessage(conversation, { text });
  return conversation;
}

function refused(run: () => unknown, param: string): void {
  assert.throws(run, (error: unknown) => error instanceof ApiError && error.kind === 'invalid-request' && error.param === param, `refuses ${param}`);
}

describe('chat request builder', () => {
  it('sends the settings model and nothing the service would default anyway', () => {
    const request = buildChatRequest({ conversation: conversationWith('hi'), defaults });
    assert.deepEqual(request, { model: 'setting-model', messages: [{ role: 'user', content: 'hi' }] });
  });

  it('prefers the conversation model and options over the settings', () => {
    const conversation = conversationWith('hi', { model: 'chosen', temperature: 0.2, topP: 0.9, frequencyPenalty: 0.5, presencePenalty: -0.5, maxTokens: 100 });
    const request = buildChatRequest({ conversation, defaults: { ...defaults, temperature: 1.5, maxTokens: 50 } });
    assert.equal(request.model, 'chosen');
    assert.equal(request.temperature, 0.2);
    assert.equal(request.top_p, 0.9);
    assert.equal(request.frequency_penalty, 0.5);
    assert.equal(request.presence_penalty, -0.5);
    assert.equal(request.max_tokens, 100);
  });

  it('falls back to the settings, then to the declared maxOutputTokens', () => {
    const request = buildChatRequest({
      conversation: conversationWith('hi'),
      defaults: { ...defaults, temperature: 0.7 },
      capabilities: { maxOutputTokens: 4096 },
    });
    assert.equal(request.temperature, 0.7);
    assert.equal(request.max_tokens, 4096);
  });

  it('needs a model', () => {
    refused(() => buildChatRequest({ conversation: conversationWith('hi'), defaults: { ...defaults, model: ' ' } }), 'model');
  });

  it('checks the documented bounds before sending and names the parameter', () => {
    refused(() => buildChatRequest({ conversation: conversationWith('hi', { temperature: 2.5 }), defaults }), 'temperature');
    refused(() => buildChatRequest({ conversation: conversationWith('hi', { topP: 1.2 }), defaults }), 'top_p');
    refused(() => buildChatRequest({ conversation: conversationWith('hi', { presencePenalty: -3 }), defaults }), 'presence_penalty');
    refused(() => buildChatRequest({ conversation: conversationWith('hi', { maxTokens: 0 }), defaults }), 'max_tokens');
  });

  it('refuses max_tokens above what the model allows', () => {
    const run = () => buildChatRequest({ conversation: conversationWith('hi', { maxTokens: 9000 }), defaults, capabilities: { maxOutputTokens: 8192 } });
    refused(run, 'max_tokens');
    assert.throws(run, /8192/);
  });

  it('sends the system message as developer only when the model is declared to accept it', () => {
    const conversation = conversationWith('hi', { systemPrompt: '  Be brief.  ' });
    assert.deepEqual(buildChatRequest({ conversation, defaults }).messages[0], { role: 'system', content: 'Be brief.' });
    assert.deepEqual(buildChatRequest({ conversation, defaults, capabilities: { developerRole: false } }).messages[0], {
      role: 'system',
      content: 'Be brief.',
    });
    assert.deepEqual(buildChatRequest({ conversation, defaults, capabilities: { developerRole: true } }).messages[0], {
      role: 'developer',
      content: 'Be brief.',
    });
    assert.equal(buildChatRequest({ conversation: conversationWith('hi', { systemPrompt: '   ' }), defaults }).messages[0].role, 'user');
  });

  it('leaves sampling parameters out for a model declared without sampling', () => {
    const conversation = conversationWith('hi', { temperature: 0.3, topP: 0.5, frequencyPenalty: 1, presencePenalty: 1 });
    const request = buildChatRequest({ conversation, defaults, capabilities: { sampling: false } });
    assert.equal(request.temperature, undefined);
    assert.equal(request.top_p, undefined);
    assert.equal(request.frequency_penalty, undefined);
    assert.equal(request.presence_penalty, undefined);
  });

  it('asks for JSON when JSON mode is on, unless the model is declared without it', () => {
    const conversation = conversationWith('give json', { jsonMode: true });
    assert.deepEqual(buildChatRequest({ conversation, defaults }).response_format, { type: 'json_object' });
    refused(() => buildChatRequest({ conversation, defaults, capabilities: { jsonMode: false } }), 'response_format');
  });

  it('sends the tools offered only to a model declared with tools, their schemas cleaned as gateways take them', () => {
    const spec = { readOnly: true, source: 'promptreel' as const };
    const tools = toChatTools([
      { ...spec, name: 'get_weather', description: 'Weather', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } },
      { ...spec, name: 'noop', description: '', inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } },
    ]);
    assert.deepEqual(tools[1], { type: 'function', function: { name: 'noop', parameters: { type: 'object', properties: {} } } });
    const conversation = conversationWith('weather?');
    assert.equal(buildChatRequest({ conversation, defaults, tools }).tools, undefined, 'capabilities unknown: no tools');
    assert.equal(buildChatRequest({ conversation, defaults, tools, capabilities: { tools: false } }).tools, undefined);
    assert.deepEqual(buildChatRequest({ conversation, defaults, tools, capabilities: { tools: true } }).tools, tools);
  });

  it('puts the selection context (file, language, lines, code, diagnostics) before the question', () => {
    const context: SelectionContext = {
      fileName: 'a.ts',
      relativePath: 'src/a.ts',
      languageId: 'typescript',
      startLine: 3,
      endLine: 5,
      code: 'const x = `a`;\n```\nx;',
      diagnostics: [{ severity: 'error', message: "Cannot find name 'y'.", line: 4, source: 'ts', code: '2304' }],
    };
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'Why?', context });
    const content = buildChatRequest({ conversation, defaults }).messages[0].content;
    assert.equal(typeof content, 'string');
    const text = String(content);
    assert.match(text, /^Code from src\/a\.ts, lines 3-5 \(typescript\):/);
    assert.ok(text.includes('````typescript\nconst x = `a`;\n```\nx;\n````'), 'a fence longer than the one inside the code');
    assert.match(text, /- line 4, error \(ts 2304\): Cannot find name 'y'\./);
    assert.ok(text.endsWith('\n\nWhy?'));
  });

  it('replays the history: replies as assistant turns, failed empty replies left out, the streaming one never', () => {
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'q1' });
    const done = startAssistantMessage(conversation, 'm');
    applyStreamEvent(done, { type: 'text', text: 'a1' });
    completeAssistantMessage(done);
    addUserMessage(conversation, { text: 'q2' });
    failAssistantMessage(startAssistantMessage(conversation, 'm'), 'error', { message: '401', actions: ['setApiKey'] });
    addUserMessage(conversation, { text: 'q3' });
    const cut = startAssistantMessage(conversation, 'm');
    applyStreamEvent(cut, { type: 'text', text: 'half' });
    failAssistantMessage(cut, 'cut-off');
    addUserMessage(conversation, { text: 'q4' });
    startAssistantMessage(conversation, 'm');
    const request = buildChatRequest({ conversation, defaults });
    assert.deepEqual(
      request.messages.map((message) => [message.role, message.content]),
      [
        ['user', 'q1'],
        ['assistant', 'a1'],
        ['user', 'q2'],
        ['user', 'q3'],
        ['assistant', 'half'],
        ['user', 'q4'],
      ],
    );
  });

  it('answers tool calls of chats saved before tools ran with a "not run" result, as the service requires', () => {
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'weather in Oslo' });
    const reply = startAssistantMessage(conversation, 'm', 1, () => 'r1');
    applyStreamEvent(reply, { type: 'tool-calls', calls: [{ id: '', name: 'get_weather', arguments: '{"city":"Oslo"}' }] });
    completeAssistantMessage(reply);
    addUserMessage(conversation, { text: 'thanks' });
    const messages = buildChatRequest({ conversation, defaults }).messages;
    assert.deepEqual(messages[1], {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_r1_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }],
    });
    assert.deepEqual(messages[2], { role: 'tool', tool_call_id: 'call_r1_0', content: TOOL_NOT_RUN });
    assert.deepEqual(messages[3], { role: 'user', content: 'thanks' });
  });

  it('sends each tool call its result; a call left waiting or running by a closed window is answered as stopped', () => {
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'read two files' });
    const reply = startAssistantMessage(conversation, 'm', 1, () => 'r2');
    applyStreamEvent(reply, {
      type: 'tool-calls',
      calls: [
        { id: 'a', name: 'promptreel_read_file', arguments: '{"path":"a.ts"}' },
        { id: 'b', name: 'promptreel_read_file', arguments: '{"path":"b.ts"}' },
        { id: 'c', name: 'write', arguments: '{}' },
      ],
    });
    completeAssistantMessage(reply);
    Object.assign(reply.toolCalls[0]!, { state: 'done', result: 'a.ts (1 line):\n1\tA' });
    Object.assign(reply.toolCalls[1]!, { state: 'pending' });
    Object.assign(reply.toolCalls[2]!, { state: 'denied', result: TOOL_RESULTS.denied });
    const tools = buildChatRequest({ conversation, defaults }).messages.filter((message) => message.role === 'tool');
    assert.deepEqual(
      tools.map((message) => [message.tool_call_id, message.content]),
      [
        ['a', 'a.ts (1 line):\n1\tA'],
        ['b', TOOL_RESULTS.stopped],
        ['c', TOOL_RESULTS.denied],
      ],
    );
  });

  it('review 2.8: a chat saved with one id on two calls (in one reply and across replies) sends distinct ids, each answered once', () => {
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'read twice' });
    const first = startAssistantMessage(conversation, 'm', 1, () => 'r1');
    applyStreamEvent(first, {
      type: 'tool-calls',
      calls: [
        { id: 'call_0', name: 'read', arguments: '{"path":"a"}' },
        { id: 'call_0', name: 'read', arguments: '{"path":"b"}' },
      ],
    });
    completeAssistantMessage(first);
    const second = startAssistantMessage(conversation, 'm', 2, () => 'r2');
    applyStreamEvent(second, { type: 'tool-calls', calls: [{ id: 'call_0', name: 'read', arguments: '{"path":"c"}' }] });
    completeAssistantMessage(second);
    addUserMessage(conversation, { text: 'thanks' });
    const messages = buildChatRequest({ conversation, defaults }).messages;
    const calls = messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []));
    const answered = messages.flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : []));
    assert.equal(new Set(calls).size, 3, `three distinct ids: ${calls.join()}`);
    assert.equal(calls[0], 'call_0', "the model's own id stays where it is the first");
    assert.deepEqual(answered, calls);
  });

  it('gives the calls of a reply that ended the ids the request builder sends back: distinct in the chat, stable', () => {
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'go' });
    const first = startAssistantMessage(conversation, 'm', 1, () => 'r1');
    applyStreamEvent(first, { type: 'tool-calls', calls: [{ id: 'call_0', name: 'read', arguments: '{}' }] });
    settleToolCallIds(conversation, first);
    const second = startAssistantMessage(conversation, 'm', 2, () => 'r2');
    applyStreamEvent(second, {
      type: 'tool-calls',
      calls: [
        { id: 'call_0', name: 'read', arguments: '{}' },
        { id: '', name: '', arguments: '' },
        { id: '', name: 'read', arguments: '{}' },
        { id: 'call_0', name: 'read', arguments: '{}' },
      ],
    });
    settleToolCallIds(conversation, second);
    assert.deepEqual(
      second.toolCalls.map((call) => call.id),
      ['call_0_2', '', 'call_r2_1', 'call_0_3'],
    );
    settleToolCallIds(conversation, second);
    assert.deepEqual(
      second.toolCalls.map((call) => call.id),
      ['call_0_2', '', 'call_r2_1', 'call_0_3'],
      'settling again changes nothing',
    );
    completeAssistantMessage(first);
    completeAssistantMessage(second);
    const sent = buildChatRequest({ conversation, defaults }).messages.flatMap((message) =>
      message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
    );
    assert.deepEqual(sent, ['call_0', 'call_0_2', 'call_r2_1', 'call_0_3']);
  });

  it('sends images as image_url parts to a vision model, and refuses them otherwise', () => {
    const image = { name: 'a.png', mimeType: 'image/png', size: 3, dataUrl: 'data:image/png;base64,iVBORw0K' };
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'what is this?', images: [image] });
    const request = buildChatRequest({ conversation, defaults, capabilities: { vision: true } });
    assert.deepEqual(request.messages[0].content, [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
    ]);
    refused(() => buildChatRequest({ conversation, defaults }), 'messages');
    addUserMessage(conversation, { text: 'next' });
    const older = buildChatRequest({ conversation, defaults }).messages[0].content;
    assert.match(String(older), /what is this\?\n\n\[1 image\(s\) left out/);
  });

  it('sends the edited text after an edit', () => {
    const conversation = createConversation();
    const first = addUserMessage(conversation, { text: 'original' });
    completeAssistantMessage(startAssistantMessage(conversation, 'm'));
    editUserMessage(conversation, first.id, 'edited');
    assert.deepEqual(buildChatRequest({ conversation, defaults }).messages, [{ role: 'user', content: 'edited' }]);
  });
});
