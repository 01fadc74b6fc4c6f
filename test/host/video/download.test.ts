import { ViewIds } from '../../../src/common/contributions';
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../src/extension';
import type { OpenOutcome } from '../../../src/video/videoCommands';
import { VideoDownloader, type DownloadOutcome } from '../../../src/video/videoDownloader';
import type { VideoTaskRecord } from '../../../src/video/core/videoTaskRecord';
import { sampleBytes, type LocalService } from '../../service';
import { useConnectedService } from '../support/connectedService';
import { useSettings } from '../support/extension';
import { assertStrictPage } from '../support/webviewPage';
import { workspaceUri } from '../support/workspace';
import { connectVideo, generateReviewed, playerLoaded, pollUntil, recordMessages, runtime, setSetting, VIDEO, waitFor } from './videoTestSupport';

function workspaceRoot(): string {
  return workspaceUri().fsPath;
}

function videosFolder(): string {
  return path.join(workspaceRoot(), 'videos');
}

/** Every file below `dir`, relative, sorted. */
function filesBelow(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((file) => fs.statSync(path.join(dir, file)).isFile()).sort();
}

/** A completed task in the list: created through the command, then finished on the service and polled. */
async function completedTask(api: PromptreelTestApi, service: LocalService, prompt = 'A red kite over green hills'): Promise<VideoTaskRecord> {
  const outcome = await generateReviewed({ prompt });
  assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
  const serverTask = service.task(outcome.task.id);
  assert.ok(serverTask);
  serverTask.forced = 'completed';
  return pollUntil(api, outcome.task.id, (task) => task.state === 'completed', 'the task to complete');
}

/** A panel of the player's type, as VS Code hands one back after a reload; shown before use (closing one the workbench
 * is still opening makes it log an error). */
async function shownPlayerPanel(): Promise<vscode.WebviewPanel> {
  const panel = vscode.window.createWebviewPanel(ViewIds.videoPlayer, 'restoring', vscode.ViewColumn.Active, {});
  await waitFor(() => panel.visible, { what: 'the panel to show' });
  return panel;
}

