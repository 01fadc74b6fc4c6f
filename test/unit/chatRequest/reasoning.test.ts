import * as assert from 'node:assert/strict';
import { reasoningParameters } from '../../../src/chatRequest/reasoning';
import { modelInformation } from '../../../src/languageModels/core/modelInformation';
import { reasoningChoiceOf } from '../../../src/chatRequest/modelOptions';
import { buildConversationRequest } from '../../../src/chatPanel/core/requestBuilder';
import { resolveCapabilities } from '../../../src/chatRequest/capabilities';
import { optionsPatchSchema } from '../../../src/chatPanel/webview/protocol';
import type { Conversation } from '../../../src/chatPanel/core/model';

describe('reasoning effort and the thinking switch, as each model expects them', () => {
  it('sends nothing unless something was chosen', () => {
    assert.deepEqual(reasoningParameters(undefined), {});
    assert.deepEqual(reasoningParameters({ reasoningFormat: 'enable_thinking' }), {});
  });

  it('words the choice for reasoning_effort, enable_thinking and thinking models', () => {
    assert.deepEqual(reasoningParameters({ reasoningEffort: 'high' }), { reasoning_effort: 'high' });
    assert.deepEqual(reasoningParameters({ reasoningEffort: 'high', thinking: false }), { reasoning_effort: 'minimal' });
    assert.deepEqual(reasoningParameters({ reasoningFormat: 'enable_thinking', thinking: false }), { enable_thinking: false });
    assert.deepEqual(reasoningParameters({ reasoningFormat: 'enable_thinking', reasoningEffort: 'low' }), { enable_thinking: true });
    assert.deepEqual(reasoningParameters({ thinking: true }), { thinking: { type: 'enabled' } });
    assert.deepEqual(reasoningParameters({ reasoningFormat: 'thinking', thinking: false }), { thinking: { type: 'disabled' } });
  });

  it("lets the chat's or the caller's choice win over the settings", () => {
    assert.deepEqual(reasoningParameters({ reasoningEffort: 'low' }, { effort: 'high' }), { reasoning_effort: 'high' });
    assert.deepEqual(reasoningParameters({ reasoningFormat: 'thinking', thinking: true }, { thinking: false }), { thinking: { type: 'disabled' } });
    assert.deepEqual(reasoningChoiceOf({ reasoningEffort: 'medium', thinking: false, other: 1 }), { effort: 'medium', thinking: false });
    assert.deepEqual(reasoningChoiceOf({ reasoning_effort: 'low' }), { effort: 'low' });
    assert.deepEqual(reasoningChoiceOf({ reasoningEffort: 'extreme', thinking: 'yes' }), {}, 'what does not fit is ignored');
  });

  it('puts the options of a chat panel conversation into its request, and the page may change them', () => {
    const conversation: Conversation = {
      id: 'c',
      title: 't',
      createdAt: 1,
      updatedAt: 1,
      options: { model: 'm', reasoningEffort: 'high', thinking: true },
      messages: [{ id: 'u', role: 'user', text: 'hi', createdAt: 1 }],
    };
    const settings = { model: '', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };
    assert.equal(buildConversationRequest({ conversation, settings, capabilities: resolveCapabilities({}) }).request.reasoning_effort, 'high');
    const qwen = buildConversationRequest({ conversation, settings, capabilities: resolveCapabilities({ reasoningFormat: 'enable_thinking' }) }).request;
    assert.equal(qwen.enable_thinking, true);
    assert.equal(qwen.reasoning_effort, undefined);
    assert.equal(optionsPatchSchema.safeParse({ reasoningEffort: 'low', thinking: null }).success, true);
    assert.equal(optionsPatchSchema.safeParse({ reasoningEffort: 'max' }).success, false);
  });

  it("offers the choices in VS Code's model picker for a model declared as a reasoning model, with its defaults", () => {
    assert.equal(modelInformation({ id: 'm' }, { tools: true }, 'x').configurationSchema, undefined);
    const schema = modelInformation({ id: 'm' }, { reasoningFormat: 'thinking', reasoningEffort: 'medium' }, 'x').configurationSchema;
    assert.deepEqual(Object.keys(schema?.properties ?? {}), ['reasoningEffort', 'thinking']);
    assert.equal(schema?.properties.reasoningEffort.default, 'medium');
    assert.equal(schema?.properties.thinking.default, undefined);
  });
});
