import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { FilmOutcome } from '../../../../src/video/film/filmCommand';
import type { FilmEditorHost } from '../../../../src/video/film/filmEditorHost';
import type { AssembledFilm } from '../../../../src/video/film/filmAssembly';
import type { FilmView } from '../../../../src/video/film/protocol';
import { parseStoryboardFile, type Storyboard } from '../../../../src/video/film/core/storyboard';
import { useConnectedService } from '../../support/connectedService';
import { closeAllEditors, workspaceUri } from '../../support/workspace';
import { assertStrictPage } from '../../support/webviewPage';
import type { RecordedMessage } from '../../support/recordMessages';
import { filmClipPath, type FilmClip } from '../../../service/filmClips';
import { isMultipartBody } from '../../../service';
import { MAX_VIDEO_SECONDS } from '../../../../src/api/video/request';
import { parseFramePng } from '../../../../src/video/film/core/framePng';
import { distance, fingerprint, pngPixels } from './pngPixels';
import { recordMessages, setSetting, testApi, VIDEO, videoPosts, waitFor } from '../videoTestSupport';

const FILMS = ['.promptreel', 'films'];
/** What ffmpeg decodes of the first and last frame of each film clip (scripts/make-film-frames.js). */
const FRAMES = JSON.parse(fs.readFileSync(filmClipPath('shot-a').replace(/shot-a\.mp4$/, 'frames.json'), 'utf8')) as Record<
  FilmClip,
  { width: number; height: number; first: number[]; last: number[] }
>;

async function selectSample(): Promise<void> {
  const document = await vscode.workspace.openTextDocument(workspaceUri('src', 'sample.ts'));
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(1, 0, 3, 1);
}

async function generate(answer?: (shown: RecordedMessage) => string | undefined): Promise<{ outcome: FilmOutcome | undefined; shown: RecordedMessage[] }> {
  await selectSample();
  const messages = recordMessages(answer);
  try {
    return { outcome: await vscode.commands.executeCommand<FilmOutcome | undefined>('promptreel.generateExplainerFilm'), shown: messages.shown };
  } finally {
    messages.restore();
  }
}

function drafted(outcome: FilmOutcome | undefined): Extract<FilmOutcome, { kind: 'drafted' }> & { editor: FilmEditorHost } {
  assert.ok(outcome?.kind === 'drafted' && outcome.editor, `a storyboard was drafted and opened: ${JSON.stringify(outcome)}`);
  return outcome as Extract<FilmOutcome, { kind: 'drafted' }> & { editor: FilmEditorHost };
}

async function readBoard(file: vscode.Uri): Promise<Storyboard> {
  const read = parseStoryboardFile(new TextDecoder().decode(await vscode.workspace.fs.readFile(file)));
  assert.ok(read.ok, JSON.stringify(read));
  return read.storyboard;
}

/** The film the editor's page was last sent, once its page has loaded (said `ready`) and matches `done`. */
function shownFilm(editor: FilmEditorHost, done: (film: FilmView) => boolean = () => true): Promise<FilmView> {
  return waitFor(
    () => {
      const film = editor.view();
      return film && done(film) ? film : undefined;
    },
    { what: 'the storyboard editor to show the film', timeoutMs: 20_000 },
  );
}

function chatRequests(service: { requests: { path: string; body: unknown }[] }) {
  return service.requests.filter((request) => request.path === '/v1/chat/completions');
}

