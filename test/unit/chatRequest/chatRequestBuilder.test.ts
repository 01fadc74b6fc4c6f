import * as assert from 'node:assert/strict';
import type { ChatTool } from '../../../src/api/chat/request';
import { resolveCapabilities } from '../../../src/chatRequest/capabilities';
import { buildChatRequest, describeAdjustment, IMAGE_LEFT_OUT, type ChatRequestInput } from '../../../src/chatRequest/chatRequestBuilder';
import { chatOverridesOf } from '../../../src/chatRequest/modelOptions';
import type { ChatSampling } from '../../../src/config/chatSampling';
import type { ModelCapabilities } from '../../../src/config/schema';

const settings: ChatSampling = { model: 'unused', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };
const hi = [{ role: 'user' as const, content: 'hi' }];

function build(input: Partial<ChatRequestInput>, declared?: ModelCapabilities) {
  return buildChatRequest({ model: 'm', messages: hi, settings, ...input }, resolveCapabilities(declared));
}

// The one policy every surface (panel, editor, provider, participant, explainer) shapes its requests with.
describe('chat requests: one shape for every surface', () => {
  it('sends nothing the service would default anyway', () => {
    assert.deepEqual(build({}), { request: { model: 'm', messages: hi }, adjustments: [] });
    assert.deepEqual(build({ overrides: { temperature: 1, topP: 1 } }).request, { model: 'm', messages: hi }, 'not even when asked for explicitly');
  });

  it('sends the settings that differ from the defaults, a caller’s choices over them', () => {
    const request = build({
      settings: { ...settings, temperature: 0.2, presencePenalty: 0.5, maxTokens: 500 },
      overrides: { topP: 0.9, maxTokens: 64 },
    }).request;
    assert.deepEqual([request.temperature, request.top_p, request.presence_penalty, request.max_tokens], [0.2, 0.9, 0.5, 64]);
  });

  it("max_tokens: the caller's, else the setting, else the model's known limit; above the limit it is lowered, and said", () => {
    assert.equal(build({}, { maxOutputTokens: 2_000 }).request.max_tokens, 2_000);
    assert.equal(build({ settings: { ...settings, maxTokens: 9_000 } }).request.max_tokens, 9_000, 'no limit known: as asked');
    const lowered = build({ settings: { ...settings, maxTokens: 9_000 } }, { maxOutputTokens: 2_000 });
    assert.equal(lowered.request.max_tokens, 2_000);
    assert.deepEqual(lowered.adjustments, [{ kind: 'max-tokens-lowered', asked: 9_000, limit: 2_000 }]);
    assert.equal(describeAdjustment(lowered.adjustments[0]!, 'm'), 'max_tokens was lowered from 9000 to 2000, the most m writes.');
  });

  it('leaves sampling out for a model declared without it, and says so only when something was chosen', () => {
    assert.deepEqual(build({}, { sampling: false }).adjustments, []);
    const chosen = build({ overrides: { temperature: 0.3 } }, { sampling: false });
    assert.equal(chosen.request.temperature, undefined);
    assert.deepEqual(chosen.adjustments, [{ kind: 'sampling-left-out' }]);
  });

  it('sends instructions (and system messages) as developer only to a model declared to take that role', () => {
    const messages = [{ role: 'system' as const, content: 'From VS Code' }, ...hi];
    assert.deepEqual(build({ instructions: ' Be brief. ', messages }).request.messages.slice(0, 2), [
      { role: 'system', content: 'Be brief.' },
      { role: 'system', content: 'From VS Code' },
    ]);
    assert.deepEqual(
      build({ instructions: 'Be brief.', messages }, { developerRole: true }).request.messages.map((message) => message.role),
      ['developer', 'developer', 'user'],
    );
  });

  it('gives images to a vision model; another gets a note in their place, and is told', () => {
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,AA' } };
    const messages = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'what is this?' }, image] }];
    assert.deepEqual(build({ messages }, { vision: true }).request.messages, messages);
    const noted = build({ messages });
    assert.equal(noted.request.messages[0]?.content, `what is this?\n${IMAGE_LEFT_OUT}\n`);
    assert.deepEqual(noted.adjustments, [{ kind: 'images-left-out', count: 1 }]);
  });

  it('asks for JSON unless the model is declared without it; tools as the model takes them, schemas cleaned', () => {
    assert.deepEqual(build({ overrides: { jsonMode: true } }).request.response_format, { type: 'json_object' });
    assert.deepEqual(build({ overrides: { jsonMode: true } }, { jsonMode: false }).adjustments, [{ kind: 'json-mode-left-out' }]);
    const tool = (name: string): ChatTool => ({ type: 'function', function: { name, parameters: { $schema: 'x', type: 'object', format: 'y' } } });
    const tools = [tool('a'), tool('b'), tool('c')];
    const sent = build({ tools, toolChoice: 'auto' }, { strictToolSchemas: true, maxTools: 2 });
    assert.deepEqual(
      sent.request.tools?.map((entry) => [entry.function.name, entry.function.parameters]),
      [
        ['a', { type: 'object', properties: {} }],
        ['b', { type: 'object', properties: {} }],
      ],
    );
    assert.equal(sent.request.tool_choice, 'auto');
    assert.deepEqual(sent.adjustments, [{ kind: 'tools-left-out', count: 1, offered: 3, why: 'too-many' }]);
    assert.equal(build({ tools }, { tools: false }).request.tools, undefined);
  });

  it("reads a caller's modelOptions and VS Code's model picker choices, ignoring what does not fit", () => {
    assert.deepEqual(chatOverridesOf({ temperature: 0.5, top_p: 7, max_tokens: 64, reasoningEffort: 'high', foo: 'bar' }, { thinking: false }), {
      temperature: 0.5,
      maxTokens: 64,
      reasoning: { thinking: false, effort: 'high' },
    });
    assert.deepEqual(chatOverridesOf('not an object'), {});
  });
});
