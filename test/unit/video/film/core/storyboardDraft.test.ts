import * as assert from 'node:assert/strict';
import * as z from 'zod/mini';
import { resolveCapabilities } from '../../../../../src/chatRequest/capabilities';
import type { ChatSampling } from '../../../../../src/config/chatSampling';
import {
  chatAsker,
  describeStoryboardProblem,
  draftStoryboard,
  parseStoryboardReply,
  storyboardPrompt,
  type StoryboardInput,
} from '../../../../../src/video/film/core/storyboardDraft';
import { clientFor, useLocalService, v1Requests } from '../../../support/localService';

const SETTINGS: ChatSampling = { model: 'unused', temperature: 1, topP: 1, frequencyPenalty: 0, presencePenalty: 0, maxTokens: null };

const CODE = [
  'export async function retryWithBackoff<T>(attempt: () => Promise<T>, tries = 3): Promise<T> {',
  '  for (let n = 1; ; n++) {',
  '    try { return await attempt(); } catch (error) { if (n >= tries) throw error; await sleep(2 ** n * 100); }',
  '  }',
  '}',
].join('\n');

const INPUT: StoryboardInput = { code: CODE, languageId: 'typescript', fileName: 'src/retry.ts', durations: [4, 8, 12], defaultSeconds: 5, firstFrame: true };

function shot(prompt: string, caption: string, seconds: unknown): Record<string, unknown> {
  return { prompt, caption, seconds };
}

const VALID = JSON.stringify({
  title: 'How retries back off',
  shots: [
    shot('A parcel is thrown at a door', 'A call is attempted.', 4),
    shot('The door stays shut', 'It fails.', 8),
    shot('A clock waits', 'It waits longer.', 4),
  ],
});

const messageBody = z.object({
  messages: z.array(z.object({ role: z.string(), content: z.string() })),
  response_format: z.optional(z.object({ type: z.string() })),
});