describe('video: download and playback', () => {
  const ctx = useConnectedService(VIDEO, { teardown: async () => fs.rmSync(videosFolder(), { recursive: true, force: true }) });
  let messages: ReturnType<typeof recordMessages> | undefined;

  beforeEach(() => {
    fs.rmSync(videosFolder(), { recursive: true, force: true });
    messages = recordMessages();
  });

  afterEach(async () => {
    messages?.restore();
    messages = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Download to Workspace writes the real MP4 under videos/, without the key at the CDN', async () => {
    const api = await connectVideo(ctx.service);
    const task = await completedTask(api, ctx.service);
    const outcome = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', task.id);
    assert.ok(outcome?.kind === 'saved', JSON.stringify(outcome));
    assert.equal(outcome.source, 'url');
    assert.equal(path.dirname(outcome.path), videosFolder());
    assert.equal(path.basename(outcome.path), `a-red-kite-over-green-hills-${task.id}.mp4`);
    assert.ok(fs.readFileSync(outcome.path).equals(sampleBytes()), 'the bytes are the sample video');
    assert.equal(outcome.bytes, sampleBytes().length);
    assert.deepEqual(filesBelow(videosFolder()), [path.basename(outcome.path)], 'no temporary file left');

    const cdn = ctx.service.cdnRequests.filter((request) => request.path.startsWith('/files/'));
    assert.equal(cdn.length, 1);
    assert.equal(cdn[0].headers['authorization'], undefined, 'the key never goes to the video address');
    assert.ok(!JSON.stringify(ctx.service.cdnRequests).includes(ctx.service.demoKey));
    assert.ok(!ctx.service.requests.some((request) => request.path.endsWith('/content')), 'no fallback needed');

    const { tree, store } = runtime(api);
    assert.equal(store.get(task.id)?.downloadedPath, outcome.path);
    const item = await tree.getTreeItem(task.id);
    assert.equal(String(item.contextValue), 'videoTask:completed:downloaded:request');
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'pass-filled');
    const saved = messages?.shown.find((shown) => shown.message.startsWith('Saved videos/'));
    assert.deepEqual(saved?.items, ['Open Video', 'Reveal in Explorer']);

    const again = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', task.id);
    assert.ok(again?.kind === 'saved');
    assert.equal(path.basename(again.path), `a-red-kite-over-green-hills-${task.id}-2.mp4`, 'a unique name on collision');

    fs.rmSync(again.path);
    fs.rmSync(outcome.path);
    assert.equal(String((await tree.getTreeItem(task.id)).contextValue), 'videoTask:completed:request', 'a deleted file is no longer "downloaded"');
  });

  it('follows CDN redirects without sending the key', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({ cdn: { redirects: 3 } });
    const task = await completedTask(api, ctx.service);
    const outcome = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', task.id);
    assert.ok(outcome?.kind === 'saved', JSON.stringify(outcome));
    assert.ok(fs.readFileSync(outcome.path).equals(sampleBytes()));
    assert.equal(ctx.service.cdnRequests.length, 4);
    assert.ok(ctx.service.cdnRequests.every((request) => request.headers['authorization'] === undefined));
  });

  it('cancelling mid-download leaves no file (final or temporary)', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({ cdn: { bytesPerSecond: 10_000 } });
    const task = await completedTask(api, ctx.service);
    const controller = new AbortController();
    const download = (await runtime(api).downloader.get()).download(task.id, { signal: controller.signal });
    await waitFor(() => filesBelow(videosFolder()).some((file) => file.endsWith('.part') && fs.statSync(path.join(videosFolder(), file)).size > 0), {
      what: 'a partial download',
      timeoutMs: 10_000,
    });
    controller.abort();
    const outcome = await download;
    assert.deepEqual(outcome, { kind: 'cancelled' });
    assert.deepEqual(filesBelow(videosFolder()), []);
    assert.equal(runtime(api).store.get(task.id)?.downloadedPath, undefined);
  });

  for (const expired of [403, 404] as const) {
    it(`an expired address (${expired}) falls back to /content with the key`, async () => {
      const api = await connectVideo(ctx.service);
      ctx.service.setScenario({ cdn: { expired } });
      const task = await completedTask(api, ctx.service);
      const outcome = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', task.id);
      assert.ok(outcome?.kind === 'saved', JSON.stringify(outcome));
      assert.equal(outcome.source, 'content');
      assert.ok(fs.readFileSync(outcome.path).equals(sampleBytes()));
      const content = ctx.service.requests.filter((request) => request.path === `/v1/videos/${task.id}/content`);
      assert.equal(content.length, 1);
      assert.equal(content[0].key, ctx.service.demoKey, '/content gets the key');
      assert.ok(ctx.service.cdnRequests.every((request) => request.headers['authorization'] === undefined));
    });
  }

  it('a task id with ../ cannot write outside the download folder', async () => {
    const api = await connectVideo(ctx.service);
    const hostileId = '../../../escape/../../evil';
    ctx.service.createTask({ id: hostileId, forced: 'completed', prompt: 'ignored' });
    const tracked = await vscode.commands.executeCommand<VideoTaskRecord>('promptreel.trackVideoTask', hostileId);
    assert.equal(tracked?.id, hostileId);
    await pollUntil(api, hostileId, (task) => task.state === 'completed', 'the hostile task to complete');
    const before = filesBelow(path.dirname(workspaceRoot()));
    const outcome = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', hostileId);
    assert.ok(outcome?.kind === 'saved', JSON.stringify(outcome));
    assert.equal(path.dirname(outcome.path), videosFolder());
    assert.match(path.basename(outcome.path), /^video-escape-evil-[0-9a-f]{8}\.mp4$/, 'the sanitized id, with a hash of the raw one');
    assert.ok(fs.readFileSync(outcome.path).equals(sampleBytes()));
    const after = filesBelow(path.dirname(workspaceRoot()));
    const added = after.filter((file) => !before.includes(file));
    assert.deepEqual(added, [path.relative(path.dirname(workspaceRoot()), outcome.path)], 'the only new file is inside videos/');
  });

  it('issue 11.10: the start-up cleanup removes what a window that stopped mid-download left in the folder', async () => {
    const api = await connectVideo(ctx.service);
    fs.mkdirSync(videosFolder(), { recursive: true });
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    const stale = path.join(videosFolder(), '.a-kite-task_dead.mp4.0a1b2c3d.part');
    fs.writeFileSync(path.join(videosFolder(), 'a-kite-task_dead.mp4'), '');
    fs.writeFileSync(stale, 'half a video');
    fs.utimesSync(stale, hourAgo, hourAgo);
    fs.writeFileSync(path.join(videosFolder(), 'a-finished-video.mp4'), 'kept');
    await (await runtime(api).downloader.get()).removeStaleDownloads();
    assert.ok(!fs.existsSync(stale), 'the stale .part file is removed');
    assert.deepEqual(filesBelow(videosFolder()), ['a-finished-video.mp4']);
  });

  it('refuses a download folder setting that points outside the workspace', async () => {
    const api = await connectVideo(ctx.service);
    await setSetting('video.downloadFolder', '../outside');
    try {
      const task = await completedTask(api, ctx.service);
      const outcome = await vscode.commands.executeCommand<DownloadOutcome>('promptreel.video.download', task.id);
      assert.ok(outcome?.kind === 'failed');
      assert.match(outcome.shown.message, /outside the workspace/);
      assert.deepEqual(outcome.shown.actions, ['Open Settings']);
      assert.ok(!fs.existsSync(path.join(path.dirname(workspaceRoot()), 'outside')));
    } finally {
      await setSetting('video.downloadFolder', undefined);
    }
  });

  it('downloads by itself on completion when promptreel.video.autoDownload is on', async () => {
    const api = await connectVideo(ctx.service);
    await setSetting('video.autoDownload', true);
    try {
      const outcome = await generateReviewed({ prompt: 'Auto saved clip' });
      assert.ok(outcome?.kind === 'created');
      ctx.service.task(outcome.task.id)!.forced = 'completed';
      const saved = await waitFor(() => runtime(api).store.get(outcome.task.id)?.downloadedPath, { what: 'the automatic download', timeoutMs: 20_000 });
      assert.ok(fs.readFileSync(saved).equals(sampleBytes()));
      assert.equal(path.basename(saved), `auto-saved-clip-${outcome.task.id}.mp4`);
    } finally {
      await setSetting('video.autoDownload', undefined);
    }
  });

  it('Open Video plays the file in the player webview, Reveal in Explorer shows it', async () => {
    const api = await connectVideo(ctx.service);
    const task = await completedTask(api, ctx.service, 'Open me');
    // Not downloaded yet: Open downloads first.
    const opened = await vscode.commands.executeCommand<OpenOutcome>('promptreel.video.open', task.id);
    assert.ok(opened?.kind === 'opened', JSON.stringify(opened));
    const { player } = await runtime(api).flows.get();
    assert.ok(player.isOpen(opened.file));
    // The page is the player's bundle under the strict CSP; the file reaches it by message, never in the markup.
    const html = assertStrictPage(player.open(opened.file).webview, 'player.js', { media: true });
    assert.ok(!html.includes(opened.file.path) && !html.includes(opened.file.toString()), 'the file is not in the page');
    const metadata = await waitFor(() => player.lastReport(opened.file), { what: 'the player to load the video', timeoutMs: 20_000 });
    assert.notEqual(metadata.state, 'error', `the webview could not play it: ${metadata.error}`);
    const loaded = await playerLoaded(player, opened.file, 'the metadata');
    assert.ok(Math.abs(loaded.duration - 3) < 0.2, `duration ${loaded.duration}`);
    assert.deepEqual([loaded.width, loaded.height], [320, 180]);

    assert.ok(await player.play(opened.file));
    const playing = await waitFor(
      () => {
        const report = player.lastReport(opened.file);
        return report && report.currentTime > 0.3 ? report : undefined;
      },
      { what: 'playback to advance', timeoutMs: 20_000 },
    );
    assert.ok(playing.state === 'timeupdate' || playing.state === 'playing' || playing.state === 'ended', playing.state);

    assert.equal(await vscode.commands.executeCommand('promptreel.video.reveal', task.id), true);
  });

  it('brings a player back after a window reload from the state its page saved, and closes it if the file is gone', async () => {
    const api = await connectVideo(ctx.service);
    const task = await completedTask(api, ctx.service, 'Restore me');
    const downloaded = await vscode.commands.executeCommand<OpenOutcome>('promptreel.video.open', task.id);
    assert.ok(downloaded?.kind === 'opened', JSON.stringify(downloaded));
    const { player } = await runtime(api).flows.get();
    // The page saved its file: closing and reviving a panel of the player's type is what a reload does.
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    await waitFor(() => !player.isOpen(downloaded.file), { what: 'the player to close' });

    const revived = await shownPlayerPanel();
    await player.restore(revived, { file: downloaded.file.toString() });
    assert.ok(player.isOpen(downloaded.file));
    assert.equal(revived.title, path.basename(downloaded.file.fsPath));
    const loaded = await playerLoaded(player, downloaded.file, 'the restored player to load the video');
    assert.deepEqual([loaded.width, loaded.height], [320, 180]);
    revived.dispose();

    for (const state of [
      { file: vscode.Uri.joinPath(downloaded.file, '..', 'gone.mp4').toString() },
      { file: path.join(path.dirname(downloaded.file.fsPath), 'gone.mp4') },
      { nothing: true },
      undefined,
    ]) {
      const panel = await shownPlayerPanel();
      let disposed = false;
      panel.onDidDispose(() => (disposed = true));
      await player.restore(panel, state);
      assert.ok(disposed, `closed for ${JSON.stringify(state)}`);
    }
  });
});

