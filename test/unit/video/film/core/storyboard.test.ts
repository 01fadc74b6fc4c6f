import * as assert from 'node:assert/strict';
import {
  filmFileStem,
  newShotId,
  newStoryboard,
  parseStoryboardFile,
  plannedSeconds,
  storyboardJson,
  type Storyboard,
} from '../../../../../src/video/film/core/storyboard';
import { filmCues, vttTime, webVtt } from '../../../../../src/video/film/core/filmCaptions';

const DRAFT = {
  title: 'How retries back off',
  shots: [
    { prompt: 'A parcel is thrown at a door', caption: 'A call is attempted.', seconds: 4 },
    { prompt: 'The door stays shut', caption: 'It fails.', seconds: 8 },
    { prompt: 'A clock waits', caption: 'It waits longer each time.', seconds: 4 },
  ],
};

function storyboard(): Storyboard {
  return newStoryboard(DRAFT, {
    model: 'promptreel-video',
    settings: { resolution: '720p', ratio: '16:9', generateAudio: true },
    source: { file: 'src/net/retry.ts', startLine: 12, endLine: 40, language: 'typescript' },
    created: new Date('2026-11-27T10:00:00Z'),
  });
}

describe('video/film: the storyboard file (issue 27)', () => {
  it('issue 27: a new storyboard has ids, the draft’s title, the film’s model and settings, and the code it explains; its file reads back the same', () => {
    const board = storyboard();
    assert.deepEqual(
      board.shots.map((shot) => shot.id),
      ['s1', 's2', 's3'],
    );
    assert.equal(board.name, 'How retries back off');
    assert.equal(board.created, '2026-11-27T10:00:00.000Z');
    assert.equal(plannedSeconds(board), 16);
    const text = storyboardJson(board);
    assert.ok(text.startsWith('{\n  "version": 1,\n  "name": "How retries back off",\n  "created"'), text);
    assert.ok(text.endsWith('}\n'));
    const read = parseStoryboardFile(text);
    assert.ok(read.ok);
    assert.deepEqual(read.storyboard, board);
    assert.equal(newStoryboard({ shots: DRAFT.shots }, { model: 'm', settings: {}, created: new Date(0) }).name, 'Explainer film');
    assert.equal(newStoryboard({ shots: DRAFT.shots }, { model: 'm', settings: {}, created: new Date(0), source: board.source }).name, 'retry.ts');
  });

  it('issue 27: a hand-edited file is checked, every problem named with its shot; unknown fields are dropped', () => {
    const board = JSON.parse(storyboardJson(storyboard())) as Record<string, unknown> & { shots: Record<string, unknown>[] };
    const extra = parseStoryboardFile(JSON.stringify({ ...board, comment: 'mine', shots: board.shots.map((shot) => ({ ...shot, take: 2 })) }));
    assert.ok(extra.ok);
    assert.equal('comment' in extra.storyboard, false);

    board.shots[1] = { ...board.shots[1], caption: '', seconds: 0 };
    board.shots[2] = { ...board.shots[2], id: 's1' };
    const broken = parseStoryboardFile(JSON.stringify(board));
    assert.equal(broken.ok, false);
    const problems = broken.ok ? [] : broken.problems;
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.equal(problems[0], 'shot 2, caption: Too small: expected string to have >=1 characters');
    assert.equal(problems[1], 'shot 2, seconds: Too small: expected number to be >=1');
    assert.equal(problems[2], 'shot 3, id: another shot has the id "s1"');

    const two = parseStoryboardFile(JSON.stringify({ ...storyboard(), shots: storyboard().shots.slice(0, 2) }));
    assert.deepEqual(two.ok ? [] : two.problems, ['shots: Too small: expected array to have >=3 items']);
    const lines = parseStoryboardFile(JSON.stringify({ ...storyboard(), source: { file: 'a.ts', startLine: 9, endLine: 3 } }));
    assert.deepEqual(lines.ok ? [] : lines.problems, ['source.endLine: the last line comes before the first']);
    assert.deepEqual(parseStoryboardFile('{"version": 2}'), {
      ok: false,
      problems: ['The storyboard was written by a newer Promptreel (version 2; this one reads version 1). Update Promptreel to open it.'],
    });
    const notJson = parseStoryboardFile('{');
    assert.match(notJson.ok ? '' : notJson.problems[0], /^The file is not JSON \(/);
  });

  it('issue 27: the record keeps each shot’s price and charged cost; a file written before them still opens', () => {
    const board = storyboard();
    const priced: Storyboard = {
      ...board,
      shots: board.shots.map((shot, index) => (index === 0 ? { ...shot, taskId: 'task-1', priceUsd: 0.4, chargedUsd: 0.38 } : shot)),
    };
    const read = parseStoryboardFile(storyboardJson(priced));
    assert.ok(read.ok);
    assert.deepEqual(read.storyboard.shots[0], { ...board.shots[0], taskId: 'task-1', priceUsd: 0.4, chargedUsd: 0.38 });
    assert.equal('priceUsd' in read.storyboard.shots[1], false);
    const old = JSON.parse(storyboardJson(board)) as { shots: Record<string, unknown>[] };
    old.shots[0] = { ...old.shots[0], taskId: 'task-old' };
    const older = parseStoryboardFile(JSON.stringify(old));
    assert.ok(older.ok, 'a file without prices opens');
    assert.equal(older.storyboard.shots[0].priceUsd, undefined);
    const negative = parseStoryboardFile(storyboardJson({ ...board, shots: board.shots.map((shot) => ({ ...shot, priceUsd: -1 })) }));
    assert.equal(negative.ok, false);
  });

  it('issue 27: new shot ids are free ones, and file names are safe', () => {
    assert.equal(newShotId([{ id: 's1' }, { id: 's2' }, { id: 's3' }]), 's4');
    assert.equal(newShotId([{ id: 's4' }, { id: 's2' }, { id: 's3' }]), 's5');
    assert.equal(filmFileStem('How retries back off!'), 'how-retries-back-off');
    assert.equal(filmFileStem('../../etc/passwd'), 'etc-passwd');
    assert.equal(filmFileStem('重试'), 'film');
    assert.equal(filmFileStem('Café Ünïcode'), 'cafe-unicode');
  });
});

describe('video/film: the captions (issue 27)', () => {
  it('issue 27: one cue per shot, end to end, in WebVTT that no caption can break', () => {
    const cues = filmCues([
      { seconds: 4.004, caption: 'First --> <b>bold</b> & co' },
      { seconds: 8, caption: 'Two lines\n\n\nof text' },
      { seconds: 3600, caption: 'Long' },
    ]);
    assert.deepEqual(
      cues.map((cue) => [cue.start, cue.end]),
      [
        [0, 4.004],
        [4.004, 12.004],
        [12.004, 3612.004],
      ],
    );
    assert.equal(
      webVtt(cues),
      'WEBVTT\n\n' +
        '00:00:00.000 --> 00:00:04.004\nFirst --&gt; &lt;b&gt;bold&lt;/b&gt; &amp; co\n\n' +
        '00:00:04.004 --> 00:00:12.004\nTwo lines\nof text\n\n' +
        '00:00:12.004 --> 01:00:12.004\nLong\n\n',
    );
    assert.equal(vttTime(59.9996), '00:01:00.000');
    assert.equal(webVtt([]), 'WEBVTT\n\n');
  });
});
