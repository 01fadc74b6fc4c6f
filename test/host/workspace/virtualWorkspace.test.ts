import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as vscode from 'vscode';
import { addUserMessage } from '../../../src/chatPanel/core/conversation';
import type { ExportOutcome, ImportOutcome } from '../../../src/chatPanel/conversationActions';
import { VideoDownloader } from '../../../src/video/videoDownloader';
import type { OpenOutcome } from '../../../src/video/videoCommands';
import { sampleBytes, type LocalService } from '../../service';
import { MemoryFileSystem } from '../support/memoryFileSystem';
import { stubWindow } from '../support/stubWindow';
import { connectVideo, generateReviewed, VIDEO, playerLoaded, pollUntil, runtime, testApi } from '../video/videoTestSupport';
import { useConnectedService } from '../support/connectedService';
import { useSettings } from '../support/extension';
import type { PromptreelTestApi } from '../../../src/extension';

// Issue 17.1: a workspace on a file system that is not this machine's disk (as in a virtual workspace, or the
// local side of a remote window). The provider is registered by the test; every file operation must go through
// vscode.workspace.fs and URIs to reach it.

const SCHEME = 'promptreel-memfs';

async function completedTask(api: PromptreelTestApi, service: LocalService, prompt: string): Promise<string> {
  const outcome = await generateReviewed({ prompt });
  assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
  const task = service.task(outcome.task.id);
  assert.ok(task);
  task.forced = 'completed';
  await pollUntil(api, outcome.task.id, (record) => record.state === 'completed', 'the task to complete');
  return outcome.task.id;
}

/** Promptreel's temporary download files in this machine's temporary folder. */
function temporaryDownloads(): string[] {
  return fs.readdirSync(os.tmpdir()).filter((name) => /^\.?promptreel-.*\.mp4/.test(name));
}

describe('a workspace on another file system (issue 17.1)', () => {
  const memfs = new MemoryFileSystem(SCHEME);
  let registration: vscode.Disposable | undefined;
  const ctx = useConnectedService(VIDEO);
  const own = useSettings();
  const workspaceFolder: vscode.WorkspaceFolder = { uri: memfs.uri('/project'), name: 'project', index: 0 };

  before(async () => {
    registration = memfs.register();
    await vscode.workspace.fs.createDirectory(workspaceFolder.uri);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    registration?.dispose();
  });

  it('downloads a video into the download folder of a workspace folder on that file system, a free name on collision', async () => {
    const api = await connectVideo(ctx.service);
    const id = await completedTask(api, ctx.service, 'A kite over a virtual hill');
    const before = temporaryDownloads();
    const downloader = new VideoDownloader(own.settings, api.connection, api.video.store, api.log.logger.forComponent('video'), () => [workspaceFolder]);

    const first = await downloader.download(id);
    assert.ok(first.kind === 'saved', JSON.stringify(first));
    assert.equal(first.uri.scheme, SCHEME);
    assert.equal(first.uri.path, `/project/videos/a-kite-over-a-virtual-hill-${id}.mp4`);
    assert.ok(Buffer.from(await vscode.workspace.fs.readFile(first.uri)).equals(sampleBytes()), 'the bytes are the sample video');
    assert.equal(first.bytes, sampleBytes().length);

    const second = await downloader.download(id);
    assert.ok(second.kind === 'saved', JSON.stringify(second));
    assert.equal(second.uri.path, `/project/videos/a-kite-over-a-virtual-hill-${id}-2.mp4`, 'the first file is never replaced');
    assert.deepEqual(memfs.filesBelow('/project'), [first.uri.path, second.uri.path].sort(), 'nothing else was written on that file system');
    assert.deepEqual(temporaryDownloads(), before, 'no temporary file left on this machine');

    const record = api.video.store.get(id);
    assert.equal(record?.downloadedUri, second.uri.toString(), 'the task remembers the URI, not a local path');
    assert.equal(record?.downloadedPath, undefined);
    const item = await api.video.tree.getTreeItem(id);
    assert.match(String(item.contextValue), /^videoTask:completed:downloaded/, 'the tree finds the file through the file system');

    await vscode.workspace.fs.delete(second.uri);
    assert.doesNotMatch(String((await api.video.tree.getTreeItem(id)).contextValue), /downloaded/, 'a deleted file is no longer "downloaded"');
  });

  it('plays a video saved on that file system in the player webview, and Open Video plays it from there', async () => {
    const api = await connectVideo(ctx.service);
    const id = await completedTask(api, ctx.service, 'Play me from memory');
    const downloader = new VideoDownloader(own.settings, api.connection, api.video.store, api.log.logger.forComponent('video'), () => [workspaceFolder]);
    const saved = await downloader.download(id);
    assert.ok(saved.kind === 'saved', JSON.stringify(saved));

    const opened = await vscode.commands.executeCommand<OpenOutcome>('promptreel.video.open', id);
    assert.ok(opened?.kind === 'opened', JSON.stringify(opened));
    assert.equal(opened.file.toString(), saved.uri.toString(), 'played from where it was saved, not downloaded again');
    const { player } = await runtime(api).flows.get();
    assert.ok(player.isOpen(saved.uri));
    const loaded = await playerLoaded(player, saved.uri, 'the player to load the video from the other file system');
    assert.deepEqual([loaded.width, loaded.height], [320, 180]);
  });

  it('exports a chat as JSON and as Markdown to that file system, and imports the JSON back', async () => {
    const api = await testApi();
    const original = api.chat.store.create({ model: 'promptreel-chat' });
    addUserMessage(original, { text: 'Where does this file live?' });
    api.chat.store.changed(original.id, { listChanged: true, persist: 'now' });
    const targets = { json: memfs.uri('/project/chats/where.json'), md: memfs.uri('/project/chats/where.md') };

    for (const format of ['json', 'md'] as const) {
      const stubs = stubWindow({
        showQuickPick: (async (items: readonly vscode.QuickPickItem[]) =>
          items.find((item) => item.label.includes(format === 'json' ? 'JSON' : 'Markdown file'))) as unknown as typeof vscode.window.showQuickPick,
        showSaveDialog: async () => targets[format],
      });
      let exported: ExportOutcome | undefined;
      try {
        exported = await vscode.commands.executeCommand<ExportOutcome>('promptreel.exportChat', original.id);
      } finally {
        stubs.restore();
      }
      assert.ok(exported?.kind === 'saved', JSON.stringify(exported));
      assert.equal(exported.uri.toString(), targets[format].toString());
    }
    const markdown = new TextDecoder().decode(await vscode.workspace.fs.readFile(targets.md));
    assert.ok(markdown.includes('Where does this file live?'), markdown);

    const stubs = stubWindow({ showOpenDialog: async () => [targets.json] });
    let imported: ImportOutcome | undefined;
    try {
      imported = await vscode.commands.executeCommand<ImportOutcome>('promptreel.importChat');
    } finally {
      stubs.restore();
    }
    assert.ok(imported?.kind === 'imported', JSON.stringify(imported));
    assert.deepEqual(
      api.chat.store.get(imported.conversationId)?.messages.map((message) => message.text),
      ['Where does this file live?'],
    );
  });
});
