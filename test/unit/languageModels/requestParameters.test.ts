import * as assert from 'assert';
import type { ChatSettings } from '../../../src/config/settings';
import { samplingParameters } from '../../../src/chatRequest/sampling';

const defaults: ChatSettings = { model: 'm', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };

describe('language models: request parameters', () => {
  it('sends nothing when everything is at the API defaults', () => {
    assert.deepStrictEqual(samplingParameters(defaults, undefined), {});
  });

  it('sends the settings that differ from the defaults', () => {
    assert.deepStrictEqual(samplingParameters({ ...defaults, temperature: 0.2, presencePenalty: 0.5, maxTokens: 500 }, undefined), {
      temperature: 0.2,
      presence_penalty: 0.5,
      max_tokens: 500,
    });
  });

  it("lets the caller's modelOptions win, and ignores invalid or unknown ones", () => {
    assert.deepStrictEqual(samplingParameters({ ...defaults, temperature: 0.2 }, undefined, { temperature: 1, top_p: 7, max_tokens: 64, foo: 'bar' }), {
      temperature: 1,
      max_tokens: 64,
    });
    assert.deepStrictEqual(samplingParameters(defaults, undefined, 'not an object'), {});
  });

  it('leaves sampling out for a model declared without it', () => {
    assert.deepStrictEqual(samplingParameters({ ...defaults, temperature: 0.2 }, { sampling: false }, { top_p: 0.5 }), {});
  });

  it('uses the declared max output when nothing else is set, and never exceeds it', () => {
    assert.deepStrictEqual(samplingParameters(defaults, { maxOutputTokens: 2_000 }), { max_tokens: 2_000 });
    assert.deepStrictEqual(samplingParameters({ ...defaults, maxTokens: 9_000 }, { maxOutputTokens: 2_000 }), { max_tokens: 2_000 });
    assert.deepStrictEqual(samplingParameters({ ...defaults, maxTokens: 9_000 }, undefined), { max_tokens: 9_000 });
  });
});
