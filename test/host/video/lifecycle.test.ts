import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../src/extension';
import type { CreateOutcome } from '../../../src/video/videoCreator';
import type { VideoTaskRecord } from '../../../src/video/core/videoTaskRecord';
import type { VideoScenario } from '../../service';
import { connectVideo, generateReviewed, VIDEO, pollUntil, recordMessages, runtime, setSetting, waitFor } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

const PROMPT = 'A lighthouse in a storm, seen from a small boat';

async function create(prompt = PROMPT): Promise<VideoTaskRecord> {
  const outcome = await generateReviewed({ prompt });
  assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
  return outcome.task;
}

/** Polls the task to its end, keeping every distinct (state, raw status, progress) seen on the way. */
async function followToEnd(api: PromptreelTestApi, id: string): Promise<{ final: VideoTaskRecord; seen: string[] }> {
  const seen: string[] = [];
  const note = () => {
    const task = api.video.store.get(id);
    const entry = task ? `${task.state}/${task.rawStatus}/${task.progress ?? '-'}` : 'gone';
    if (seen.at(-1) !== entry) seen.push(entry);
  };
  const listener = api.video.store.onDidChange(note);
  try {
    note();
    const final = await pollUntil(api, id, (task) => task.state === 'completed' || task.state === 'failed', `${id} to end`);
    return { final, seen };
  } finally {
    listener.dispose();
  }
}