describe('video/film: Generate Explainer Film from Selection (issue 27)', () => {
  const ctx = useConnectedService(VIDEO, {
    settings: { 'chat.model': 'promptreel-chat', 'models.capabilities': undefined },
    cleanup: async () => {
      await closeAllEditors();
      await vscode.workspace.fs.delete(workspaceUri(...FILMS), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    },
  });

  it('issue 27: the storyboard is written to .promptreel/films and its editor shows the shots, their costs and the total before anything is sent', async () => {
    const api = await testApi();
    const { outcome } = await generate();
    const film = drafted(outcome);
    assert.equal(film.file.toString(), workspaceUri(...FILMS, `${film.file.path.split('/').pop()}`).toString());
    const board = await readBoard(film.file);
    assert.equal(board.shots.length, 3);
    assert.equal(board.model, 'promptreel-video');
    assert.deepEqual(board.source, { file: 'src/sample.ts', startLine: 2, endLine: 4, language: 'typescript' });
    assert.equal(chatRequests(ctx.service).length, 1, 'one chat request: the first reply was a storyboard');
    const chat = chatRequests(ctx.service)[0].body as { messages: { role: string; content: string }[] };
    assert.ok(chat.messages.at(-1)?.content.includes('src/sample.ts (typescript)'), 'the file name and language are sent');

    const shown = await shownFilm(film.editor);
    assertStrictPage((await api.video.flows.get()).films.panelOf(film.file)!.webview, 'film.js', { media: true });
    assert.deepEqual(
      shown.shots.map((shot) => [shot.id, shot.cost]),
      [
        ['s1', '$0.40'],
        ['s2', '$0.40'],
        ['s3', '$0.40'],
      ],
    );
    assert.equal(shown.total, '$1.20 · $2.00 left after');
    assert.equal(shown.shoot, 'Shoot the film for $1.20');
    assert.equal(videoPosts(ctx.service).length, 0, 'nothing is sent before Shoot');

    // A second film of the same code never overwrites the first.
    const again = drafted((await generate()).outcome);
    assert.notEqual(again.file.toString(), film.file.toString());
    assert.match(again.file.path, /-2\.json$/);
    assert.equal((await readBoard(film.file)).name, board.name);
  });

  it('issue 27: after a window reload the storyboard editor opens its file again, as the file is now; a file gone closes it', async () => {
    const films = (await (await testApi()).video.flows.get()).films;
    const film = drafted((await generate()).outcome);
    const shown = await shownFilm(film.editor);
    assert.equal(shown.uri, film.file.toString(), 'the page is sent the URI it keeps for a reload');
    films.panelOf(film.file)!.reveal();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !films.editorOf(film.file), { what: 'the editor to close' });
    const board = await readBoard(film.file);
    await vscode.workspace.fs.writeFile(
      film.file,
      new TextEncoder().encode(
        JSON.stringify({ ...board, shots: board.shots.map((shot, index) => (index === 0 ? { ...shot, caption: 'Changed while closed.' } : shot)) }),
      ),
    );

    // What VS Code does on a reload: a panel of the editor's type, given to the serializer with the state its page kept.
    const revived = vscode.window.createWebviewPanel('promptreel.filmEditor', 'restoring', vscode.ViewColumn.Active, {});
    await films.restore(revived, { file: film.file.toString() });
    const restored = films.editorOf(film.file);
    assert.ok(restored, 'the restored panel is the film’s editor');
    assert.equal(films.panelOf(film.file), revived);
    assert.equal(revived.title, `Storyboard: ${board.name}`);
    const again = await shownFilm(restored);
    assert.equal(again.shots[0].caption, 'Changed while closed.', 'the file as it is now');
    assertStrictPage(revived.webview, 'film.js', { media: true });

    const second = vscode.window.createWebviewPanel('promptreel.filmEditor', 'restoring', vscode.ViewColumn.Active, {});
    let closed = false;
    second.onDidDispose(() => (closed = true));
    await films.restore(second, { file: film.file.toString() });
    assert.ok(closed, 'a second editor of a film already open closes');
    assert.equal(films.panelOf(film.file), revived);

    for (const state of [{ file: workspaceUri(...FILMS, 'gone.json').toString() }, { file: 'not a uri' }, undefined]) {
      const gone = vscode.window.createWebviewPanel('promptreel.filmEditor', 'restoring', vscode.ViewColumn.Active, {});
      let disposed = false;
      gone.onDidDispose(() => (disposed = true));
      await films.restore(gone, state);
      assert.ok(disposed, `closed: ${JSON.stringify(state)}`);
    }
  });

  it('issue 27: edits are saved to the file at once, 3 to 8 shots kept, and the total follows', async () => {
    const { outcome } = await generate();
    const { editor, file } = drafted(outcome);
    await shownFilm(editor);
    await editor.handleMessage({ type: 'remove', id: 's1' });
    assert.equal((await readBoard(file)).shots.length, 3, 'a film keeps 3 shots');
    await editor.handleMessage({ type: 'change', id: 's2', caption: 'Edited by hand.', seconds: 10 });
    await editor.handleMessage({ type: 'move', id: 's2', by: -1 });
    await editor.handleMessage({ type: 'add', after: 's3' });
    await editor.handleMessage({ type: 'change', id: 's1', prompt: '   ' });
    for (const junk of [{ type: 'move', id: 's1', by: 2 }, { type: 'shoot!' }, { type: 'change' }, null]) await editor.handleMessage(junk);
    const board = await readBoard(file);
    assert.deepEqual(
      board.shots.map((shot) => [shot.id, shot.seconds]),
      [
        ['s2', 10],
        ['s1', board.shots[1].seconds],
        ['s3', board.shots[2].seconds],
        ['s4', board.shots[2].seconds],
      ],
    );
    assert.equal(board.shots[0].caption, 'Edited by hand.');
    assert.ok(board.shots[1].prompt.trim(), 'an empty prompt was refused');
    const shown = await shownFilm(editor, (film) => film.shots.length === 4);
    // promptreel-video is priced per call: four shots, four times its price.
    assert.equal(shown.total, '$1.60 · $1.60 left after');
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 27: the film’s model and settings are changed in the editor: saved, the durations and prices follow, and Shoot sends them', async () => {
    const api = await testApi();
    // A second video model, dearer, that offers only 4 and 8 seconds.
    const pro = { id: 'promptreel-video-pro', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] };
    ctx.service.setScenario({
      models: [
        { id: 'promptreel-chat', owned_by: 'promptreel', supported_endpoint_types: ['openai'] },
        { id: 'promptreel-video', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] },
        pro,
      ],
      account: {
        prices: [
          { model: 'promptreel-chat', modelRatio: 1.5, completionRatio: 4 },
          { model: 'promptreel-video', perCallUsd: 0.4 },
          { model: 'promptreel-video-pro', perCallUsd: 0.8 },
        ],
      },
    });
    api.connection.catalog.invalidate('the test changed the model list');
    api.connection.prices.forget();
    await setSetting('models.capabilities', { 'promptreel-video-pro': { durations: [4, 8] } });
    const { editor, file } = drafted((await generate()).outcome);
    const before = await shownFilm(editor);
    assert.deepEqual(before.models, ['promptreel-video', 'promptreel-video-pro'], 'the video models the service lists, not its chat model');
    // A drafted film keeps the resolution and ratio it was drafted with; audio is the user's.
    assert.deepEqual(
      [before.settings, before.defaults],
      [
        { resolution: '720p', ratio: 'adaptive' },
        { resolution: '720p', ratio: 'adaptive', generateAudio: true },
      ],
    );
    assert.equal(before.durations.length, MAX_VIDEO_SECONDS, 'promptreel-video declares no durations: every whole second');
    assert.equal(before.total, '$1.20 · $2.00 left after');

    await editor.handleMessage({ type: 'settings', model: 'promptreel-video-pro' });
    await editor.handleMessage({ type: 'settings', resolution: '1080p', ratio: '9:16' });
    await editor.handleMessage({ type: 'settings', generateAudio: false });
    // Stray or forged messages are dropped: values outside the offered sets, a model not offered, a model id too long.
    for (const junk of [
      { type: 'settings', resolution: '4K' },
      { type: 'settings', ratio: '2:1' },
      { type: 'settings', generateAudio: 'no' },
      { type: 'settings', model: 'promptreel-chat' },
      { type: 'settings', model: 'promptreel-video-unlisted' },
      { type: 'settings', model: 'x'.repeat(201) },
      { type: 'settings', model: '' },
    ])
      await editor.handleMessage(junk);
    let board = await readBoard(file);
    assert.equal(board.model, 'promptreel-video-pro');
    assert.deepEqual(board.settings, { resolution: '1080p', ratio: '9:16', generateAudio: false });
    const seconds = board.shots.map((shot) => shot.seconds);
    const shown = await shownFilm(editor, (film) => film.model === 'promptreel-video-pro' && film.settings.generateAudio === false);
    assert.deepEqual(
      shown.durations,
      [...new Set([4, 8, ...seconds])].sort((a, b) => a - b),
      'the new model’s durations (and those the shots have)',
    );
    assert.deepEqual(
      shown.shots.map((shot) => shot.cost),
      ['$0.80', '$0.80', '$0.80'],
    );
    assert.equal(shown.total, '$2.40 · $0.80 left after');
    assert.equal(shown.shoot, 'Shoot the film for $2.40');
    assert.deepEqual(shown.settings, { resolution: '1080p', ratio: '9:16', generateAudio: false });
    // The check before charging, per shot: a duration the new model does not offer is named (and may still be sent).
    assert.ok(
      seconds.some((value) => ![4, 8].includes(value)),
      `a drafted duration the new model does not offer: ${seconds}`,
    );
    for (const [index, shot] of shown.shots.entries()) {
      if ([4, 8].includes(seconds[index])) assert.equal(shot.problems, undefined, `shot ${index + 1}`);
      else assert.match(shot.problems ?? '', new RegExp(`^promptreel-video-pro offers .+, not ${seconds[index]}\\.$`), `shot ${index + 1}`);
    }

    // "From your settings": the resolution leaves the file, and the user's applies.
    await editor.handleMessage({ type: 'settings', resolution: null });
    board = await readBoard(file);
    assert.deepEqual(board.settings, { ratio: '9:16', generateAudio: false });
    await editor.handleMessage({ type: 'change', id: board.shots[0].id, seconds: 8 });

    const { outcome, shown: asked } = await shoot(editor, { type: 'shoot' }, 'Shoot 3 Shots');
    assert.ok(outcome?.kind === 'shot', JSON.stringify(outcome));
    const detail = asked.find((message) => message.items.includes('Shoot 3 Shots'))?.detail ?? '';
    for (const [index, value] of [8, ...seconds.slice(1)].entries())
      assert.equal(detail.includes(`Shot ${index + 1}: promptreel-video-pro offers`), ![4, 8].includes(value), `shot ${index + 1} (${value} s) in: ${detail}`);
    const posts = videoPosts(ctx.service).map((post) => post.body as { model: string; seconds: string; metadata: Record<string, unknown> });
    assert.equal(posts.length, 3);
    for (const post of posts) {
      assert.equal(post.model, 'promptreel-video-pro');
      assert.deepEqual([post.metadata['resolution'], post.metadata['ratio'], post.metadata['generate_audio']], ['720p', '9:16', false]);
    }
    assert.equal(posts[0].seconds, '8');
    assert.deepEqual(
      (await readBoard(file)).shots.map((shot) => shot.priceUsd),
      [0.8, 0.8, 0.8],
    );

    // Changing the model after the shots were sent keeps their tasks and prices: only what is shot next uses it.
    const sent = await readBoard(file);
    await editor.handleMessage({ type: 'settings', model: 'promptreel-video' });
    const after = await readBoard(file);
    assert.equal(after.model, 'promptreel-video');
    assert.deepEqual(after.shots, sent.shots);
  });

  it('issue 27: Shoot shows the total in the modal; cancelling sends nothing, confirming sends exactly one POST per shot and records each task', async () => {
    const api = await testApi();
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);

    const cancelled = recordMessages(() => undefined);
    try {
      await editor.handleMessage({ type: 'shoot' });
    } finally {
      cancelled.restore();
    }
    assert.deepEqual(editor.lastShoot, { kind: 'cancelled' });
    const asked = cancelled.shown.find((message) => message.items.includes('Shoot 3 Shots'));
    assert.ok(asked, JSON.stringify(cancelled.shown));
    assert.match(asked.detail ?? '', /Price: \$1\.20 · \$2\.00 left after \(3 × \$0\.40\)\./);
    assert.equal(videoPosts(ctx.service).length, 0, 'cancelling sends nothing');

    const confirmed = recordMessages((shown) => (shown.items.includes('Shoot 3 Shots') ? 'Shoot 3 Shots' : undefined));
    try {
      await editor.handleMessage({ type: 'shoot' });
    } finally {
      confirmed.restore();
    }
    const shot = editor.lastShoot;
    assert.ok(shot?.kind === 'shot', JSON.stringify(shot));
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 3, 'one POST per shot');
    const board = await readBoard(file);
    assert.deepEqual(
      board.shots.map((each) => each.taskId),
      shot.tasks.map((task) => task.id),
    );
    const prompts = posts.map((post) => (post.body as { prompt: string }).prompt);
    assert.equal(prompts[0], board.shots[0].prompt);
    assert.ok(prompts[1].startsWith(`${board.shots[1].prompt}\n\nContinuity: the shot before this one showed ${board.shots[0].prompt}`), prompts[1]);
    const groups = shot.tasks.map((task) => api.video.store.get(task.id)?.group);
    assert.equal(new Set(groups.map((group) => group?.id)).size, 1, 'the shots form one group');
    assert.deepEqual(
      groups.map((group) => [group?.index, group?.count, group?.label]),
      [0, 1, 2].map((index) => [index, 3, `Film: ${board.name}`]),
    );
    assert.equal(shot.tasks[0].source?.uri, workspaceUri('src', 'sample.ts').toString());
  });

  /** The next film the assembly makes (within 30 s). */
  async function nextAssembled(): Promise<AssembledFilm> {
    const { films } = await (await testApi()).video.flows.get();
    return new Promise<AssembledFilm>((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error('the film was not assembled'));
      }, 30_000);
      const listener = films.assembly.onDidAssemble((film) => {
        clearTimeout(timer);
        listener.dispose();
        resolve(film);
      });
    });
  }

  /** Shoots a drafted film, answering its confirmation with `action`; what the editor's Shoot came to. */
  async function shoot(editor: FilmEditorHost, message: unknown, action: string): Promise<{ outcome: FilmEditorHost['lastShoot']; shown: RecordedMessage[] }> {
    const messages = recordMessages((shown) => (shown.items.includes(action) ? action : undefined));
    try {
      await editor.handleMessage(message);
      return { outcome: editor.lastShoot, shown: messages.shown };
    } finally {
      messages.restore();
    }
  }

  // The shots are downloaded for the film by themselves (promptreel.video.autoDownload is off in the tests).
  async function shootAndDownload(clips: FilmClip[]): Promise<{ file: vscode.Uri; assembled: AssembledFilm; messages: RecordedMessage[] }> {
    ctx.service.setScenario({ video: { clips, pollsToRunning: 0, pollsToDone: 0 } });
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const assembled = nextAssembled();
    const messages = recordMessages((shown) => (shown.items.includes('Shoot 3 Shots') ? 'Shoot 3 Shots' : undefined));
    try {
      await editor.handleMessage({ type: 'shoot' });
      assert.ok(editor.lastShoot?.kind === 'shot', JSON.stringify(editor.lastShoot));
      return { file, assembled: await assembled, messages: messages.shown };
    } finally {
      messages.restore();
    }
  }

  it('issue 27: once every shot is downloaded, they are joined into <stem>.mp4 with its .vtt, recorded in the storyboard', async () => {
    const { file, assembled } = await shootAndDownload(['shot-a', 'shot-b', 'shot-c']);
    const stem = file.path
      .split('/')
      .pop()!
      .replace(/\.json$/, '');
    assert.deepEqual(assembled.output, { video: `${stem}.mp4`, captions: `${stem}.vtt` });
    assert.deepEqual((await readBoard(file)).output, assembled.output);
    const video = await vscode.workspace.fs.stat(workspaceUri(...FILMS, `${stem}.mp4`));
    assert.ok(video.size > 1000, `the film has bytes: ${video.size}`);
    const vtt = new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(...FILMS, `${stem}.vtt`)));
    assert.match(vtt, /^WEBVTT/);
  });

  it('issue 27: shots that do not join are kept with a playlist, and the reason is shown', async () => {
    const { file, assembled, messages } = await shootAndDownload(['shot-a', 'shot-portrait', 'shot-a']);
    const stem = file.path
      .split('/')
      .pop()!
      .replace(/\.json$/, '');
    assert.equal(assembled.output.video, undefined);
    assert.equal(assembled.output.playlist, `${stem}.playlist.json`);
    assert.ok(assembled.output.reason, 'the reason is recorded');
    assert.ok(
      messages.some((message) => message.severity === 'warning' && message.message.includes(assembled.output.reason!)),
      JSON.stringify(messages),
    );
    const playlist = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(workspaceUri(...FILMS, `${stem}.playlist.json`)))) as {
      shots: { file: string }[];
    };
    assert.deepEqual(
      playlist.shots.map((shot) => shot.file),
      ['s1', 's2', 's3'].map((id) => `${stem}.shots/${id}.mp4`),
    );
    await vscode.workspace.fs.stat(workspaceUri(...FILMS, `${stem}.shots`, 's2.mp4'));
  });

  it('issue 27: for a first-frame model each shot after the first is sent with the last frame of the one before, as a PNG, after one confirmation', async () => {
    await setSetting('models.capabilities', { 'promptreel-video': { firstFrame: true } });
    ctx.service.setScenario({ video: { clips: ['shot-a', 'shot-b', 'shot-c'], pollsToRunning: 0, pollsToDone: 0 } });
    const { editor, file } = drafted((await generate()).outcome);
    const view = await shownFilm(editor);
    assert.equal(view.chain, true);

    const cancelled = await shoot(editor, { type: 'shoot' }, 'none');
    assert.deepEqual(cancelled.outcome, { kind: 'cancelled' });
    const asked = cancelled.shown.find((message) => message.items.includes('Shoot 3 Shots'));
    assert.match(asked?.detail ?? '', /The shots are made one after another, each from the last frame of the one before\./);
    assert.match(asked?.detail ?? '', /Price: \$1\.20 · \$2\.00 left after \(3 × \$0\.40\)\./, 'one confirmation, with the total of the three shots');
    assert.equal(videoPosts(ctx.service).length, 0, 'cancelling at the price sends nothing');

    const assembled = nextAssembled();
    const { outcome, shown } = await shoot(editor, { type: 'shoot' }, 'Shoot 3 Shots');
    assert.ok(outcome?.kind === 'shot', JSON.stringify(outcome));
    assert.equal(shown.filter((message) => message.detail?.includes('Price:')).length, 1, 'confirmed once for the whole film');
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 3, 'exactly one POST per shot');
    assert.ok(!isMultipartBody(posts[0].body), 'the first shot starts from its prompt alone');
    const board = await readBoard(file);
    const stem = file.path
      .split('/')
      .pop()!
      .replace(/\.json$/, '');
    for (const index of [1, 2]) {
      const body = posts[index].body;
      assert.ok(isMultipartBody(body), `shot ${index + 1} is multipart: ${JSON.stringify(body)}`);
      assert.equal(body.fields['prompt'], board.shots[index].prompt, 'a chained shot needs no continuity note');
      const previous = board.shots[index - 1].id;
      const frameFile = workspaceUri(...FILMS, `${stem}.frames`, board.shots[index - 1].taskId!, `${previous}.png`);
      const saved = await vscode.workspace.fs.readFile(frameFile);
      const png = parseFramePng(Buffer.from(saved).toString('base64'));
      assert.ok(png.ok, `the frame of ${previous} is a PNG`);
      assert.deepEqual([png.width, png.height], [320, 180], 'the size of the video');
      assert.ok(saved.length > 5000, `a frame with a picture, not a blank canvas: ${saved.length} bytes`);
      assert.deepEqual(body.files['input_reference'], {
        fileName: `${previous}.png`,
        contentType: 'image/png',
        size: saved.length,
        sha256: createHash('sha256').update(saved).digest('hex'),
      });
      // Each shot is its own clip (shot-a, shot-b): the frame each next shot starts from is its predecessor's.
      const task = (await testApi()).video.store.get(board.shots[index].taskId!);
      assert.deepEqual(task?.request?.firstFrame, {
        uri: frameFile.toString(),
        fileName: `${previous}.png`,
        contentType: 'image/png',
      });
    }
    const frames = [1, 2].map((index) => (posts[index].body as { files: Record<string, { sha256: string }> }).files['input_reference'].sha256);
    assert.notEqual(frames[0], frames[1], 'the last frames of two different shots differ');
    // The pixels are the last frame of the shot before (clips shot-a, shot-b), not its first: compared with what
    // ffmpeg decodes of each (fixtures/film/frames.json, scripts/make-film-frames.js).
    for (const [index, clip] of [
      [0, 'shot-a'],
      [1, 'shot-b'],
    ] as const) {
      const { id, taskId } = board.shots[index];
      const saved = await vscode.workspace.fs.readFile(workspaceUri(...FILMS, `${stem}.frames`, taskId!, `${id}.png`));
      const drawn = fingerprint(pngPixels(saved));
      const reference = FRAMES[clip];
      const [toLast, toFirst] = [distance(drawn, reference.last), distance(drawn, reference.first)];
      assert.ok(
        toLast < 2 && toLast < toFirst / 2,
        `the frame of shot ${index + 1} is ${clip}'s last: ${toLast.toFixed(2)} from it, ${toFirst.toFixed(2)} from its first`,
      );
    }
    assert.deepEqual(
      board.shots.map((shot) => shot.priceUsd),
      [0.4, 0.4, 0.4],
      'the record keeps the price each shot was confirmed at',
    );
    const film = await assembled;
    assert.equal(film.output.video, `${stem}.mp4`);
    assert.equal(videoPosts(ctx.service).length, 3);
    const charged = await waitFor(
      async () => {
        const read = await readBoard(file);
        return read.shots.every((shot) => shot.chargedUsd !== undefined) ? read : undefined;
      },
      { what: 'the charged costs from the key’s log in the film’s record', timeoutMs: 20_000 },
    );
    assert.deepEqual(
      charged.shots.map((shot) => shot.chargedUsd),
      [0.4, 0.4, 0.4],
    );
  });

  it('issue 27: a failed shot stops the chain; it is shot again alone (one more POST, from the last frame before it), then the rest, and the film is made', async () => {
    await setSetting('models.capabilities', { 'promptreel-video': { firstFrame: true } });
    // The second task the service makes fails; the others are made (clips a, b, c, a in turn: a, c, a join).
    ctx.service.setScenario({ video: { clips: ['shot-a', 'shot-b', 'shot-c'], pollsToRunning: 0, pollsToDone: 1, failTasks: [1] } });
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const first = await shoot(editor, { type: 'shoot' }, 'Shoot 3 Shots');
    assert.ok(first.outcome?.kind === 'stopped', JSON.stringify(first.outcome));
    assert.equal(first.outcome.notSent, 1, 'shot 3 was not sent: its first frame never existed');
    assert.equal(videoPosts(ctx.service).length, 2);
    const stoppedMessage = first.shown.find((message) => message.severity === 'error');
    assert.match(stoppedMessage?.message ?? '', /Shot 3 was not sent: shot 2 failed: Video generation failed/);

    const failed = await shownFilm(editor, (film) => film.shots[1].state === 'failed' && !film.busy);
    assert.deepEqual(
      failed.shots.map((shot) => [shot.state, shot.canReshoot]),
      [
        ['done', false],
        ['failed', true],
        ['not-sent', true],
      ],
    );
    assert.match(failed.shots[1].stateText, /^Failed: Video generation failed/);
    assert.equal(failed.shoot, 'Shoot the shot not sent for $0.40');

    const assembled = nextAssembled();
    const again = await shoot(editor, { type: 'reshoot', id: 's2' }, 'Shoot Again');
    assert.ok(again.outcome?.kind === 'shot', JSON.stringify(again.outcome));
    const asked = again.shown.find((message) => message.items.includes('Shoot Again'));
    assert.equal(asked?.message, `Shoot shot 2 of "${(await readBoard(file)).name}" again?`);
    assert.match(asked?.detail ?? '', /Price: \$0\.40 · /);
    assert.match(asked?.detail ?? '', /It starts from the last frame of shot 1\./);
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 3, 'shooting one shot again costs exactly one more POST');
    const reshot = posts[2].body;
    assert.ok(isMultipartBody(reshot));
    assert.equal(reshot.files['input_reference']?.fileName, 's1.png');
    const board = await readBoard(file);
    assert.equal(board.shots[1].taskId, again.outcome.tasks[0].id, 'the shot’s task is replaced in the file');

    const rest = await shoot(editor, { type: 'shoot' }, 'Shoot 1 Shot');
    assert.ok(rest.outcome?.kind === 'shot', JSON.stringify(rest.outcome));
    assert.equal(videoPosts(ctx.service).length, 4, 'the shot never sent, once');
    const film = await assembled;
    assert.ok(film.output.video, JSON.stringify(film.output));
    const done = await shownFilm(editor, (view) => view.shots.every((shot) => shot.state === 'done'));
    assert.ok(done.shots.every((shot) => !shot.canReshoot));
    assert.equal(videoPosts(ctx.service).length, 4);
  });

  it('issue 27: Stop during the chain sends nothing more; the shots left are offered with their price', async () => {
    await setSetting('models.capabilities', { 'promptreel-video': { firstFrame: true } });
    // The first shot is never done: the chain waits for its last frame until stopped.
    ctx.service.setScenario({ video: { clips: ['shot-a', 'shot-b', 'shot-c'], pollsToRunning: 0, pollsToDone: 1000 } });
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const messages = recordMessages((shown) => (shown.items.includes('Shoot 3 Shots') ? 'Shoot 3 Shots' : undefined));
    try {
      const shooting = editor.handleMessage({ type: 'shoot' });
      await waitFor(() => videoPosts(ctx.service).length === 1 || undefined, { what: 'the first shot sent' });
      const busy = await shownFilm(editor, (film) => film.busy);
      assert.ok(busy.shots.every((shot) => !shot.canReshoot));
      await editor.handleMessage({ type: 'shoot' });
      // While shooting, the film stays as it was confirmed: the page's controls are disabled, and the host drops
      // what a page sends anyway (its settings, a shot's edit).
      const confirmed = await waitFor(
        async () => {
          const board = await readBoard(file);
          return board.shots[0].taskId ? board : undefined;
        },
        { what: 'the first shot’s task in the file' },
      );
      await editor.handleMessage({ type: 'settings', resolution: confirmed.settings.resolution === '480p' ? '1080p' : '480p', generateAudio: true });
      await editor.handleMessage({ type: 'change', id: 's2', caption: 'Changed while shooting.', seconds: 8 });
      await editor.handleMessage({ type: 'remove', id: 's3' });
      assert.deepEqual(await readBoard(file), confirmed, 'nothing changed while shooting');
      assert.notEqual(editor.film.shots[1].caption, 'Changed while shooting.');
      await editor.handleMessage({ type: 'stop' });
      await shooting;
      const outcome = editor.lastShoot;
      assert.ok(outcome?.kind === 'stopped', JSON.stringify(outcome));
      assert.equal(outcome.notSent, 2);
      assert.ok(
        messages.shown.some((shown) => shown.message === 'Shooting stopped: 1 of 3 shots were sent.'),
        JSON.stringify(messages.shown),
      );
      assert.equal(messages.shown.filter((shown) => shown.items.includes('Shoot 3 Shots')).length, 1, 'a Shoot while shooting asks nothing');
    } finally {
      messages.restore();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(videoPosts(ctx.service).length, 1, 'nothing more was sent');
    const view = await shownFilm(editor, (film) => !film.busy);
    assert.deepEqual(
      view.shots.map((shot) => [shot.state, shot.canReshoot]),
      [
        ['in-progress', false],
        ['not-sent', true],
        ['not-sent', true],
      ],
    );
    assert.equal(view.shoot, 'Shoot the 2 shots not sent for $0.80');
    await editor.handleMessage({ type: 'reshoot', id: 's1' });
    assert.equal(videoPosts(ctx.service).length, 1, 'a shot being made is not offered again, whatever the page says');
  });

  it('issue 27: the chain goes on when the editor is closed or hidden: it is opened again in the background to take the frame', async () => {
    await setSetting('models.capabilities', { 'promptreel-video': { firstFrame: true } });
    ctx.service.setScenario({ video: { clips: ['shot-a', 'shot-b', 'shot-c'], pollsToRunning: 0, pollsToDone: 1 } });
    const api = await testApi();
    const { films } = await api.video.flows.get();
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const messages = recordMessages((shown) => (shown.items.includes('Shoot 3 Shots') ? 'Shoot 3 Shots' : undefined));
    try {
      const shooting = editor.handleMessage({ type: 'shoot' });
      await waitFor(() => videoPosts(ctx.service).length === 1 || undefined, { what: 'the first shot sent' });
      films.panelOf(file)!.dispose();
      assert.equal(films.editorOf(file), undefined, 'closed');
      await waitFor(() => videoPosts(ctx.service).length === 2 || undefined, { what: 'the second shot sent', timeoutMs: 20_000 });
      const reopened = films.panelOf(file);
      assert.ok(reopened, 'the editor was opened again to take the frame');
      // Hidden behind a text editor in its group: its page stops, and is shown again (without the focus) for the next frame.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceUri('src', 'sample.ts')), {
        viewColumn: reopened.viewColumn,
        preview: false,
      });
      await waitFor(() => !reopened.visible || undefined, { what: 'the editor hidden' });
      await shooting;
      assert.ok(editor.lastShoot?.kind === 'shot', JSON.stringify(editor.lastShoot));
      assert.equal(videoPosts(ctx.service).length, 3);
      assert.ok(reopened.visible, 'shown again to take the last frame');
      const board = await readBoard(file);
      assert.ok(
        board.shots.every((shot) => shot.taskId),
        'every task recorded in the file',
      );
      for (const index of [1, 2]) {
        const body = videoPosts(ctx.service)[index].body;
        assert.ok(isMultipartBody(body));
        assert.equal(body.files['input_reference']?.fileName, `${board.shots[index - 1].id}.png`);
      }
    } finally {
      messages.restore();
    }
  });

  it('issue 27: the creator sends a chained shot only with its first frame, and no first frame with any other request', async () => {
    const api = await testApi();
    const { creator } = await api.video.flows.get();
    const gate = await api.connection.videoCharges();
    const shot = { model: 'promptreel-video', prompt: 'The parcel lands', seconds: '5' };
    const approval = gate.approve(await gate.quote([shot, { ...shot, prompt: 'The door opens', firstFrameFromPrevious: true }]));
    assert.ok(approval);
    const frame = { uri: workspaceUri(...FILMS, 'f.frames', 's1.png').toString(), fileName: 's1.png', contentType: 'image/png' };
    await assert.rejects(creator.createOrThrow(approval, { firstFrame: frame }), /This confirmation was used already: nothing was sent/);
    await creator.createOrThrow(approval);
    await assert.rejects(creator.createOrThrow(approval), /starts from the last frame of the shot before, which is not there: nothing was sent/);
    assert.equal(videoPosts(ctx.service).length, 1, 'only the first shot, without a frame');
    assert.equal(gate.remaining(approval), 1);
  });

  it('issue 27: for a model without first frames a failed shot is shot again alone, and the film is then made', async () => {
    ctx.service.setScenario({ video: { clips: ['shot-a', 'shot-b', 'shot-c'], pollsToRunning: 0, pollsToDone: 1, failTasks: [1] } });
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const first = await shoot(editor, { type: 'shoot' }, 'Shoot 3 Shots');
    assert.ok(first.outcome?.kind === 'shot', JSON.stringify(first.outcome));
    assert.equal(videoPosts(ctx.service).length, 3);
    await shownFilm(editor, (film) => film.shots[1].state === 'failed');
    const assembled = nextAssembled();
    const again = await shoot(editor, { type: 'reshoot', id: 's2' }, 'Shoot Again');
    assert.ok(again.outcome?.kind === 'shot', JSON.stringify(again.outcome));
    assert.equal(videoPosts(ctx.service).length, 4, 'one more POST, not three');
    assert.ok(!isMultipartBody(videoPosts(ctx.service)[3].body));
    assert.ok((await assembled).output.video);
    assert.equal((await readBoard(file)).shots[1].taskId, again.outcome.tasks[0].id);
  });

  it('issue 27: a reply that is not a storyboard is asked again once; a second one is shown with what was wrong', async () => {
    ctx.service.setScenario({ chat: { replies: ['Sorry, here are some thoughts instead.'] } });
    drafted((await generate()).outcome);
    const asked = chatRequests(ctx.service);
    assert.equal(asked.length, 2, 'asked again once');
    const second = asked[1].body as { messages: { role: string; content: string }[] };
    assert.match(second.messages.at(-1)?.content ?? '', /not a valid storyboard/);

    ctx.service.setScenario({ chat: { replies: ['No JSON here.', 'Still no JSON.'] } });
    const { outcome, shown } = await generate();
    assert.equal(chatRequests(ctx.service).length, 4, 'two more, and no third');
    assert.ok(outcome?.kind === 'not-a-storyboard');
    assert.deepEqual(outcome.problems, ['The reply holds no JSON storyboard.']);
    const error = shown.find((message) => message.severity === 'error');
    assert.ok(error, JSON.stringify(shown));
    assert.match(error.message, /did not write a valid storyboard/);
    assert.deepEqual(error.items, ['Retry', 'Show Logs']);
    const reply = vscode.window.activeTextEditor?.document;
    assert.equal(reply?.languageId, 'markdown');
    assert.match(reply?.getText() ?? '', /Still no JSON\./);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 27: without a selection it says what to do and asks nothing', async () => {
    await closeAllEditors();
    const messages = recordMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.generateExplainerFilm'), undefined);
    } finally {
      messages.restore();
    }
    assert.match(messages.shown[0]?.message ?? '', /Select the code to explain/);
    assert.equal(ctx.service.requests.filter((request) => request.method === 'POST').length, 0);
  });
});
