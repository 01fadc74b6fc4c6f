import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { CreateOutcome } from '../../../src/video/videoCreator';
import type { VideoTaskRecord } from '../../../src/video/core/videoTaskRecord';
import {
  connectVideo,
  generateReviewed,
  VIDEO,
  pollUntil,
  recordMessages,
  runtime,
  scriptQuickInputs,
  setSetting,
  videoPosts,
  waitFor,
} from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';
import { testApi } from '../support/extension';

const PROMPT = 'A paper boat drifting down a rainy street at dusk';

function created(outcome: CreateOutcome | undefined): VideoTaskRecord {
  assert.ok(outcome && outcome.kind === 'created', `a task was created: ${JSON.stringify(outcome)}`);
  return outcome.task;
}

describe('video: creating tasks', () => {
  const ctx = useConnectedService(VIDEO);

  it('Generate Video from the palette sends every field the user set, and the task is listed at once', async () => {
    const api = await connectVideo(ctx.service);
    const script = scriptQuickInputs([
      { input: `  ${PROMPT}  ` },
      { pick: 'Duration' },
      { input: '8' },
      { pick: 'Resolution' },
      { pick: '1080p' },
      { pick: 'Aspect ratio' },
      { pick: '16:9' },
      { pick: 'Generate audio' },
      { pick: 'Watermark' },
      { pick: 'Seed' },
      { input: '42' },
      { pick: 'Content review' },
      { pick: 'Generate video' },
    ]);
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo');
    } finally {
      script.restore();
    }
    const task = created(outcome);
    assert.equal(script.remaining, 0, 'every scripted step was used');
    const review = script.seen.find((step) => step.kind === 'pick');
    assert.match(review?.title ?? '', /Generate Video \(2\/2\)/);
    // The review starts from the configured defaults.
    assert.ok(review?.labels?.includes('$(play) Generate video'));

    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1);
    assert.equal(posts[0].key, ctx.service.demoKey);
    assert.deepEqual(posts[0].body, {
      model: 'promptreel-video',
      prompt: PROMPT,
      seconds: '8',
      moderator: false,
      metadata: { resolution: '1080p', ratio: '16:9', generate_audio: false, watermark: true, seed: 42 },
    });
    assert.equal(ctx.service.task(task.id)?.seconds, '8', 'seconds arrived as a string');

    const { tree, store } = runtime(api);
    assert.deepEqual(tree.getChildren(), [task.id], 'listed at once');
    const item = await tree.getTreeItem(task.id);
    assert.equal(item.label, 'A paper boat drifting down a rainy street at dusk'.slice(0, 47) + '…');
    assert.match(String(item.contextValue), /^videoTask:queued:request$/);
    assert.match(String(item.description), /^promptreel-video · \d+s$/);
    assert.equal(store.get(task.id)?.request?.metadata?.seed, 42);
  });

  it('sends the configured defaults when nothing is changed, and no seed unless one is set', async () => {
    await setSetting('video.seconds', '6');
    await setSetting('video.ratio', '9:16');
    const script = scriptQuickInputs([{ input: PROMPT }, { pick: 'Generate video' }]);
    try {
      created(await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo'));
    } finally {
      script.restore();
    }
    assert.deepEqual(videoPosts(ctx.service)[0].body, {
      model: 'promptreel-video',
      prompt: PROMPT,
      seconds: '6',
      moderator: true,
      metadata: { resolution: '720p', ratio: '9:16', generate_audio: true, watermark: false },
    });
  });

  it('asks for the model among the video models of the service when none is configured', async () => {
    await setSetting('video.model', undefined);
    const script = scriptQuickInputs([{ input: PROMPT }, { pick: 'Generate video' }, { pick: 'promptreel-video' }, { pick: 'Generate video' }]);
    try {
      created(await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo'));
    } finally {
      script.restore();
    }
    const modelPick = script.seen.filter((step) => step.kind === 'pick')[1];
    assert.deepEqual(modelPick.labels, ['promptreel-video', '$(edit) Enter a model id…'], 'chat models are not offered');
    assert.equal((videoPosts(ctx.service)[0].body as { model: string }).model, 'promptreel-video');
  });

  it('sends nothing when the quick input is dismissed', async () => {
    const script = scriptQuickInputs([{ input: PROMPT }, { cancel: true }]);
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.generateVideo'), undefined);
    } finally {
      script.restore();
    }
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('Generate Explainer Video: the chat model writes the prompt from the selection, the user edits it, the task remembers its source', async () => {
    const api = await connectVideo(ctx.service);
    await setSetting('chat.model', 'promptreel-chat');
    const sample = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'src', 'sample.ts');
    const document = await vscode.workspace.openTextDocument(sample);
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(1, 0, 3, 1);
    let offered: string | undefined;
    const script = scriptQuickInputs([
      {
        input: (value) => {
          offered = value;
          return `${value ?? ''} Edited by hand.`;
        },
      },
      { pick: 'Generate video' },
    ]);
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateExplainerVideo');
    } finally {
      script.restore();
    }
    const task = created(outcome);
    const chat = ctx.service.requests.find((request) => request.path === '/v1/chat/completions');
    assert.ok(chat, 'the chat model was asked');
    const body = chat.body as { model: string; messages: { role: string; content: string }[]; stream?: boolean };
    assert.equal(body.model, 'promptreel-chat');
    assert.ok(body.messages.at(-1)?.content.includes('export function add(a: number, b: number): number {\n  return a + b;\n}'), 'the selected code is sent');
    assert.ok(body.messages.at(-1)?.content.includes('src/sample.ts (typescript)'), 'with its file name and language');
    assert.ok(!body.messages.at(-1)?.content.includes('Adds two numbers'), 'only the selection');
    // The local service answers "You said: <the user message>": the prompt offered for editing is that reply.
    assert.match(offered ?? '', /^You said: /);
    const post = videoPosts(ctx.service);
    assert.equal(post.length, 1, 'one video request, after the edit');
    assert.equal((post[0].body as { prompt: string }).prompt, `${offered} Edited by hand.`);
    assert.deepEqual(task.source, { uri: document.uri.toString(), startLine: 1, startCharacter: 0, endLine: 3, endCharacter: 1 });
    assert.match(String((await runtime(api).tree.getTreeItem(task.id)).contextValue), /:source/);

    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await vscode.commands.executeCommand('promptreel.video.goToSource', task.id), true);
    const active = vscode.window.activeTextEditor;
    assert.equal(active?.document.uri.toString(), document.uri.toString());
    assert.deepEqual([active?.selection.start.line, active?.selection.end.line], [1, 3]);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Explainer without a selection or without a chat model explains what is missing and sends nothing', async () => {
    const messages = recordMessages();
    try {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      assert.equal(await vscode.commands.executeCommand('promptreel.generateExplainerVideo'), undefined);
      const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'src', 'sample.ts'));
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(0, 0, 0, 4);
      // No model set, and the service lists no chat model to fall back on.
      await setSetting('chat.model', undefined);
      ctx.service.setScenario({ models: [{ id: 'promptreel-video', owned_by: 'promptreel', supported_endpoint_types: ['openai-video'] }] });
      (await testApi()).languageModels.catalog.invalidate('the test changed the model list');
      assert.equal(await vscode.commands.executeCommand('promptreel.generateExplainerVideo'), undefined);
    } finally {
      messages.restore();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      (await testApi()).languageModels.catalog.invalidate('the test is over');
    }
    assert.match(messages.shown[0].message, /Select the code/);
    assert.deepEqual(messages.shown[1].items, ['Select Chat Model']);
    assert.equal(ctx.service.requests.filter((request) => request.method === 'POST').length, 0);
  });

  it('a refused create shows the service message with actions, and lists nothing', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({
      fault: { status: 403, body: 'task', code: 'insufficient_user_quota', message: '用户额度不足 (quota too low)', method: 'POST', path: '^/v1/videos$' },
    });
    const messages = recordMessages();
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await generateReviewed({ prompt: PROMPT });
    } finally {
      messages.restore();
    }
    assert.ok(outcome?.kind === 'failed');
    assert.equal(outcome.mayExist, false);
    assert.match(outcome.shown.message, /HTTP 403/);
    assert.match(outcome.shown.message, /用户额度不足 \(quota too low\)/);
    assert.match(outcome.shown.message, /balance or the key's quota is too low/);
    assert.deepEqual(outcome.shown.actions, ['Set Video Model', 'Set API Key', 'Show Logs']);
    assert.equal(messages.shown[0].kind, 'showErrorMessage');
    assert.equal(runtime(api).store.tasks.length, 0);

    ctx.service.setScenario({
      fault: { status: 401, body: 'openai', code: 'invalid_api_key', message: 'Invalid token', method: 'POST', path: '^/v1/videos$' },
    });
    const refused = await generateReviewed({ prompt: PROMPT });
    assert.ok(refused?.kind === 'failed');
    assert.deepEqual(refused.shown.actions, ['Set API Key', 'Show Logs']);
  });

  it('a create whose answer was lost is not sent again: the user is told the task may exist, and can track it', async () => {
    const api = await connectVideo(ctx.service);
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    const messages = recordMessages();
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await generateReviewed({ prompt: PROMPT });
      // Time for any automatic retry to show up (the point: there must be none).
      await new Promise((resolve) => setTimeout(resolve, 1500));
    } finally {
      messages.restore();
    }
    assert.ok(outcome?.kind === 'failed', JSON.stringify(outcome));
    assert.equal(outcome.mayExist, true);
    assert.equal(outcome.shown.severity, 'warning');
    assert.match(outcome.shown.message, /may exist/);
    assert.deepEqual(outcome.shown.actions, ['Track Video Task by ID', 'Show Logs']);
    assert.equal(videoPosts(ctx.service).length, 1, 'exactly one POST');
    assert.equal(ctx.service.requests.filter((request) => request.method === 'POST').length, 1, 'nothing else was posted either');
    const lost = runtime(api).store.tasks.find((task) => task.state === 'unconfirmed');
    assert.ok(lost, 'an "answer lost" entry is listed');

    // The task did get made: Track Video Task by ID brings it into the list and follows it.
    ctx.service.setScenario({ video: { dropCreateConnection: false } });
    const serverTasks = (await (await fetch(`${ctx.service.baseUrl}/__control/tasks`)).json()) as { tasks: { id: string }[] };
    assert.equal(serverTasks.tasks.length, 1);
    const id = serverTasks.tasks[0].id;
    const script = scriptQuickInputs([{ input: ` ${id} ` }]);
    let tracked: VideoTaskRecord | undefined;
    try {
      // As the entry's context menu does: the command gets the entry's (local) id and asks for the service's.
      tracked = await vscode.commands.executeCommand<VideoTaskRecord>('promptreel.trackVideoTask', lost.id);
    } finally {
      script.restore();
    }
    assert.equal(tracked?.id, id);
    assert.equal(runtime(api).store.get(lost.id), undefined, 'the "answer lost" entry made way for the real task');
    assert.equal(tracked?.prompt, undefined, 'a tracked task has no known prompt');
    assert.equal((await runtime(api).tree.getTreeItem(id)).label, `Task ${id}`);
    const done = await pollUntil(api, id, (task) => task.state === 'completed', 'the tracked task to complete');
    assert.ok(done.videoUrl);
    assert.equal(videoPosts(ctx.service).length, 1, 'still one POST');
  });

  for (const status of [502, 504, 524] as const) {
    it(`issue 11.7: a ${status} after POST /v1/videos means "may have been created": no Retry, Track by ID, an "answer lost" entry`, async () => {
      const api = await connectVideo(ctx.service);
      ctx.service.setScenario({ video: { proxyStatusAfterCreate: status } });
      const messages = recordMessages();
      let outcome: CreateOutcome | undefined;
      try {
        outcome = await generateReviewed({ prompt: PROMPT });
      } finally {
        messages.restore();
      }
      assert.ok(outcome?.kind === 'failed', JSON.stringify(outcome));
      assert.equal(outcome.mayExist, true);
      assert.match(outcome.shown.message, new RegExp(`answered HTTP ${status} after the request was sent`));
      assert.ok(!outcome.shown.actions.some((action) => /retry/i.test(action)), `no Retry: ${outcome.shown.actions.join(', ')}`);
      assert.ok(outcome.shown.actions.includes('Track Video Task by ID'));
      const lost = runtime(api).store.tasks.filter((task) => task.state === 'unconfirmed');
      assert.equal(lost.length, 1);
      assert.equal(lost[0].prompt, PROMPT);
      assert.match((await runtime(api).tree.getTreeItem(lost[0].id)).contextValue ?? '', /^videoTask:unconfirmed/);
      assert.equal(videoPosts(ctx.service).length, 1, 'exactly one POST');
      assert.equal(runtime(api).poller.requestsInFlight, 0, 'the entry is not polled');
    });
  }

  it('review 2.3: called with a prompt (a task input, another extension), Generate Video shows the review with the price and sends nothing until it is accepted', async () => {
    await connectVideo(ctx.service);
    const script = scriptQuickInputs([{ cancel: true }]);
    let outcome: CreateOutcome | undefined;
    try {
      outcome = await vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo', { prompt: PROMPT, seconds: '10', review: false });
    } finally {
      script.restore();
    }
    assert.equal(outcome, undefined, 'dismissed: nothing created');
    assert.equal(videoPosts(ctx.service).length, 0, 'nothing was sent');
    const review = script.seen[0];
    assert.match(review?.title ?? '', /Generate Video \(2\/2\)/);
    const generate = review?.items?.[0];
    assert.equal(generate?.label, '$(play) Generate video');
    assert.equal(generate?.description, 'promptreel-video · 10 s · 720p · $0.40 · $2.80 left after', 'the arguments prefill it, with the price');
  });

  it('review 2.10: the review shows at once while the price is read, and says the price is not known when the service does not finish', async () => {
    const api = await connectVideo(ctx.service);
    api.connection.prices.forget();
    api.connection.keyHealth.forget();
    // Every GET of the service (the prices, the key's quota, the model list) trickles and never ends.
    ctx.service.setScenario({ trickleMs: 200 });
    const script = scriptQuickInputs([{ cancel: true }]);
    try {
      await vscode.commands.executeCommand('promptreel.generateVideo', { prompt: PROMPT });
    } finally {
      script.restore();
      ctx.service.setScenario({ trickleMs: null });
      api.connection.prices.forget();
      api.connection.keyHealth.forget();
    }
    const review = script.seen[0];
    assert.deepEqual(review?.first, { labels: review?.first?.labels, busy: true }, 'shown while still reading');
    assert.equal(review?.first?.labels[0], '$(loading~spin) Reading the price…', 'shown before the price arrived');
    assert.match(review?.items?.[0]?.description ?? '', /^promptreel-video · \d+ s · 720p · price not known$/);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('review 2.3: Retry after a failed create asks again, with the price, before a second request', async () => {
    await connectVideo(ctx.service);
    ctx.service.setScenario({ fault: { status: 500, body: 'task', message: 'upstream busy', method: 'POST', path: '^/v1/videos$', times: 1 } });
    const failed = await generateReviewed({ prompt: PROMPT });
    assert.ok(failed?.kind === 'failed', JSON.stringify(failed));
    assert.ok(failed.shown.actions.includes('Retry'));
    assert.equal(videoPosts(ctx.service).length, 1);
    const api = await testApi();
    const messages = recordMessages();
    try {
      const retried = await (await api.video.flows.get()).creator.retry({ model: 'promptreel-video', prompt: PROMPT, seconds: '5' });
      assert.equal(retried, undefined, 'dismissed: nothing sent');
    } finally {
      messages.restore();
    }
    const asked = messages.shown.find((shown) => shown.message === 'Send the video request again?');
    assert.ok(asked, JSON.stringify(messages.shown));
    assert.match(asked.detail ?? '', /Price: \$0\.40 · \$2\.80 left after\./);
    assert.equal(videoPosts(ctx.service).length, 1, 'no second request without a second confirmation');
  });

  it('asks for a key instead of failing when there is none', async () => {
    const api = await connectVideo(ctx.service);
    await api.connection.keyStore.clear();
    const messages = recordMessages();
    try {
      const outcome = await generateReviewed({ prompt: PROMPT });
      assert.deepEqual(outcome, { kind: 'not-ready' });
    } finally {
      messages.restore();
    }
    await waitFor(() => messages.shown.length > 0, { what: 'the warning' });
    assert.deepEqual(messages.shown[0].items, ['Set API Key']);
    assert.equal(videoPosts(ctx.service).length, 0);
  });
});