describe('video: task lifecycle with the real poller', () => {
  const ctx = useConnectedService(VIDEO);

  it('follows a task queued → running → completed by itself, with the tree, status bar and notification following', async () => {
    const api = await connectVideo(ctx.service);
    const messages = recordMessages();
    try {
      const task = await create();
      const { tree, store } = runtime(api);
      assert.match(String((await tree.getTreeItem(task.id)).contextValue), /^videoTask:queued/);
      await waitFor(() => api.statusBar.text.endsWith('$(loading~spin) 1'), { what: 'the status bar to count the task' });
      // No pollNow here: the poller's own timer (2 s) drives it.
      await waitFor(() => store.get(task.id)?.state === 'running', { what: 'running', timeoutMs: 15_000 });
      const running = await tree.getTreeItem(task.id);
      assert.equal((running.iconPath as vscode.ThemeIcon).id, 'loading~spin');
      assert.match(String(running.description), /^promptreel-video · \d+% · \d+s$/);
      const done = await waitFor(() => (store.get(task.id)?.state === 'completed' ? store.get(task.id) : undefined), { what: 'completed', timeoutMs: 20_000 });
      assert.equal(done.progress, 100);
      assert.equal(done.videoUrl, ctx.service.task(task.id)?.url);
      const item = await tree.getTreeItem(task.id);
      assert.equal((item.iconPath as vscode.ThemeIcon).id, 'check');
      assert.equal(String(item.contextValue), 'videoTask:completed:request');
      const tooltip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
      // Values are text: Markdown's characters in them are escaped (`task\_…`).
      for (const expected of [task.id.replace(/_/g, '\\_'), '**Status:** completed', 'promptreel-video', 'Resolution', '720p', 'Took'])
        assert.ok(tooltip.includes(expected), `tooltip has ${expected}:\n${tooltip}`);
      assert.ok(!tooltip.includes('sig='), 'the signed part of the address is not shown');
      await waitFor(() => !api.statusBar.text.includes('loading~spin'), { what: 'the status bar to drop the count' });
      await waitFor(() => messages.shown.some((shown) => shown.message.includes('is ready')), { what: 'the notification' });
      const ready = messages.shown.find((shown) => shown.message.includes('is ready'));
      assert.deepEqual(ready?.items, ['Download', 'Open']);
      assert.equal(runtime(api).poller.isScheduled, false, 'no timer once nothing is pending');
      const polls = ctx.service.task(task.id)?.polls ?? 0;
      await new Promise((resolve) => setTimeout(resolve, 2500)); // the point: no poll during more than one interval (2 s)
      assert.equal(ctx.service.task(task.id)?.polls, polls, 'no poll after the end');
    } finally {
      messages.restore();
    }
  });

  const variants: { name: string; video: Partial<VideoScenario> }[] = [
    { name: 'lower-case statuses, metadata.url, integer progress', video: {} },
    { name: 'upper-case statuses (NOT_START, SUBMITTED, IN_PROGRESS, SUCCESS), percent strings', video: { statusCase: 'upper', progress: 'percent-string' } },
    { name: 'a custom running status, no progress, video_url', video: { customRunningStatus: 'RENDERING_FRAMES', progress: 'none', urlField: 'video_url' } },
    { name: 'url, completed_at while running', video: { urlField: 'url', completedAtWhileRunning: true } },
    { name: 'content.video_url, task-id-only create answer', video: { urlField: 'content.video_url', createShape: 'task-id-only' } },
    { name: 'result_url', video: { urlField: 'result_url' } },
    { name: 'data.result_url in a data envelope', video: { urlField: 'data.result_url', createShape: 'data-envelope' } },
    { name: 'data.result_url without envelope', video: { urlField: 'data.result_url' } },
    { name: 'no address at all (the /content fallback)', video: { urlField: 'none' } },
  ];
  for (const variant of variants) {
    it(`completes with ${variant.name}`, async () => {
      const api = await connectVideo(ctx.service);
      ctx.service.setScenario({ video: { pollsToRunning: 1, pollsToDone: 4, ...variant.video } });
      const task = await create(`Variant: ${variant.name}`);
      const { final, seen } = await followToEnd(api, task.id);
      assert.equal(final.state, 'completed', seen.join(' → '));
      assert.ok(
        seen.some((entry) => entry.startsWith('running/')),
        `went through running: ${seen.join(' → ')}`,
      );
      const upper = variant.video.statusCase === 'upper';
      assert.equal(final.rawStatus, upper ? 'SUCCESS' : 'completed');
      if (variant.video.customRunningStatus) {
        assert.ok(seen.includes('running/RENDERING_FRAMES/-'), seen.join(' → '));
        const store = runtime(api).store;
        assert.ok(store.get(task.id));
      }
      if (variant.video.progress !== 'none')
        assert.ok(
          seen.some((entry) => /^running\/\w+\/(10|50|90)$/.test(entry)),
          `progress reported: ${seen.join(' → ')}`,
        );
      if (variant.video.urlField === 'none') assert.equal(final.videoUrl, undefined);
      else assert.equal(final.videoUrl, ctx.service.task(task.id)?.url);
    });
  }

  it('shows an unknown running status raw in the tree', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({ video: { customRunningStatus: 'RENDERING_FRAMES', progress: 'none', pollsToDone: 50 } });
    const task = await create();
    await pollUntil(api, task.id, (current) => current.rawStatus === 'RENDERING_FRAMES', 'the custom status');
    const item = await runtime(api).tree.getTreeItem(task.id);
    assert.match(String(item.description), /RENDERING_FRAMES$/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, 'loading~spin');
  });

  it("review 2.11: the hover shows the service's status as text: a blank line and a Markdown image in it make no image or link", async () => {
    const api = await connectVideo(ctx.service);
    const status = `RENDERING\n\n![x](${ctx.service.cdnUrl}/img) [more](${ctx.service.cdnUrl}/more)`;
    ctx.service.setScenario({ video: { customRunningStatus: status, progress: 'none', pollsToDone: 50 } });
    const task = await create();
    await pollUntil(api, task.id, (current) => current.rawStatus === status, 'the status with Markdown in it');
    const tooltip = (await runtime(api).tree.getTreeItem(task.id)).tooltip as vscode.MarkdownString;
    const value = tooltip.value;
    assert.ok(!value.includes('![') && !value.includes(']('), `no image or link syntax survives:\n${value}`);
    assert.ok(!tooltip.isTrusted && !tooltip.supportHtml, 'the hover runs no command and renders no HTML');
    const statusLine = value.split('\n').find((line) => line.startsWith('**Status:**'));
    assert.ok(statusLine?.includes('RENDERING') && statusLine.includes('/img'), `the whole status, as text, on its own line:\n${value}`);
    assert.ok(!value.includes(`\`${task.id}\``) && value.includes(task.id.replace(/_/g, '\\_')), `the task id is text too:\n${value}`);
    assert.equal(ctx.service.cdnRequests.length, 0, 'nothing was fetched');
  });

  for (const failureStyle of ['error-object', 'fail-reason', 'none'] as const) {
    it(`reports a failure ${failureStyle === 'none' ? 'without a reason' : `with its reason (${failureStyle})`}`, async () => {
      const api = await connectVideo(ctx.service);
      ctx.service.setScenario({ video: { outcome: 'failed', failureStyle, pollsToDone: 2 } });
      const messages = recordMessages();
      try {
        const task = await create();
        const { final } = await followToEnd(api, task.id);
        assert.equal(final.state, 'failed');
        const reason = 'Video generation failed: the upstream provider rejected the prompt';
        assert.equal(final.error, failureStyle === 'none' ? undefined : reason);
        const item = await runtime(api).tree.getTreeItem(task.id);
        assert.equal((item.iconPath as vscode.ThemeIcon).id, 'error');
        assert.match(String(item.contextValue), /^videoTask:failed/);
        const tooltip = (item.tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ');
        assert.ok(tooltip.includes(failureStyle === 'none' ? 'the service gave no reason' : 'upstream provider rejected'), tooltip);
        const shown = await waitFor(() => messages.shown.find((message) => message.message.includes('failed')), { what: 'the failure notification' });
        assert.equal(shown.kind, 'showErrorMessage');
        assert.ok(shown.message.includes(failureStyle === 'none' ? 'the service gave no reason' : reason), shown.message);
        assert.deepEqual(shown.items, ['Regenerate', 'Show Logs']);
      } finally {
        messages.restore();
      }
    });
  }

  it('marks a task pending past the limit as stale, and stops polling it', async () => {
    const api = await connectVideo(ctx.service);
    await setSetting('video.staleAfterHours', 1);
    ctx.service.setScenario({ video: { pollsToDone: 1000 } });
    const old = ctx.service.createTask({ createdAt: Date.now() - 2 * 3_600_000 });
    const tracked = await vscode.commands.executeCommand<VideoTaskRecord>('promptreel.trackVideoTask', old.id);
    assert.ok(tracked);
    const { store, tree, poller } = runtime(api);
    await waitFor(() => store.get(old.id)?.state === 'stale', { what: 'stale', timeoutMs: 15_000 });
    assert.match(String((await tree.getTreeItem(old.id)).description), /stale$/);
    assert.equal(((await tree.getTreeItem(old.id)).iconPath as vscode.ThemeIcon).id, 'warning');
    await waitFor(() => !poller.isScheduled, { what: 'the timer to stop' });
    const polls = ctx.service.task(old.id)?.polls;
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the point: no poll during more than one interval (2 s)
    assert.equal(ctx.service.task(old.id)?.polls, polls, 'not polled any more');
    // Refresh by hand still asks, and a task that did finish leaves the stale state.
    ctx.service.task(old.id)!.forced = 'completed';
    await vscode.commands.executeCommand('promptreel.video.refresh', old.id);
    await waitFor(() => store.get(old.id)?.state === 'completed', { what: 'completed after a manual refresh' });
  });

  it('asks before Regenerate charges a new task, and creates nothing when dismissed', async () => {
    await connectVideo(ctx.service);
    const task = await create();
    const messages = recordMessages();
    try {
      const outcome = await vscode.commands.executeCommand<CreateOutcome | undefined>('promptreel.video.regenerate', task.id);
      assert.equal(outcome, undefined);
    } finally {
      messages.restore();
    }
    const question = messages.shown.find((shown) => shown.message === 'Generate this video again?');
    assert.ok(question, 'a confirmation was shown');
    assert.deepEqual(question.items, ['Generate Again']);
    assert.equal(ctx.service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos').length, 1, 'no second task');
  });

  it('creates exactly one task per confirmed Regenerate, with the same request', async () => {
    const api = await connectVideo(ctx.service);
    const task = await create();
    const messages = recordMessages(({ message, items }) => (message === 'Generate this video again?' ? items[0] : undefined));
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CreateOutcome>('promptreel.video.regenerate', task.id);
    } finally {
      messages.restore();
    }
    assert.ok(outcome?.kind === 'created');
    assert.notEqual(outcome.task.id, task.id);
    const posts = ctx.service.requests.filter((request) => request.method === 'POST' && request.path === '/v1/videos');
    assert.equal(posts.length, 2);
    assert.deepEqual(posts[1].body, posts[0].body);
    assert.deepEqual(runtime(api).tree.getChildren(), [outcome.task.id, task.id], 'newest first');
  });
});
