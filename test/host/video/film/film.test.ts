import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { FilmOutcome } from '../../../../src/video/film/filmCommand';
import type { FilmEditorHost } from '../../../../src/video/film/filmEditor';
import type { AssembledFilm } from '../../../../src/video/film/filmAssembly';
import type { FilmView } from '../../../../src/video/film/protocol';
import { parseStoryboardFile, type Storyboard } from '../../../../src/video/film/core/storyboard';
import { useConnectedService } from '../../support/connectedService';
import { closeAllEditors, workspaceUri } from '../../support/workspace';
import { assertStrictPage } from '../../support/webviewPage';
import type { RecordedMessage } from '../../support/recordMessages';
import type { FilmClip } from '../../../service/filmClips';
import { pollUntil, recordMessages, testApi, VIDEO, videoPosts, waitFor } from '../videoTestSupport';

const FILMS = ['.promptreel', 'films'];

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
    settings: { 'chat.model': 'promptreel-chat' },
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
    assertStrictPage((await api.video.flows.get()).films.panelOf(film.file)!.webview, 'film.js');
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

  async function shootAndDownload(clips: FilmClip[]): Promise<{ file: vscode.Uri; assembled: AssembledFilm; messages: RecordedMessage[] }> {
    const api = await testApi();
    ctx.service.setScenario({ video: { clips, pollsToRunning: 0, pollsToDone: 0 } });
    const { editor, file } = drafted((await generate()).outcome);
    await shownFilm(editor);
    const { films } = await api.video.flows.get();
    const assembled = new Promise<AssembledFilm>((resolve) => {
      const listener = films.assembly.onDidAssemble((film) => {
        listener.dispose();
        resolve(film);
      });
    });
    const messages = recordMessages((shown) => (shown.items.includes('Shoot 3 Shots') ? 'Shoot 3 Shots' : undefined));
    try {
      await editor.handleMessage({ type: 'shoot' });
      const shot = editor.lastShoot;
      assert.ok(shot?.kind === 'shot', JSON.stringify(shot));
      for (const task of shot.tasks) {
        await pollUntil(api, task.id, (record) => record.state === 'completed', `shot ${task.id} completes`);
        const saved = await api.video.downloader.download(task.id);
        assert.equal(saved.kind, 'saved', JSON.stringify(saved));
      }
      const film = await Promise.race([
        assembled,
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('the film was not assembled')), 30_000)),
      ]);
      return { file, assembled: film, messages: messages.shown };
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
