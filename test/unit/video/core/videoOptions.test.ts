import * as assert from 'node:assert/strict';
import { videoBody } from '../../../../src/api/client';
import { cleanPrompt, explainerPrompt, MAX_CODE_CHARS, writeExplainerPrompt } from '../../../../src/video/core/explainerPrompt';
import { resolveCapabilities } from '../../../../src/chatRequest/capabilities';
import {
  defaultOptions,
  generateArgsSchema,
  optionsFromRequest,
  secondsProblem,
  seedProblem,
  toCreateRequest,
  withOverrides,
} from '../../../../src/video/core/videoOptions';
import type { VideoSettings } from '../../../../src/config/settings';

const SETTINGS: VideoSettings = {
  model: 'promptreel-video',
  seconds: '5',
  resolution: '720p',
  ratio: 'adaptive',
  generateAudio: true,
  watermark: false,
  moderator: true,
  downloadFolder: 'videos',
  pollIntervalSeconds: 5,
  historySize: 50,
  staleAfterHours: 24,
  autoDownload: false,
  seed: null,
  maxVariants: 4,
  recipes: [],
};

describe('video options', () => {
  it('builds the documented body from the settings: seconds as a string, moderator, metadata', () => {
    const request = toCreateRequest('A boat', defaultOptions(SETTINGS));
    assert.deepEqual(videoBody(request), {
      model: 'promptreel-video',
      prompt: 'A boat',
      seconds: '5',
      moderator: true,
      metadata: { resolution: '720p', ratio: 'adaptive', generate_audio: true, watermark: false },
    });
    const seeded = toCreateRequest('A boat', defaultOptions({ ...SETTINGS, seed: 7 }));
    assert.equal(seeded.metadata?.seed, 7);
  });

  it('applies command arguments over the settings, and reads a stored request back', () => {
    const parsed = generateArgsSchema.parse({ prompt: ' A boat ', seconds: 8, seed: null, watermark: true });
    assert.equal(parsed.prompt, 'A boat');
    assert.equal(parsed.seconds, '8', 'a number becomes a string');
    const options = withOverrides(defaultOptions({ ...SETTINGS, seed: 3 }), parsed);
    assert.equal(options.seed, undefined, 'null removes the configured seed');
    assert.equal(options.watermark, true);
    assert.equal(generateArgsSchema.safeParse({ prompt: 'x', unknown: 1 }).success, false, 'unknown fields are refused');
    assert.equal(generateArgsSchema.safeParse({ seconds: '5s' }).success, false);
    for (const seconds of ['0', 0, '999999', 61]) assert.equal(generateArgsSchema.safeParse({ seconds }).success, false, `issue 11.14: ${seconds}`);
    const request = toCreateRequest('p', { ...options, seed: 9 });
    assert.deepEqual(optionsFromRequest(request, defaultOptions(SETTINGS)), { ...options, seed: 9 });
  });

  it('validates the duration and the seed as the input boxes do', () => {
    assert.equal(secondsProblem('5'), null);
    assert.equal(secondsProblem(' 60 '), null);
    for (const bad of ['0', '61', '5.5', 'five', '']) assert.ok(secondsProblem(bad), bad);
    assert.equal(seedProblem(''), null);
    assert.equal(seedProblem('4294967295'), null);
    for (const bad of ['-1', '4294967296', '1.5', 'x']) assert.ok(seedProblem(bad), bad);
  });
});

describe('explainer prompt', () => {
  it('asks the chat model with the code, its file and language', () => {
    const prompt = explainerPrompt('x'.repeat(MAX_CODE_CHARS + 50), 'typescript', 'src/a.ts');
    assert.match(prompt.instructions ?? '', /prompts for a text-to-video model/);
    const user = String(prompt.messages[0]?.content);
    assert.ok(user.startsWith('File: src/a.ts (typescript)'));
    assert.ok(user.endsWith('… (cut)'), 'long code is cut');
    assert.ok(user.length < MAX_CODE_CHARS + 100);
  });

  it('cleans the reply into a one-paragraph prompt', () => {
    assert.equal(cleanPrompt('```\nPrompt: "A ball rolls\n down a ramp."\n```'), 'A ball rolls down a ramp.');
    assert.equal(cleanPrompt('  Video prompt:   Gears   turning  '), 'Gears turning');
    assert.equal(cleanPrompt('x'.repeat(5000)).length, 2000);
  });

  it('returns the cleaned text of the completion', async () => {
    const client = { createChatCompletion: async () => ({ text: '"A loop of boxes."', toolCalls: [], finishReason: 'stop' }) };
    const model = {
      model: 'm',
      settings: { model: 'm', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null },
      capabilities: resolveCapabilities(undefined),
    };
    assert.equal(await writeExplainerPrompt(client, model, 'code', 'ts', 'a.ts'), 'A loop of boxes.');
  });
});