describe('video: download without a workspace folder', () => {
  const ctx = useConnectedService(VIDEO);
  const own = useSettings();

  it('asks where to save (and saves nothing when the dialog is dismissed or the download is automatic)', async () => {
    const api = await connectVideo(ctx.service);
    const outcome = await generateReviewed({ prompt: 'No workspace here' });
    assert.ok(outcome?.kind === 'created');
    ctx.service.task(outcome.task.id)!.forced = 'completed';
    await pollUntil(api, outcome.task.id, (task) => task.state === 'completed', 'completed');
    const store = runtime(api).store;
    const downloader = new VideoDownloader(own.settings, api.connection, store, api.log.logger.forComponent('video'), () => undefined);

    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-save-'));
    const window = vscode.window as unknown as { showSaveDialog: typeof vscode.window.showSaveDialog };
    const original = window.showSaveDialog;
    const asked: vscode.SaveDialogOptions[] = [];
    let answer: vscode.Uri | undefined = vscode.Uri.file(path.join(target, 'chosen.mp4'));
    window.showSaveDialog = async (options?: vscode.SaveDialogOptions) => {
      asked.push(options ?? {});
      return answer;
    };
    const messages = recordMessages();
    try {
      const saved = await downloader.download(outcome.task.id);
      assert.ok(saved.kind === 'saved', JSON.stringify(saved));
      assert.equal(saved.path, path.join(target, 'chosen.mp4'));
      assert.ok(fs.readFileSync(saved.path).equals(sampleBytes()));
      assert.equal(asked.length, 1);
      assert.equal(path.basename(asked[0].defaultUri?.fsPath ?? ''), `no-workspace-here-${outcome.task.id}.mp4`);
      assert.deepEqual(asked[0].filters, { 'MP4 video': ['mp4'] });

      answer = undefined;
      assert.deepEqual(await downloader.download(outcome.task.id), { kind: 'cancelled' });
      assert.deepEqual(await downloader.download(outcome.task.id, { automatic: true }), { kind: 'cancelled' });
      assert.equal(asked.length, 2, 'no dialog for an automatic download');
      assert.deepEqual(fs.readdirSync(target), ['chosen.mp4']);
    } finally {
      window.showSaveDialog = original;
      messages.restore();
      fs.rmSync(target, { recursive: true, force: true });
    }
  });
});
