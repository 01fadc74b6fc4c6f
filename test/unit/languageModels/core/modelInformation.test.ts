import * as assert from 'node:assert/strict';
import { modelInformation } from '../../../../src/languageModels/core/modelInformation';
import { DEFAULT_CAPABILITIES, resolveCapabilities } from '../../../../src/chatRequest/capabilities';

describe('language models: model information for VS Code', () => {
  it('uses the declared capabilities', () => {
    const info = modelInformation(
      { id: 'gpt-x', ownedBy: 'acme', created: 1763700000 },
      { contextWindow: 32_000, maxOutputTokens: 2_000, tools: false, vision: true },
      'https://api.example.com',
    );
    assert.deepEqual(info, {
      id: 'gpt-x',
      name: 'gpt-x',
      family: 'gpt-x',
      version: '1763700000',
      detail: 'Promptreel',
      tooltip: 'gpt-x (acme) on https://api.example.com',
      maxInputTokens: 30_000,
      maxOutputTokens: 2_000,
      capabilities: { imageInput: true, toolCalling: false },
    });
  });

  it('assumes the defaults for an undeclared model, and says so in the tooltip', () => {
    const info = modelInformation({ id: 'plain' }, undefined, 'http://127.0.0.1:1');
    assert.equal(info.maxInputTokens, DEFAULT_CAPABILITIES.contextWindow - DEFAULT_CAPABILITIES.maxOutputTokens);
    assert.equal(info.maxOutputTokens, DEFAULT_CAPABILITIES.maxOutputTokens);
    assert.deepEqual(info.capabilities, { imageInput: false, toolCalling: true });
    assert.equal(info.version, 'plain');
    assert.match(info.tooltip, /capabilities assumed/);
  });

  it('keeps at least a quarter of the window for input when the declared output is huge', () => {
    const info = modelInformation({ id: 'm' }, { contextWindow: 8_000, maxOutputTokens: 100_000 }, 'x');
    assert.equal(info.maxOutputTokens, 8_000);
    assert.equal(info.maxInputTokens, 2_000);
  });

  it('puts the price beside the name and, with where it comes from, in the tooltip', () => {
    const service = modelInformation({ id: 'gpt-x', ownedBy: 'acme' }, {}, 'https://api.example.com', {
      kind: 'per-token',
      promptUsdPerMillion: 3,
      completionUsdPerMillion: 12,
      source: 'service',
    });
    assert.equal(service.detail, 'Promptreel · $3.00 in / $12.00 out per 1M tokens');
    assert.equal(service.tooltip, "gpt-x (acme) on https://api.example.com\nPrice: $3.00 in / $12.00 out per 1M tokens, from the service's price list.");
    const settings = modelInformation({ id: 'clip' }, {}, 'x', { kind: 'per-call', usd: 0.4, source: 'settings' });
    assert.equal(settings.detail, 'Promptreel · $0.40 per request');
    assert.match(settings.tooltip, /\nPrice: \$0\.40 per request, from the promptreel\.models\.prices setting\.$/);
  });

  it('names no price when none is known', () => {
    const info = modelInformation({ id: 'm' }, {}, 'x');
    assert.equal(info.detail, 'Promptreel');
    assert.doesNotMatch(info.tooltip, /Price/);
  });

  it('fills what a declaration leaves out: the settings, then the model list, then the assumptions', () => {
    assert.deepEqual(resolveCapabilities({ vision: true }), {
      ...DEFAULT_CAPABILITIES,
      vision: true,
      toolsKnown: false,
      strictToolSchemas: false,
      jsonMode: true,
      reasoning: {},
    });
    const listed = resolveCapabilities({ tools: false }, { contextWindow: 32_000, maxOutputTokens: 8_000, tools: true, vision: true });
    assert.deepEqual(
      [listed.contextWindow, listed.outputLimit, listed.maxOutputTokens, listed.tools, listed.toolsKnown, listed.vision],
      [32_000, 8_000, 8_000, false, true, true],
    );
  });
});
