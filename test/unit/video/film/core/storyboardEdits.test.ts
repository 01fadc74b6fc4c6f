import * as assert from 'node:assert/strict';
import { newStoryboard, parseStoryboardFile, storyboardJson, type Storyboard } from '../../../../../src/video/film/core/storyboard';
import { applyEdit, filmFileNames, type EditResult } from '../../../../../src/video/film/core/storyboardEdits';

function board(count = 3): Storyboard {
  const shots = Array.from({ length: count }, (_unused, index) => ({ prompt: `Picture ${index + 1}`, caption: `Says ${index + 1}.`, seconds: 5 }));
  return newStoryboard({ title: 'Film', shots }, { model: 'promptreel-video', settings: {}, created: new Date(0) });
}

function edited(result: EditResult): Storyboard {
  assert.ok(result.ok, JSON.stringify(result));
  return result.storyboard;
}

describe('video/film: editing a storyboard (issue 27)', () => {
  it('issue 27: a change keeps the shot’s task unless its prompt or duration changed; empty text is refused', () => {
    const shot = { ...board(), shots: board().shots.map((each) => ({ ...each, taskId: `task_${each.id}` })) };
    const captioned = edited(applyEdit(shot, { kind: 'change', id: 's2', caption: '  New words.  ' }));
    assert.deepEqual(captioned.shots[1], { id: 's2', prompt: 'Picture 2', caption: 'New words.', seconds: 5, taskId: 'task_s2' });
    const reshot = edited(applyEdit(shot, { kind: 'change', id: 's2', seconds: 10 }));
    assert.equal(reshot.shots[1].taskId, undefined);
    assert.equal(reshot.shots[0].taskId, 'task_s1');
    assert.equal(edited(applyEdit(shot, { kind: 'change', id: 's3', prompt: 'Other' })).shots[2].taskId, undefined);
    assert.deepEqual(applyEdit(shot, { kind: 'change', id: 's2', prompt: '   ' }), { ok: false, refusal: 'invalid' });
    assert.deepEqual(applyEdit(shot, { kind: 'change', id: 's9', caption: 'x' }), { ok: false, refusal: 'no-shot' });
    // The task id is written to the file and read back.
    const read = parseStoryboardFile(storyboardJson(captioned));
    assert.ok(read.ok);
    assert.equal(read.storyboard.shots[1].taskId, 'task_s2');
  });

  it('issue 27: the film’s model and settings change; null leaves a setting to the user’s; shots already sent keep their task and price', () => {
    const sent = {
      ...board(),
      settings: { resolution: '480p', watermark: true },
      shots: board().shots.map((each, index) => (index === 0 ? { ...each, taskId: 'task_s1', priceUsd: 0.4, chargedUsd: 0.4 } : each)),
    };
    const changed = edited(
      applyEdit(sent, { kind: 'film', model: ' promptreel-video-pro ', settings: { resolution: null, ratio: '9:16', generateAudio: false } }),
    );
    assert.equal(changed.model, 'promptreel-video-pro');
    assert.deepEqual(changed.settings, { watermark: true, ratio: '9:16', generateAudio: false }, 'resolution left to the user; watermark untouched');
    assert.deepEqual(changed.shots, sent.shots, 'the shots, their tasks and prices are what they were');
    const read = parseStoryboardFile(storyboardJson(changed));
    assert.ok(read.ok);
    assert.deepEqual([read.storyboard.model, read.storyboard.settings], [changed.model, changed.settings]);
    // Only what is named changes.
    assert.deepEqual(edited(applyEdit(changed, { kind: 'film', settings: { generateAudio: true } })).settings, {
      watermark: true,
      ratio: '9:16',
      generateAudio: true,
    });
    assert.equal(edited(applyEdit(changed, { kind: 'film', settings: { ratio: '1:1' } })).model, 'promptreel-video-pro');
    assert.deepEqual(applyEdit(sent, { kind: 'film', model: '   ' }), { ok: false, refusal: 'invalid-setting' });
    assert.deepEqual(applyEdit(sent, { kind: 'film', settings: { ratio: '' } }), { ok: false, refusal: 'invalid-setting' });
  });

  it('issue 27: shots move up and down within the film, and 3 to 8 are kept', () => {
    assert.deepEqual(
      edited(applyEdit(board(), { kind: 'move', id: 's2', by: -1 })).shots.map((shot) => shot.id),
      ['s2', 's1', 's3'],
    );
    assert.deepEqual(applyEdit(board(), { kind: 'move', id: 's1', by: -1 }), { ok: false, refusal: 'at-edge' });
    assert.deepEqual(applyEdit(board(), { kind: 'move', id: 's3', by: 1 }), { ok: false, refusal: 'at-edge' });
    assert.deepEqual(applyEdit(board(), { kind: 'remove', id: 's1' }), { ok: false, refusal: 'too-few' });
    assert.deepEqual(
      edited(applyEdit(board(4), { kind: 'remove', id: 's2' })).shots.map((shot) => shot.id),
      ['s1', 's3', 's4'],
    );
    const added = applyEdit(board(), { kind: 'add', after: 's1', shot: { prompt: 'New', caption: 'New.', seconds: 5 } });
    assert.ok(added.ok);
    assert.equal(added.shotId, 's4');
    assert.deepEqual(
      added.storyboard.shots.map((shot) => shot.id),
      ['s1', 's4', 's2', 's3'],
    );
    assert.deepEqual(applyEdit(board(8), { kind: 'add', shot: { prompt: 'N', caption: 'N.', seconds: 5 } }), { ok: false, refusal: 'too-many' });
    assert.equal(edited(applyEdit(board(7), { kind: 'add', shot: { prompt: 'N', caption: 'N.', seconds: 5 } })).shots.at(-1)?.id, 's8');
  });

  it('issue 27: what the shots were made into is kept in the file; a wrong one is named', () => {
    const made = { ...board(), output: { video: 'film.mp4', captions: 'film.vtt' } };
    const read = parseStoryboardFile(storyboardJson(made));
    assert.ok(read.ok);
    assert.deepEqual(read.storyboard.output, { video: 'film.mp4', captions: 'film.vtt' });
    assert.ok(storyboardJson(board()).indexOf('"output"') < 0, 'no output before the film is made');
    const wrong = parseStoryboardFile(JSON.stringify({ ...made, output: { video: 'film.mp4' } }));
    assert.deepEqual(wrong.ok ? [] : wrong.problems, ['output.captions: Invalid input: expected string, received undefined']);
  });

  it('issue 27: a new film’s file takes the first free name', () => {
    assert.deepEqual(filmFileNames('retry', 3), ['retry.json', 'retry-2.json', 'retry-3.json']);
  });
});
