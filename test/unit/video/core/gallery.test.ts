import * as assert from 'node:assert/strict';
import { cardActions, galleryCard, galleryEntries, galleryModels, type CardContext } from '../../../../src/video/core/galleryCards';
import { galleryToHostSchema } from '../../../../src/video/gallery/protocol';
import type { VideoTaskRecord } from '../../../../src/video/core/videoTaskRecord';

const SERVICE = 'http://127.0.0.1:1';
const SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

function task(id: string, fields: Partial<VideoTaskRecord> = {}): VideoTaskRecord {
  return {
    id,
    service: SERVICE,
    state: 'queued',
    rawStatus: 'queued',
    createdAt: 0,
    updatedAt: 0,
    prompt: `prompt ${id}`,
    model: 'promptreel-video',
    ...fields,
  };
}

const context: CardContext = {
  service: SERVICE,
  videoSources: new Map([['done', `${SOURCE}/videos/done.mp4`]]),
  priceOf: (model) => (model === 'promptreel-video' ? 0.4 : undefined),
  formatTime: () => 'today',
};

describe('issue 16.2: the gallery', () => {
  it('makes a card of each task: state, duration, model, prompt, price, and the video where it is downloaded', () => {
    const card = galleryCard(
      task('done', {
        state: 'completed',
        downloadedPath: '/w/videos/done.mp4',
        priceUsd: 0.5,
        request: { model: 'promptreel-video', prompt: 'p', seconds: '8' },
      }),
      context,
    );
    assert.deepEqual(card, {
      id: 'done',
      state: 'downloaded',
      stateLabel: 'Downloaded',
      prompt: 'prompt done',
      model: 'promptreel-video',
      duration: '8 s',
      price: '$0.50',
      created: 'today',
      videoSrc: `${SOURCE}/videos/done.mp4`,
      fileName: 'done.mp4',
      elsewhere: false,
      actions: ['open', 'reveal', 'regenerate', 'copyPrompt', 'copyId', 'remove'],
    });
    // A completed task whose file is gone shows as completed, without a video, with Download.
    const gone = galleryCard(task('gone', { state: 'completed', downloadedPath: '/w/videos/gone.mp4' }), context);
    assert.equal(gone.state, 'completed');
    assert.equal(gone.videoSrc, undefined);
    assert.equal(gone.price, '$0.40', 'the price of the model now, for a task that kept none');
    assert.deepEqual(gone.actions.slice(0, 2), ['download', 'open']);
  });

  it('offers the buttons of the tree for each state', () => {
    const running = task('r', { state: 'running', progress: 50, request: { model: 'm', prompt: 'p' } });
    assert.equal(galleryCard(running, context).stateLabel, 'Running · 50%');
    assert.deepEqual(cardActions(running, 'running', false), ['refresh', 'regenerate', 'copyPrompt', 'copyId', 'remove']);
    const failed = task('f', { state: 'failed', error: 'rejected' });
    assert.equal(galleryCard(failed, context).note, 'rejected');
    assert.deepEqual(cardActions(failed, 'failed', false), ['copyPrompt', 'copyId', 'remove']);
    const lost = task('lost-1', {
      state: 'unconfirmed',
      request: { model: 'm', prompt: 'p' },
      source: { uri: 'file:///a', startLine: 0, startCharacter: 0, endLine: 1, endCharacter: 0 },
    });
    assert.deepEqual(cardActions(lost, 'unconfirmed', false), ['track', 'goToSource', 'copyPrompt', 'remove']);
    const tracked = task('t', { prompt: undefined, model: undefined });
    const trackedCard = galleryCard(tracked, context);
    assert.match(trackedCard.prompt, /tracked by id/);
    assert.equal(trackedCard.model, 'unknown model');
    assert.deepEqual(trackedCard.actions, ['refresh', 'copyId', 'remove']);
  });

  it("shows another service's task as such, with copy and remove only", () => {
    const card = galleryCard(task('x', { service: 'http://elsewhere', state: 'completed' }), context);
    assert.equal(card.elsewhere, true);
    assert.equal(card.stateLabel, 'Completed · on http://elsewhere');
    assert.deepEqual(card.actions, ['copyPrompt', 'copyId', 'remove']);
  });

  it('groups variants as the tree does, and lists the models for the filter', () => {
    const group = (index: number) => ({ id: 'g', label: '2 variants · boat', index, count: 2 });
    const tasks = [task('v2', { group: group(1), state: 'running' }), task('solo', { model: 'other' }), task('v1', { group: group(0) })];
    const entries = galleryEntries(tasks, context);
    assert.deepEqual(
      entries.map((entry) =>
        entry.kind === 'card' ? entry.card.id : `${entry.group.label}: ${entry.group.cards.map((card) => card.id).join(',')} (${entry.group.summary})`,
      ),
      ['2 variants · boat: v1,v2 (1 queued · 1 running)', 'solo'],
    );
    assert.deepEqual(galleryModels(tasks), ['other', 'promptreel-video']);
  });

  it('checks every message of the page: known actions on a task id, poster reports, nothing else', () => {
    assert.ok(galleryToHostSchema.safeParse({ type: 'ready' }).success);
    assert.ok(galleryToHostSchema.safeParse({ type: 'action', action: 'download', id: 'task_1' }).success);
    assert.ok(galleryToHostSchema.safeParse({ type: 'poster', id: 'task_1', width: 320, height: 180 }).success);
    for (const junk of [
      { type: 'action', action: 'runCommand', id: 'task_1' },
      { type: 'action', action: 'remove', id: '' },
      { type: 'action', action: 'remove' },
      { type: 'poster', id: 'task_1', width: -1, height: 1 },
      { type: 'eval', code: 'alert(1)' },
      'ready',
      null,
    ]) {
      assert.equal(galleryToHostSchema.safeParse(junk).success, false, JSON.stringify(junk));
    }
  });
});
