import * as assert from 'node:assert/strict';
import { parseModelList } from '../../../../src/api/models';
import { modelInformation } from '../../../../src/languageModels/core/modelInformation';
import { TokenCalibration } from '../../../../src/languageModels/core/tokenCalibration';

describe('model limits from /v1/models, settings over them, and a calibrated token count', () => {
  it('reads the limits gateways publish, in their different words, and ignores what does not fit', () => {
    const models = parseModelList({
      data: [
        { id: 'plain' },
        { id: 'vllm', max_model_len: 32_768 },
        {
          id: 'litellm',
          max_input_tokens: 100_000,
          max_output_tokens: 8_000,
          supported_parameters: ['tools', 'temperature'],
          input_modalities: ['text', 'image'],
        },
        {
          id: 'openrouter',
          context_length: 200_000,
          architecture: { input_modalities: ['text'] },
          top_provider: { max_completion_tokens: 64_000 },
          supported_parameters: ['temperature'],
        },
        { id: 'odd', context_length: 'big', max_output_tokens: -1, input_modalities: 'image' },
      ],
    });
    assert.deepEqual(
      models?.map((model) => [model.id, model.limits]),
      [
        ['plain', undefined],
        ['vllm', { contextWindow: 32_768 }],
        ['litellm', { maxInputTokens: 100_000, maxOutputTokens: 8_000, vision: true, tools: true }],
        ['openrouter', { contextWindow: 200_000, maxOutputTokens: 64_000, vision: false, tools: false }],
        ['odd', undefined],
      ],
    );
  });

  it('tells VS Code the listed limits, with promptreel.models.capabilities over them, and the most tools a model takes', () => {
    const listed = { id: 'm', limits: { contextWindow: 32_000, maxOutputTokens: 4_000, vision: true, tools: false } };
    const fromList = modelInformation(listed, undefined, 'x');
    assert.deepEqual([fromList.maxInputTokens, fromList.maxOutputTokens, fromList.capabilities], [28_000, 4_000, { imageInput: true, toolCalling: false }]);
    assert.doesNotMatch(fromList.tooltip, /capabilities assumed/);
    const overridden = modelInformation(listed, { contextWindow: 16_000, tools: true, maxTools: 64 }, 'x');
    assert.deepEqual([overridden.maxInputTokens, overridden.capabilities], [12_000, { imageInput: true, toolCalling: 64 }]);
    assert.equal(modelInformation({ id: 'm', limits: { maxInputTokens: 100_000 } }, undefined, 'x').maxInputTokens, 100_000);
  });

  it('follows the prompt tokens the service counted, smoothly and within bounds', () => {
    const calibration = new TokenCalibration();
    assert.equal(calibration.calibrate('m', 100), 100, 'unchanged before any report');
    calibration.record('m', 100, 150);
    assert.equal(calibration.calibrate('m', 100), 150);
    calibration.record('m', 100, 100);
    assert.equal(calibration.calibrate('m', 100), 135, 'moves part of the way');
    calibration.record('n', 10, 10_000);
    assert.equal(calibration.factor('n'), 3, 'an odd report is bounded');
    calibration.record('n', 0, 5);
    assert.equal(calibration.factor('n'), 3, 'nothing to learn from an empty estimate');
    assert.equal(calibration.calibrate('other', 100), 100, 'per model');
  });
});