describe('video/film: the storyboard the chat model drafts (issue 27)', () => {
  const ctx = useLocalService();

  function asker() {
    return chatAsker(clientFor(ctx.service), { model: 'promptreel-chat', settings: SETTINGS, capabilities: resolveCapabilities(undefined) });
  }

  it('issue 27: the prompt names the code, the file, the shot count, the durations the video model offers and how shots follow each other', () => {
    const prompt = storyboardPrompt({ ...INPUT, files: [{ name: 'src/sleep.ts', text: 'export const sleep = …' }], request: 'focus on the waiting' });
    assert.match(prompt.instructions, /3 to 8 shots/);
    assert.match(prompt.instructions, /durations the video model offers, in seconds: 4, 8, 12\./);
    assert.match(prompt.instructions, /starts from the last frame of the shot before/);
    assert.match(prompt.instructions, /JSON/);
    const text = String(prompt.messages[0].content);
    assert.ok(text.startsWith('File: src/retry.ts (typescript)\n\nexport async function retryWithBackoff'));
    assert.match(text, /Also mentioned: src\/sleep\.ts\n\nexport const sleep/);
    assert.match(text, /What the film should focus on: focus on the waiting$/);

    const anyDuration = storyboardPrompt({ ...INPUT, durations: undefined, firstFrame: false, maxPromptLength: 500 });
    assert.match(anyDuration.instructions, /whole number of seconds from 1 to 60; 5 suits most shots/);
    assert.match(anyDuration.instructions, /repeat the style/);
    assert.match(anyDuration.instructions, /at most 500 characters/);
  });

  it('issue 27: reads the storyboard in a fence or among words, under other common field names, with durations as strings', () => {
    const fenced = parseStoryboardReply(`Sure! Here it is:\n\n\`\`\`json\n${VALID}\n\`\`\`\nEnjoy.`, INPUT);
    assert.ok(fenced.ok);
    assert.equal(fenced.draft.title, 'How retries back off');
    assert.deepEqual(
      fenced.draft.shots.map((entry) => entry.seconds),
      [4, 8, 4],
    );
    assert.deepEqual(fenced.adjustments, []);

    const loose = parseStoryboardReply(
      `<think>Three shots.</think>The plan: ${JSON.stringify({
        scenes: [
          { visual_prompt: '  A parcel\n flies ', narration: 'A call is attempted.', duration: '5s', mood: 'calm' },
          { visualPrompt: 'A shut door', caption: 'It fails.', duration_seconds: 11 },
          { visual: 'A clock', caption: 'It waits.' },
        ],
      })} Done.`,
      INPUT,
    );
    assert.ok(loose.ok, loose.ok ? '' : JSON.stringify(loose.problems));
    assert.deepEqual(loose.draft, {
      shots: [
        { prompt: 'A parcel flies', caption: 'A call is attempted.', seconds: 4 },
        { prompt: 'A shut door', caption: 'It fails.', seconds: 12 },
        { prompt: 'A clock', caption: 'It waits.', seconds: 4 },
      ],
    });
    assert.deepEqual(loose.adjustments, [
      { shot: 0, asked: 5, used: 4 },
      { shot: 1, asked: 11, used: 12 },
      { shot: 2, used: 4 },
    ]);

    const anyDuration = parseStoryboardReply(JSON.stringify([shot('a', 'b', 7.4), shot('c', 'd', 90), shot('e', 'f', '3 seconds')]), { defaultSeconds: 5 });
    assert.ok(anyDuration.ok);
    assert.deepEqual(
      anyDuration.draft.shots.map((entry) => entry.seconds),
      [7, 60, 3],
    );
  });

  it('issue 27: names every problem of a reply that is not a storyboard, in words a person reads', () => {
    const cases: [string, string[]][] = [
      ['I cannot help with that.', ['The reply holds no JSON storyboard.']],
      ['{"shots": [', ['The reply holds no JSON storyboard.']],
      ['```json\n{"shots": [1,}\n```', ['The reply is not valid JSON (']],
      ['{"title": "x"}', ['The reply has no list of shots.']],
      [JSON.stringify({ shots: [shot('a', 'b', 4), shot('c', 'd', 4)] }), ['The reply has 2 shots; a film has 3 to 8.']],
      [
        JSON.stringify({ shots: [shot('a', '', 4), 'a string', { prompt: 'p', caption: 'c', seconds: 'long' }, shot('', 'x'.repeat(201), 4)] }),
        [
          'Shot 1 has no caption.',
          'Shot 2 is not an object with a prompt, a caption and seconds.',
          'The duration of shot 3 ("long") is not a number of seconds.',
          'Shot 4 has no visual prompt.',
          'The caption of shot 4 has 201 characters; at most 200 fit on screen.',
        ],
      ],
    ];
    for (const [reply, expected] of cases) {
      const parsed = parseStoryboardReply(reply, INPUT);
      assert.equal(parsed.ok, false, reply);
      const described = parsed.ok ? [] : parsed.problems.map(describeStoryboardProblem);
      assert.equal(described.length, expected.length, `${reply}: ${described.join(' | ')}`);
      expected.forEach((start, index) => assert.ok(described[index].startsWith(start), `${described[index]} starts with ${start}`));
    }
    const tooLong = parseStoryboardReply(JSON.stringify([shot('x'.repeat(30), 'c', 4), shot('p', 'c', 4), shot('p', 'c', 4)]), {
      ...INPUT,
      maxPromptLength: 20,
    });
    assert.deepEqual(tooLong.ok ? [] : tooLong.problems.map(describeStoryboardProblem), [
      'The prompt of shot 1 has 30 characters; the video model takes at most 20.',
    ]);
  });

  it('issue 27: a storyboard at the first answer of the local service is one chat request, in JSON mode', async () => {
    ctx.service.setScenario({ chat: { storyboardShots: 4 } });
    const outcome = await draftStoryboard(asker(), INPUT);
    assert.ok(outcome.ok);
    assert.equal(outcome.attempts, 1);
    assert.equal(outcome.draft.shots.length, 4);
    assert.match(outcome.draft.title ?? '', /^How retry/, 'a title from the code');
    assert.ok(outcome.draft.shots.every((entry) => [4, 8, 12].includes(entry.seconds)));
    const requests = v1Requests(ctx.service, 'POST', '/v1/chat/completions');
    assert.equal(requests.length, 1);
    const body = messageBody.parse(requests[0].body);
    assert.equal(body.response_format?.type, 'json_object');
    assert.equal(body.messages[0].role, 'system');
    assert.match(body.messages[1].content, /retryWithBackoff/);
  });

  it('issue 27: a reply that is not a storyboard is asked again once, with the reply and what was wrong', async () => {
    ctx.service.setScenario({ chat: { replies: ['Here are two shots: ' + JSON.stringify({ shots: [shot('a', 'b', 4), shot('c', '', 4)] }), VALID] } });
    const outcome = await draftStoryboard(asker(), INPUT);
    assert.ok(outcome.ok);
    assert.equal(outcome.attempts, 2);
    assert.equal(outcome.draft.shots[1].caption, 'It fails.');
    const requests = v1Requests(ctx.service, 'POST', '/v1/chat/completions');
    assert.equal(requests.length, 2);
    const again = messageBody.parse(requests[1].body).messages;
    assert.deepEqual(
      again.map((message) => message.role),
      ['system', 'user', 'assistant', 'user'],
    );
    assert.match(again[2].content, /^Here are two shots/);
    assert.equal(
      again[3].content,
      [
        'That reply is not a valid storyboard:',
        '- It has 2 shots; write 3 to 8.',
        '- Shot 2 has no "caption".',
        'Reply again with the whole storyboard as one JSON object in the form asked, and nothing else.',
      ].join('\n'),
    );
  });

  it('issue 27: after a second reply that is no storyboard either, gives back its text and problems, and asks no third time', async () => {
    ctx.service.setScenario({ chat: { replies: ['No.', 'Still no storyboard, sorry.'] } });
    const outcome = await draftStoryboard(asker(), INPUT);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.ok ? '' : outcome.text, 'Still no storyboard, sorry.');
    assert.deepEqual(outcome.ok ? [] : outcome.problems.map(describeStoryboardProblem), ['The reply holds no JSON storyboard.']);
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/chat/completions').length, 2);
  });

  it('issue 27: cancelling closes the request and asks nothing more', async () => {
    ctx.service.setScenario({ chat: { replies: ['No.'], firstChunkDelayMs: 0 }, latencyMs: 2_000 });
    const controller = new AbortController();
    const drafting = draftStoryboard(asker(), INPUT, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await assert.rejects(drafting);
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/chat/completions').length, 1);
    await ctx.service.waitForSocketsClosed();
  });
});
