import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import {
  addUserMessage,
  applyStreamEvent,
  completeAssistantMessage,
  createConversation,
  editUserMessage,
  failAssistantMessage,
  settleToolCallIds,
  startAssistantMessage,
} from '../../../../src/chatPanel/core/conversation';
import type { Conversation, ConversationOptions, SelectionContext } from '../../../../src/chatPanel/core/model';
import { buildConversationRequest, TOOL_NOT_RUN } from '../../../../src/chatPanel/core/requestBuilder';
import { TOOL_RESULTS } from '../../../../src/chatPanel/core/toolRound';
import type { ChatRequest } from '../../../../src/api/chat/request';
import { resolveCapabilities } from '../../../../src/chatRequest/capabilities';
import { IMAGE_LEFT_OUT } from '../../../../src/chatRequest/chatRequestBuilder';
import type { ChatSampling } from '../../../../src/config/chatSampling';
import type { ModelCapabilities } from '../../../../src/config/schema';

const settings: ChatSampling = { model: 'setting-model', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };

function build(conversation: Conversation, input: { settings?: ChatSampling; capabilities?: ModelCapabilities } = {}): ChatRequest {
  return buildConversationRequest({ conversation, settings: input.settings ?? settings, capabilities: resolveCapabilities(input.capabilities) }).request;
}

function conversationWith(text: string, options: ConversationOptions = {}): Conversation {
  const conversation = createConversation(options);
  addUserMessage(conversation, { text });
  return conversation;
}

describe('chat panel: a conversation as a chat request', () => {
  it('sends the settings model, then the conversation model, and its options over the settings', () => {
    assert.deepEqual(build(conversationWith('hi')), { model: 'setting-model', messages: [{ role: 'user', content: 'hi' }] });
    const conversation = conversationWith('hi', { model: 'chosen', temperature: 0.2, topP: 0.9, frequencyPenalty: 0.5, presencePenalty: -0.5, maxTokens: 100 });
    const request = build(conversation, { settings: { ...settings, temperature: 1.5, maxTokens: 50 } });
    assert.deepEqual(
      [request.model, request.temperature, request.top_p, request.frequency_penalty, request.presence_penalty, request.max_tokens],
      ['chosen', 0.2, 0.9, 0.5, -0.5, 100],
    );
  });

  it('needs a model', () => {
    assert.throws(
      () => build(conversationWith('hi'), { settings: { ...settings, model: ' ' } }),
      (error: unknown) => error instanceof ApiError && error.kind === 'invalid-request' && error.param === 'model',
    );
  });

  it("sends the chat's system prompt as its instructions, JSON mode and reasoning choices through the shared policy", () => {
    const conversation = conversationWith('give json', { systemPrompt: '  Be brief.  ', jsonMode: true, reasoningEffort: 'high' });
    const request = build(conversation, { capabilities: { developerRole: true, reasoningFormat: 'reasoning_effort' } });
    assert.deepEqual(request.messages[0], { role: 'developer', content: 'Be brief.' });
    assert.deepEqual(request.response_format, { type: 'json_object' });
    assert.equal(request.reasoning_effort, 'high');
    assert.equal(build(conversationWith('hi', { systemPrompt: '   ' })).messages[0]?.role, 'user');
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
    const content = build(conversation).messages[0].content;
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
    const request = build(conversation);
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
    const messages = build(conversation).messages;
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
    const tools = build(conversation).messages.filter((message) => message.role === 'tool');
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
    const messages = build(conversation).messages;
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
    const sent = build(conversation).messages.flatMap((message) => (message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : []));
    assert.deepEqual(sent, ['call_0', 'call_0_2', 'call_r2_1', 'call_0_3']);
  });

  it('sends images as image_url parts to a vision model; another gets a note in their place, and is told', () => {
    const image = { name: 'a.png', mimeType: 'image/png', size: 3, dataUrl: 'data:image/png;base64,iVBORw0K' };
    const conversation = createConversation();
    addUserMessage(conversation, { text: 'what is this?', images: [image] });
    const request = build(conversation, { capabilities: { vision: true } });
    assert.deepEqual(request.messages[0].content, [
      { type: 'text', text: 'what is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0K' } },
    ]);
    const { request: withoutImages, adjustments } = buildConversationRequest({ conversation, settings, capabilities: resolveCapabilities(undefined) });
    assert.equal(withoutImages.messages[0]?.content, `what is this?\n${IMAGE_LEFT_OUT}\n`);
    assert.deepEqual(adjustments, [{ kind: 'images-left-out', count: 1 }]);
  });

  it('sends the edited text after an edit', () => {
    const conversation = createConversation();
    const first = addUserMessage(conversation, { text: 'original' });
    completeAssistantMessage(startAssistantMessage(conversation, 'm'));
    editUserMessage(conversation, first.id, 'edited');
    assert.deepEqual(build(conversation).messages, [{ role: 'user', content: 'edited' }]);
  });
});
