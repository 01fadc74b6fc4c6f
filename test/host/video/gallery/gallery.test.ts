import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../../src/extension';
import { assertStrictPage } from '../../support/webviewPage';
import { confirmedRequests, pollUntil, testApi, STUDIO, VIDEO, waitFor } from '../videoTestSupport';
import { useConnectedService } from '../../support/connectedService';

/** A task made through the creator, followed to completion by the real poller, and downloaded (to `destination` if given). */
async function downloadedTask(api: PromptreelTestApi, prompt: string, destination?: string): Promise<string> {
  const task = await (await api.video.flows.get()).creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt, seconds: '5' }));
  await pollUntil(api, task.id, (record) => record.state === 'completed', `${prompt} completes`);
  const saved = await (await api.video.downloader.get()).download(task.id, destination ? { destination } : {});
  assert.equal(saved.kind, 'saved', JSON.stringify(saved));
  return task.id;
}

describe('video: the gallery (issue 16.2)', () => {
  useConnectedService(VIDEO, STUDIO);

  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('issue 16.2: the page shows the first frame of each downloaded video, in the workspace or outside it, under its CSP', async () => {
    const api = await testApi();
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-gallery-'));
    try {
      const inWorkspace = await downloadedTask(api, 'A lighthouse at dawn');
      const elsewhere = await downloadedTask(api, 'A harbour at night', path.join(outside, 'harbour.mp4'));
      await vscode.commands.executeCommand('promptreel.openVideoGallery');
      const { gallery } = await api.video.flows.get();
      assert.ok(gallery.isOpen);
      // Its bundle by nonce, its stylesheet, videos from the webview's resource origin only.
      assertStrictPage(gallery.open().webview, 'gallery.js', { media: true });
      for (const id of [inWorkspace, elsewhere]) {
        const poster = await waitFor(() => gallery.poster(id), { what: `the poster of ${id}`, timeoutMs: 20_000 });
        assert.deepEqual([poster.width, poster.height, poster.error], [320, 180, undefined]);
      }
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('issue 16.2: runs the tree command behind a card button, and ignores a message that does not fit', async () => {
    const api = await testApi();
    const task = await (
      await api.video.flows.get()
    ).creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt: 'A card to remove' }));
    const gallery = (await api.video.flows.get()).gallery;
    gallery.open();
    for (const junk of [{ type: 'action', action: 'runCommand', id: task.id }, { type: 'action', action: 'remove' }, 'remove', null])
      await gallery.handleMessage(junk);
    assert.ok(api.video.store.get(task.id), 'nothing was done for messages that do not fit');
    await gallery.handleMessage({ type: 'action', action: 'remove', id: 'task_not_in_the_list' });
    await gallery.handleMessage({ type: 'action', action: 'remove', id: task.id });
    assert.equal(api.video.store.get(task.id), undefined, 'Remove from List ran for the card');
  });

  it('issue 16.2: a panel VS Code brings back after a reload is taken over (its serializer), and there is one gallery', async () => {
    const api = await testApi();
    const id = await downloadedTask(api, 'A kite over dunes');
    const gallery = (await api.video.flows.get()).gallery;
    assert.equal(gallery.open(), gallery.open(), 'one gallery');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor(() => !gallery.isOpen || undefined, { what: 'the gallery closes' });
    // What the serializer does with the panel VS Code restores after a reload.
    const restored = vscode.window.createWebviewPanel('promptreel.videoGallery', 'Video Gallery', vscode.ViewColumn.Active, {});
    gallery.restore(restored);
    assert.ok(gallery.isOpen);
    const poster = await waitFor(() => gallery.poster(id), { what: 'the poster in the restored gallery', timeoutMs: 20_000 });
    assert.equal(poster.width, 320);
  });
});
