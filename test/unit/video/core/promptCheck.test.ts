import * as assert from 'node:assert/strict';
import { checkPrompt, describeProblems, unfilledPlaceholders } from '../../../../src/video/core/promptCheck';
import { describeDurations, videoModelLimits } from '../../../../src/video/core/videoModelLimits';

describe('issue 16.4: video model limits and the prompt check before charging', () => {
  it('reads the limits from the settings, and a first frame from the model list where the gateway says so', () => {
    assert.deepEqual(videoModelLimits(undefined, undefined), { firstFrame: false });
    assert.deepEqual(videoModelLimits({ durations: [10, 5, 10], maxPromptLength: 800 }, undefined), {
      durations: [5, 10],
      maxPromptLength: 800,
      firstFrame: false,
    });
    const listedWithImages = { id: 'v', limits: { vision: true } };
    assert.equal(videoModelLimits(undefined, listedWithImages).firstFrame, true);
    // The settings win over the list, both ways.
    assert.equal(videoModelLimits({ firstFrame: false }, listedWithImages).firstFrame, false);
    assert.equal(videoModelLimits({ firstFrame: true }, { id: 'v' }).firstFrame, true);
    assert.equal(videoModelLimits({ durations: [] }, undefined).durations, undefined);
  });

  it('says nothing about a request that fits, or about a model nothing is known of', () => {
    assert.deepEqual(checkPrompt({ prompt: 'a boat', seconds: '5', model: 'm' }, { durations: [5, 10], maxPromptLength: 10, firstFrame: false }), []);
    assert.deepEqual(checkPrompt({ prompt: 'x'.repeat(5000), seconds: '59', model: 'm' }, { firstFrame: false }), []);
    assert.equal(describeProblems([]), undefined);
  });

  it('names a prompt longer than the model accepts, counting characters rather than UTF-16 units', () => {
    const problems = checkPrompt({ prompt: '🌊'.repeat(11), model: 'wave-1' }, { maxPromptLength: 10, firstFrame: false });
    assert.deepEqual(problems, [{ kind: 'prompt-too-long', message: 'The prompt has 11 characters; wave-1 accepts at most 10.' }]);
    assert.deepEqual(checkPrompt({ prompt: '🌊'.repeat(10), model: 'wave-1' }, { maxPromptLength: 10, firstFrame: false }), []);
  });

  it('names a duration the model does not offer, with the ones it does', () => {
    const problems = checkPrompt({ prompt: 'p', seconds: '7', model: 'wave-1' }, { durations: [5, 8, 10], firstFrame: false });
    assert.deepEqual(problems, [{ kind: 'duration-not-offered', message: 'wave-1 offers 5, 8 or 10 seconds, not 7.' }]);
    assert.equal(describeDurations([5]), '5 seconds');
    assert.equal(describeDurations([1]), '1 second');
    assert.equal(describeDurations([5, 10]), '5 or 10 seconds');
  });

  it('names each placeholder left empty once, with or without a suggestion', () => {
    const prompt = 'A {{product}} on {{ surface:white }}, {{product}} again';
    assert.deepEqual(unfilledPlaceholders(prompt), ['product', 'surface']);
    const problems = checkPrompt({ prompt, seconds: '9', model: 'm' }, { durations: [5], maxPromptLength: 20, firstFrame: false });
    assert.deepEqual(
      problems.map((problem) => problem.kind),
      ['prompt-too-long', 'duration-not-offered', 'empty-placeholder', 'empty-placeholder'],
    );
    assert.match(describeProblems(problems) ?? '', /The placeholder \{\{product\}\} is empty\. The placeholder \{\{surface\}\} is empty\.$/);
  });
});
