import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PlaybackReport } from '../../../../src/video/player/protocol';
import type { VideoPlayer } from '../../../../src/video/player/videoPlayer';
import { FILMS_PATH, madeFilmFiles, type MadeFilmShot } from '../../../service/madeFilm';
import { useConnectedService } from '../../support/connectedService';
import { assertStrictPage } from '../../support/webviewPage';
import { closeAllEditors, workspaceUri } from '../../support/workspace';
import { playerLoaded, recordMessages, runtime, testApi, VIDEO, waitFor } from '../videoTestSupport';

const JOINED: MadeFilmShot[] = [
  { clip: 'shot-a', caption: 'The request is sent once.' },
  { clip: 'shot-b', caption: 'A failure waits, then tries again.' },
  { clip: 'shot-c', caption: 'The answer comes back to the caller.' },
];
/** shot-portrait does not join shot-a: the film is a playlist. */
const PLAYLIST: MadeFilmShot[] = [
  { clip: 'shot-a', caption: 'First, the landscape shot.' },
  { clip: 'shot-portrait', caption: 'Then, the portrait shot.' },
  { clip: 'shot-b', caption: 'Last, the landscape again.' },
];

/** Writes a made film into the workspace's films folder; the storyboard's URI. */
async function writeMadeFilm(stem: string, shots: readonly MadeFilmShot[]): Promise<vscode.Uri> {
  const { files } = await madeFilmFiles(stem, `Film ${stem}`, shots);
  for (const [name, bytes] of files) await vscode.workspace.fs.writeFile(workspaceUri(...FILMS_PATH.split('/'), ...name.split('/')), bytes);
  return workspaceUri(...FILMS_PATH.split('/'), `${stem}.json`);
}

/** Every caption the player showed (its reports, read until `done`), in order, without repeats. */
async function captionsShown(player: VideoPlayer, file: vscode.Uri, done: (report: PlaybackReport) => boolean, what: string): Promise<string[]> {
  const seen: string[] = [];
  await waitFor(
    () => {
      const report = player.lastReport(file);
      const caption = report?.caption;
      if (caption && seen.at(-1) !== caption) seen.push(caption);
      return report && done(report);
    },
    { what: `${what} (captions so far: ${JSON.stringify(seen)})`, timeoutMs: 25_000, intervalMs: 20 },
  );
  return seen;
}

describe('video/player: Play Film plays a made film with its captions (issue 27)', () => {
  useConnectedService(VIDEO, {
    cleanup: async () => {
      await closeAllEditors();
      await vscode.workspace.fs.delete(workspaceUri('.promptreel'), { recursive: true, useTrash: false }).then(undefined, () => undefined);
    },
  });

  it('issue 27: the joined film plays with its .vtt as the captions track, each caption in its time', async () => {
    const file = await writeMadeFilm('joined', JOINED);
    const panel = await vscode.commands.executeCommand<vscode.WebviewPanel | undefined>('promptreel.playFilm', file);
    assert.ok(panel, 'a player opened');
    assert.equal(panel.title, 'Film joined');
    const { player } = await runtime(await testApi()).flows.get();
    // The film reaches the page by message, under the strict CSP: the video and its captions from the films folder only.
    assertStrictPage(panel.webview, 'player.js', { media: true });
    const loaded = await playerLoaded(player, file, 'the film to load');
    assert.ok(Math.abs(loaded.duration - 4.5) < 0.1, `the joined film lasts 4.5 s: ${loaded.duration}`);
    assert.equal(loaded.shot, undefined, 'one file, not a playlist');
    assert.ok(await player.play(file));
    const seen = await captionsShown(player, file, (report) => report.state === 'ended', 'the film to play to its end');
    assert.deepEqual(
      seen.filter((caption) => caption !== ''),
      JOINED.map((shot) => shot.caption),
    );
    // Opening it again reveals the same player.
    assert.equal(await vscode.commands.executeCommand('promptreel.playFilm', file), panel);
  });

  it('issue 27: a film of shots that did not join plays them in order, each with its caption', async () => {
    const file = await writeMadeFilm('playlist', PLAYLIST);
    assert.ok(await vscode.commands.executeCommand('promptreel.playFilm', file));
    const { player } = await runtime(await testApi()).flows.get();
    const first = await playerLoaded(player, file, 'the first shot to load');
    assert.equal(first.shot, 0);
    assert.ok(await player.play(file));
    const seen = await captionsShown(player, file, (report) => report.state === 'ended' && report.shot === 2, 'the last shot to end');
    assert.deepEqual(
      seen.filter((caption) => caption !== ''),
      PLAYLIST.map((shot) => shot.caption),
    );
  });

  it('issue 27: a film not made yet, or whose file is gone, is said, and no player opens', async () => {
    const file = await writeMadeFilm('gone', JOINED);
    await vscode.workspace.fs.delete(workspaceUri(...FILMS_PATH.split('/'), 'gone.mp4'));
    const messages = recordMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.playFilm', file), undefined);
      const { files } = await madeFilmFiles('draft', 'A draft', JOINED);
      const read = JSON.parse(new TextDecoder().decode(files.get('draft.json'))) as Record<string, unknown>;
      delete read.output;
      const draft = workspaceUri(...FILMS_PATH.split('/'), 'draft.json');
      await vscode.workspace.fs.writeFile(draft, new TextEncoder().encode(JSON.stringify(read)));
      assert.equal(await vscode.commands.executeCommand('promptreel.playFilm', draft), undefined);
      // A hand-edited output cannot reach outside the films folder.
      await vscode.workspace.fs.writeFile(
        draft,
        new TextEncoder().encode(JSON.stringify({ ...read, output: { video: '../../README.md', captions: 'x.vtt' } })),
      );
      assert.equal(await vscode.commands.executeCommand('promptreel.playFilm', draft), undefined);
      assert.deepEqual(
        messages.shown.map((shown) => [shown.severity, shown.message]),
        [
          ['warning', 'The film "Film gone" cannot be played: gone.mp4 is missing.'],
          ['warning', 'The film "A draft" is not made yet: shoot it in the storyboard editor first.'],
          ['warning', 'The film "A draft" cannot be played: ../../README.md is missing.'],
        ],
      );
    } finally {
      messages.restore();
    }
    const { player } = await runtime(await testApi()).flows.get();
    assert.ok(!player.isOpen(file));
  });

  it('issue 27: the storyboard editor plays the made film, and a reload brings the film player back', async () => {
    const file = await writeMadeFilm('editor', JOINED);
    const api = await testApi();
    const flows = await runtime(api).flows.get();
    const editor = await flows.films.openFile(file);
    assert.ok(editor);
    await waitFor(() => editor.view()?.made === 'editor.mp4', { what: 'the editor to show the made film' });
    await editor.handleMessage({ type: 'play' });
    await playerLoaded(flows.player, file, 'the film to load from the editor');

    // The page saved the storyboard as a film: closing and reviving a panel of the player's type is what a reload does.
    flows.player.open(file).reveal();
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !flows.player.isOpen(file), { what: 'the player to close' });
    const revived = vscode.window.createWebviewPanel('promptreel.videoPlayer', 'restoring', vscode.ViewColumn.Active, {});
    await waitFor(() => revived.visible, { what: 'the panel to show' });
    await flows.player.restore(revived, { file: file.toString(), film: true });
    assert.equal(revived.title, 'Film editor');
    const loaded = await playerLoaded(flows.player, file, 'the restored film to load');
    assert.ok(Math.abs(loaded.duration - 4.5) < 0.1, `the film, not a shot: ${loaded.duration}`);
    revived.dispose();
  });
});
