import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { normalizeBaseUrl } from '../../../src/api';
import { CONFIRMED_ORIGINS_KEY } from '../../../src/connection/keys/core/serviceTrust';
import { TASKS_KEY } from '../../../src/video/core/taskStore';
import type { DownloadOutcome } from '../../../src/video/videoDownloader';
import { connectVideo, generateReviewed, VIDEO, recordMessages, runtime, setSetting, waitFor } from './videoTestSupport';
import { useConnectedService, useLocalService } from '../support/connectedService';

const PROMPT = 'A kite over a windy beach';

describe('video: each task belongs to the service that made it', () => {
  const ctx = useConnectedService(VIDEO);
  const second = useLocalService();

  it('issue 11.1: after a base URL change, a pending task is neither asked about on the new service nor failed; it resumes when switched back', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({ video: { pollsToDone: 1000 } });
    const outcome = await generateReviewed({ prompt: PROMPT });
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const id = outcome.task.id;
    assert.equal(runtime(api).store.get(id)?.service, ctx.service.baseUrl);

    // Another service (as a workspace setting or a change of the user setting would do), with a key of its own.
    await setSetting('baseUrl', second.service.baseUrl);
    await api.connection.keyStore.store(second.service.demoKey);
    await runtime(api).poller.pollNow();
    await new Promise((resolve) => setTimeout(resolve, 2_500)); // the point: nothing asked during more than one poll interval
    assert.equal(second.service.requests.filter((request) => request.path.startsWith('/v1/videos')).length, 0, 'never asked on the other service');
    const kept = runtime(api).store.get(id);
    assert.ok(kept && (kept.state === 'queued' || kept.state === 'running'), `still pending: ${kept?.state}`);
    const item = await runtime(api).tree.getTreeItem(id);
    assert.equal(item.description, `on ${ctx.service.baseUrl}: not followed here`);
    assert.match(String(item.contextValue), /^videoTaskElsewhere:/);

    // Completed meanwhile on its own service, it is still downloaded only from there.
    ctx.service.setScenario({ video: { pollsToDone: 0 } });
    await runtime(api).store.update(id, (task) => ({ ...task, state: 'completed', rawStatus: 'completed', videoUrl: `${ctx.service.cdnUrl}/never-asked.mp4` }));
    const messages = recordMessages();
    let download: DownloadOutcome | undefined;
    try {
      download = await (await runtime(api).downloader.get()).download(id);
    } finally {
      messages.restore();
    }
    assert.ok(download?.kind === 'failed', JSON.stringify(download));
    assert.match(download.shown.message, /downloaded only from its own service/);
    assert.deepEqual(download.shown.actions, ['Open Settings']);
    assert.equal(ctx.service.cdnRequests.length + second.service.cdnRequests.length, 0, 'nothing fetched');
    await runtime(api).store.update(id, (task) => ({ ...task, state: 'running', rawStatus: 'in_progress' }));

    // Back on its own service: followed to its end.
    await setSetting('baseUrl', ctx.service.baseUrl);
    await runtime(api).poller.pollNow();
    await waitFor(() => runtime(api).store.get(id)?.state === 'completed', { what: 'the task to complete on its own service', timeoutMs: 15_000 });
  });

  it("issue 11.1: records from before tasks kept their service (an earlier Promptreel, another window) are adopted by the user's base URL, none lost", async () => {
    const api = await connectVideo(ctx.service);
    const now = Date.now();
    const legacy = [
      { id: 'task_legacy_running', state: 'running', rawStatus: 'in_progress', createdAt: now, updatedAt: now },
      { id: 'task_legacy_done', state: 'completed', rawStatus: 'completed', createdAt: now, updatedAt: now },
    ];
    // Another window writes to the shared list; this one reads it again when it gets the focus.
    await api.storage.global.update(TASKS_KEY, legacy);
    runtime(api).store.reload();
    await waitFor(() => runtime(api).store.tasks.every((task) => task.service === ctx.service.baseUrl), { what: 'the old records to get their service' });
    assert.deepEqual(
      runtime(api)
        .store.tasks.map((task) => task.id)
        .sort(),
      ['task_legacy_done', 'task_legacy_running'],
    );
  });

  it('review 2.16: records from before tasks kept their service are not adopted by a base URL only a folder names, until the user confirms it', async () => {
    const api = await connectVideo(ctx.service);
    const foreign = normalizeBaseUrl(second.service.baseUrl);
    const workspaceBaseUrl = (value: string | undefined) =>
      vscode.workspace.getConfiguration('promptreel').update('baseUrl', value, vscode.ConfigurationTarget.Workspace);
    try {
      // The user names no service of their own; a cloned repository's .vscode/settings.json names another host.
      await setSetting('baseUrl', undefined);
      await workspaceBaseUrl(second.service.baseUrl);
      await waitFor(() => api.connection.keyStore.scope === foreign, { what: 'the workspace base URL to take effect' });
      const now = Date.now();
      await api.storage.global.update(TASKS_KEY, [
        { id: 'task_legacy_running', state: 'running', rawStatus: 'in_progress', createdAt: now, updatedAt: now, nextPollAt: now },
      ]);
      runtime(api).store.reload();
      await runtime(api).poller.pollNow();
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the point: not adopted during it
      assert.deepEqual(
        runtime(api).store.tasks.map((task) => [task.id, task.service]),
        [['task_legacy_running', undefined]],
        'not adopted by a service the user did not choose',
      );
      const asked = () => second.service.requests.filter((request) => request.path.startsWith('/v1/videos')).map((request) => request.path);
      assert.deepEqual(asked(), [], 'its id was not sent to the host the folder names');

      // The user confirms the service (Use This Service): the records are its from now on, and followed there.
      await api.connection.keyStore.confirmService();
      await waitFor(() => runtime(api).store.get('task_legacy_running')?.service === foreign, { what: 'the record to be adopted once confirmed' });
      await runtime(api).poller.pollNow();
      await waitFor(() => asked().includes('/v1/videos/task_legacy_running'), { what: 'the adopted task to be polled on its service' });
    } finally {
      await workspaceBaseUrl(undefined);
      await api.storage.global.update(CONFIRMED_ORIGINS_KEY, undefined);
    }
  });
});
