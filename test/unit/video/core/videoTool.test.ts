import * as assert from 'node:assert/strict';
import { callKey, REMEMBERED_MS, ToolCallLedger } from '../../../../src/video/core/toolCallLedger';
import { escapeMarkdown, parseToolInput, toolConfirmation, toolOptions } from '../../../../src/video/core/toolInput';
import type { VideoOptions } from '../../../../src/video/core/videoOptions';
import { FakeClock } from '../../../fakes/fakeClock';

const DEFAULTS: VideoOptions = {
  model: 'promptreel-video',
  seconds: '5',
  resolution: '720p',
  ratio: 'adaptive',
  generateAudio: true,
  watermark: false,
  moderator: true,
  seed: undefined,
};

describe('issue 16.1: the video tool for agents', () => {
  it('takes a prompt and what the model asked for over the settings; drops unknown fields', () => {
    const parsed = parseToolInput({ prompt: '  a boat  ', seconds: 10, ratio: '16:9', extra: true });
    assert.ok('input' in parsed);
    assert.deepEqual(parsed.input, { prompt: 'a boat', seconds: 10, ratio: '16:9' });
    assert.deepEqual(toolOptions(parsed.input, DEFAULTS), { ...DEFAULTS, seconds: '10', ratio: '16:9' });
    assert.deepEqual(toolOptions({ prompt: 'p', model: 'other', seed: 3, resolution: '1080p' }, DEFAULTS), {
      ...DEFAULTS,
      model: 'other',
      seed: 3,
      resolution: '1080p',
    });
  });

  it('refuses input that does not fit, saying what to fix', () => {
    for (const [input, pattern] of [
      [{}, /prompt/],
      [{ prompt: '   ' }, /prompt: the prompt is empty/],
      [{ prompt: 'p', seconds: 0 }, /seconds/],
      [{ prompt: 'p', seconds: 4.5 }, /seconds/],
      [{ prompt: 'p', seed: -1 }, /seed/],
      ['a string', /input/],
    ] as const) {
      const parsed = parseToolInput(input);
      assert.ok('problem' in parsed, JSON.stringify(input));
      assert.match(parsed.problem, pattern);
    }
  });

  it('puts the price in the title and the prompt, model, settings, what the key keeps and the checks in the message', () => {
    const confirmation = toolConfirmation(
      'A *bold* [link](https://x.invalid) boat',
      { ...DEFAULTS, seed: 42 },
      { id: 'quote', requests: [], charge: { priceUsd: 0.4, leftUsd: 3.2, leftAfterUsd: 2.8, unlimited: false }, fromFolder: [] },
      [{ kind: 'duration-not-offered', message: 'promptreel-video offers 10 seconds, not 5.' }],
    );
    assert.equal(confirmation.title, 'Generate a video for $0.40?');
    const lines = confirmation.message.split('\n\n');
    assert.equal(lines[0], '**Prompt:** A \\*bold\\* \\[link\\]\\(https://x\\.invalid\\) boat');
    assert.equal(lines[1], '**Model:** `promptreel-video`');
    assert.equal(lines[2], '**Settings:** 5 s · 720p · adaptive · audio on · watermark off · seed 42 · content review on');
    assert.equal(lines[3], '**Price:** $0.40 · $2.80 left after');
    assert.equal(lines[4], '**Check:** promptreel\\-video offers 10 seconds, not 5\\.');
    assert.match(lines[5], /never sent twice/);
  });

  it('says so when the price is not known, and names a key that cannot pay', () => {
    const confirmation = toolConfirmation(
      'p',
      DEFAULTS,
      { id: 'quote', requests: [], charge: { unlimited: false, warning: 'Your key has expired. The service will likely refuse it.' }, fromFolder: [] },
      [],
    );
    assert.equal(confirmation.title, 'Generate a video (price not known)?');
    assert.match(confirmation.message, /\*\*Price:\*\* not known for this model/);
    assert.match(confirmation.message, /\*\*Note:\*\* Your key has expired\\\. /);
    assert.equal(escapeMarkdown('![x](y)'), '\\!\\[x\\]\\(y\\)');
  });

  it('runs a call once: the same call while it runs, or within a minute after, shares its result', async () => {
    const clock = new FakeClock();
    const ledger = new ToolCallLedger<string>(clock);
    let runs = 0;
    let release: (value: string) => void = () => undefined;
    const start = () => {
      runs++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const key = callKey({ sessionId: 's1' }, { prompt: 'p', model: 'm' });
    const first = ledger.run(key, start);
    const again = ledger.run(callKey({ sessionId: 's1' }, { model: 'm', prompt: 'p' }), start);
    assert.equal(first.repeated, false);
    assert.equal(again.repeated, true, 'key order does not matter');
    assert.equal(runs, 1);
    release('task_1');
    assert.equal(await again.result, 'task_1');
    assert.equal(ledger.run(callKey({ sessionId: 's2' }, { prompt: 'p', model: 'm' }), start).repeated, false, 'another chat is another call');
    assert.equal(ledger.run(callKey(undefined, { prompt: 'p', model: 'm' }), start).repeated, false, 'a call from outside a chat too');
    assert.equal(runs, 3);
    await clock.advance(REMEMBERED_MS + 1);
    assert.equal(ledger.run(key, start).repeated, false, 'forgotten a minute after it ended');
    assert.equal(runs, 4);
  });

  it('VS Code 1.104: tells whether a call would share an earlier run (nothing to confirm for it)', async () => {
    const clock = new FakeClock();
    const ledger = new ToolCallLedger<string>(clock);
    assert.equal(ledger.has('k'), false);
    let release: (value: string) => void = () => undefined;
    const { result } = ledger.run('k', () => new Promise<string>((resolve) => (release = resolve)));
    assert.equal(ledger.has('k'), true, 'while it runs');
    release('task_1');
    await result;
    assert.equal(ledger.has('k'), true, 'after it ended');
    assert.equal(ledger.has('other'), false);
    await clock.advance(REMEMBERED_MS + 1);
    assert.equal(ledger.has('k'), false, 'forgotten a minute after it ended');
  });

  it('remembers a failed call too (a retry after a lost answer must not send again)', async () => {
    const ledger = new ToolCallLedger<string>(new FakeClock());
    const failed = ledger.run('k', () => Promise.reject(new Error('lost')));
    await assert.rejects(failed.result, /lost/);
    const again = ledger.run('k', () => Promise.resolve('sent twice'));
    assert.equal(again.repeated, true);
    await assert.rejects(again.result, /lost/);
  });
});
