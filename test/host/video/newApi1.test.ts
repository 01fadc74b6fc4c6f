import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { VariantsOutcome } from '../../../src/video/variantsFlow';
import { sampleBytes, SCENARIO_PRESETS, type LocalService } from '../../service';
import { useConnectedService, type ServiceScenario } from '../support/connectedService';
import {
  confirmedRequests,
  generateReviewed,
  pollUntil,
  pumping,
  runScripted,
  setSetting,
  STUDIO,
  testApi,
  VIDEO,
  videoPosts,
  waitFor,
} from './videoTestSupport';
import { answerToolConfirmations } from './videoToolSupport';

/** A new-api 1.0 gateway (SERVICE.md, "Video task query"): no address in the task, the video at /content, which redirects to the CDN. */
export const NEW_API_1: ServiceScenario = {
  prepare: (_api, service) => Promise.resolve(service.setScenario(SCENARIO_PRESETS['new-api-1'])),
};

/** The file is the video, fetched from /content with the key and from the signed CDN address without it. */
function assertFetchedOverContent(service: LocalService, id: string, file: string): void {
  assert.ok(fs.readFileSync(file).equals(sampleBytes()), `${file} is byte-identical to the served video`);
  const content = service.requests.filter((request) => request.method === 'GET' && request.path === `/v1/videos/${id}/content`);
  assert.ok(content.length >= 1, 'fetched from /content');
  assert.ok(
    content.every((request) => request.key === service.demoKey),
    'with the key',
  );
  const signed = new URL(service.task(id)?.url ?? '');
  assert.ok(
    service.cdnRequests.some((request) => request.path === signed.pathname + signed.search),
    'the redirect to the signed address was followed',
  );
  assert.ok(
    service.cdnRequests.every((request) => request.headers.authorization === undefined && !JSON.stringify(request.headers).includes(service.demoKey)),
    'the key never reached the CDN',
  );
}

function posts(service: LocalService, prompt: string) {
  return videoPosts(service).filter((post) => (post.body as { prompt?: string }).prompt === prompt);
}

describe('video: a new-api 1.0 gateway (issue 26.1: its own task record, no address, /content redirecting to a signed CDN address)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO, NEW_API_1);

  it('issue 26.1: Generate Video follows NOT_START → IN_PROGRESS → SUCCESS in the tree, and Download to Workspace saves the video', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToRunning: 2, pollsToDone: 5 } });
    const prompt = 'A lantern festival over a river';
    const outcome = await generateReviewed({ prompt });
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const id = outcome.task.id;
    const seen: string[] = [];
    const record = await pollUntil(
      api,
      id,
      (task) => {
        seen.push(`${task.rawStatus}/${task.progress ?? '-'}`);
        return task.state === 'completed';
      },
      'the task to complete',
    );
    assert.equal(record.rawStatus, 'SUCCESS');
    assert.equal(record.videoUrl, undefined, 'the gateway gave no address');
    assert.ok(
      seen.some((entry) => /^IN_PROGRESS\/(10|50|90)$/.test(entry)),
      `the percent strings became progress: ${seen.join(' → ')}`,
    );
    const item = await api.video.tree.getTreeItem(id);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'check');
    assert.ok((item.tooltip as vscode.MarkdownString).value.includes('**Status:** SUCCESS'), 'the raw status is shown');

    const saved = await (await api.video.downloader.get()).download(id);
    assert.equal(saved.kind, 'saved', JSON.stringify(saved));
    const file = api.video.store.get(id)?.downloadedPath;
    assert.ok(file);
    assertFetchedOverContent(ctx.service, id, file);
    assert.equal(posts(ctx.service, prompt).length, 1, 'one POST for the task');
  });

  it('issue 26.1: a failed task shows the gateway’s reason, in Chinese, in the tree', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToDone: 2, outcome: 'failed' } });
    const outcome = await generateReviewed({ prompt: 'A prompt the upstream refuses' });
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const record = await pollUntil(api, outcome.task.id, (task) => task.state === 'failed', 'the task to fail');
    assert.equal(record.rawStatus, 'FAILURE');
    assert.equal(record.error, SCENARIO_PRESETS['new-api-1'].video.failureReason);
    const tooltip = (await api.video.tree.getTreeItem(outcome.task.id)).tooltip as vscode.MarkdownString;
    assert.ok(tooltip.value.includes('视频生成失败'), tooltip.value);
  });

  it('issue 26.1: the video tool makes one task, follows it and saves the video from /content', async () => {
    const api = await testApi();
    const prompt = 'A paper crane unfolding';
    // Accepted where Promptreel asks (VS Code before 1.106, toolApproval.test.ts).
    const confirmations = answerToolConfirmations(true);
    const result = await pumping(api, vscode.lm.invokeTool('promptreel_generateVideo', { input: { prompt }, toolInvocationToken: undefined })).finally(() =>
      confirmations.restore(),
    );
    const text = result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
    const match = /\(task (task_\w+)\).*\((file:\/\/[^)]+)\)/.exec(text);
    assert.ok(match, text);
    assertFetchedOverContent(ctx.service, match[1], vscode.Uri.parse(match[2]).fsPath);
    assert.equal(posts(ctx.service, prompt).length, 1, 'one POST');
  });

  it('issue 26.1: variants make one POST per task and each is followed and downloaded from /content', async () => {
    const api = await testApi();
    await setSetting('video.seed', 7);
    const prompt = 'A snail crossing a leaf';
    const { result } = await runScripted(
      [{ pick: 'One prompt, different seeds' }, { input: prompt }, { input: '2' }, { pick: 'Review 2 variants' }],
      () => vscode.commands.executeCommand<VariantsOutcome | undefined>('promptreel.generateVideoVariants'),
      (shown) => (/^Generate \d+ videos?\?$/.test(shown.message) ? shown.items[0] : undefined),
    );
    assert.ok(result?.kind === 'created', JSON.stringify(result));
    assert.equal(posts(ctx.service, prompt).length, 2, 'one POST per variant');
    for (const task of result.tasks) {
      await pollUntil(api, task.id, (record) => record.state === 'completed', `variant ${task.id} completes`);
      const saved = await (await api.video.downloader.get()).download(task.id);
      assert.equal(saved.kind, 'saved', JSON.stringify(saved));
      assertFetchedOverContent(ctx.service, task.id, api.video.store.get(task.id)?.downloadedPath ?? '');
    }
  });

  it('issue 26.1: the gallery shows a running task’s progress from the "30%" strings, then its video', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToRunning: 1, pollsToDone: 6 } });
    const { creator, gallery } = await api.video.flows.get();
    const task = await creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt: 'A kettle coming to the boil' }));
    gallery.open();
    await pollUntil(api, task.id, (record) => record.rawStatus === 'IN_PROGRESS' && (record.progress ?? 0) > 0, 'the task to run');
    const progress = api.video.store.get(task.id)?.progress;
    await waitFor(
      () =>
        gallery
          .shownCards()
          .find((card) => card.id === task.id)
          ?.stateLabel.endsWith(` · ${progress}%`),
      { what: `the gallery card to show ${progress}%` },
    );
    await pollUntil(api, task.id, (record) => record.state === 'completed', 'the task to complete');
    const saved = await (await api.video.downloader.get()).download(task.id);
    assert.equal(saved.kind, 'saved', JSON.stringify(saved));
    await waitFor(() => gallery.poster(task.id), { what: 'the poster frame of the video', timeoutMs: 20_000 });
    assertFetchedOverContent(ctx.service, task.id, api.video.store.get(task.id)?.downloadedPath ?? '');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
