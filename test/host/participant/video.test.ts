import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../src/extension';
import type { ParticipantResult } from '../../../src/workbench/chatParticipant';
import { sampleBytes, SCENARIO_PRESETS } from '../../service';
import { useConnectedService } from '../support/connectedService';
import { clearTasks, VIDEO, setSetting, testApi, videoPosts } from '../video/videoTestSupport';
import { waitFor } from '../support/waitFor';
import { chatRequest, confirmedVideo, RecordingStream, requestTurn, responseTurn } from './participantSupport';

const PROMPT = 'a paper boat drifting down a rainy street';

/** Runs `/video` and drives the real poller (as Refresh does) until the handler is done. */
async function runVideo(
  api: PromptreelTestApi,
  stream: RecordingStream,
  token = new vscode.CancellationTokenSource().token,
  prompt = PROMPT,
  confirmed?: vscode.ChatContext,
): Promise<ParticipantResult> {
  const context = confirmed ?? (await confirmedVideo(api, prompt));
  let done = false;
  const handled = api.participant.handle(chatRequest({ prompt, command: 'video' }), context, stream, token).finally(() => (done = true));
  const deadline = Date.now() + 30_000;
  while (!done && Date.now() < deadline) {
    await api.video.poller.pollNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return handled;
}

describe('participant: @promptreel /video', () => {
  const ctx = useConnectedService(VIDEO);

  afterEach(async () => {
    await clearTasks(await testApi());
  });

  it('creates a task with the configured defaults, reports its progress, and ends with Download and Open', async () => {
    const api = await testApi();
    await setSetting('video.resolution', '1080p');
    ctx.service.setScenario({ video: { pollsToRunning: 1, pollsToDone: 3 } });
    const stream = new RecordingStream();
    const result = await runVideo(api, stream);

    const [post] = videoPosts(ctx.service);
    assert.deepEqual(post.body, {
      model: 'promptreel-video',
      prompt: PROMPT,
      seconds: '5',
      moderator: true,
      metadata: { resolution: '1080p', ratio: 'adaptive', generate_audio: true, watermark: false },
    });
    const id = result.metadata.taskId;
    assert.ok(id, 'the result names the task');
    assert.deepEqual(result.metadata, { kind: 'video', prompt: PROMPT, taskId: id, videoState: 'completed' });
    assert.equal(result.errorDetails, undefined);

    assert.match(stream.text, new RegExp(`Video task \`${id}\` created with \`promptreel-video\``));
    assert.match(stream.text, /The video is ready\.$/);
    const progress = stream.progressMessages;
    assert.equal(progress[0], 'Creating the video task…');
    assert.ok(
      progress.some((line) => line.startsWith(`Video ${id}: in_progress`)),
      progress.join(' | '),
    );
    assert.equal(progress.at(-1), `Video ${id}: completed — 100%`);
    assert.deepEqual(
      stream.buttons.map((button) => [button.command, button.arguments]),
      [
        ['promptreel.video.download', [id]],
        ['promptreel.video.open', [id]],
      ],
    );

    // The same task is in the Video Tasks list (the store behind the tree) and its item shows it.
    const record = api.video.store.get(id);
    assert.equal(record?.state, 'completed');
    assert.ok(api.video.tree.getChildren().includes(id));
    assert.match(String((await api.video.tree.getTreeItem(id)).label), /a paper boat drifting/);

    // The buttons work: Download saves the file, Open plays it.
    const [download, open] = stream.buttons;
    await vscode.commands.executeCommand(download.command, ...(download.arguments ?? []));
    const saved = await waitFor(() => api.video.store.get(id)?.downloadedPath, { what: 'the downloaded file', timeoutMs: 20_000 });
    assert.ok(fs.existsSync(saved) && fs.statSync(saved).size > 0, saved);
    await vscode.commands.executeCommand(open.command, ...(open.arguments ?? []));

    assert.deepEqual(await api.participant.provideFollowups(result), [{ prompt: PROMPT, label: 'Make another video from the same prompt', command: 'video' }]);
  });

  it('issue 26.1: against a new-api 1.0 gateway (no address), follows the task to SUCCESS, and its Download saves the video from /content', async () => {
    const api = await testApi();
    ctx.service.setScenario(SCENARIO_PRESETS['new-api-1']);
    ctx.service.setScenario({ video: { pollsToRunning: 1, pollsToDone: 4 } });
    const stream = new RecordingStream();
    const result = await runVideo(api, stream);
    const id = result.metadata.taskId;
    assert.ok(id, 'the result names the task');
    assert.equal(result.metadata.videoState, 'completed');
    assert.ok(
      stream.progressMessages.some((line) => /^Video \S+: IN_PROGRESS — (10|50|90)%$/.test(line)),
      stream.progressMessages.join(' | '),
    );
    assert.equal(stream.progressMessages.at(-1), `Video ${id}: SUCCESS — 100%`);
    const [download] = stream.buttons;
    await vscode.commands.executeCommand(download.command, ...(download.arguments ?? []));
    const saved = await waitFor(() => api.video.store.get(id)?.downloadedPath, { what: 'the downloaded file', timeoutMs: 20_000 });
    assert.ok(fs.readFileSync(saved).equals(sampleBytes()), 'the same bytes the service serves');
    assert.ok(ctx.service.requests.some((request) => request.path === `/v1/videos/${id}/content` && request.key === ctx.service.demoKey));
    assert.ok(ctx.service.cdnRequests.length > 0 && ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined));
    assert.equal(videoPosts(ctx.service).length, 1, 'one POST');
  });

  it('reports a failed task with the reason the service gave', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToDone: 1, outcome: 'failed', failureStyle: 'fail-reason' } });
    const stream = new RecordingStream();
    const result = await runVideo(api, stream);
    assert.equal(result.metadata.videoState, 'failed');
    assert.match(result.errorDetails?.message ?? '', new RegExp(`The video task ${result.metadata.taskId} failed \\(failed\\): .+`));
    assert.deepEqual(stream.buttons, []);
  });

  it('stops following when the chat request is cancelled; the task runs on in the list', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToDone: 50 } });
    const source = new vscode.CancellationTokenSource();
    const stream = new RecordingStream();
    const handled = api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), await confirmedVideo(api, PROMPT), stream, source.token);
    await waitFor(() => /created with/.test(stream.text), { what: 'the task to be created', timeoutMs: 20_000 });
    source.cancel();
    const result = await handled;
    assert.equal(result.metadata.videoState, 'running');
    assert.match(stream.text, /Stopped following the task here/);
    const id = result.metadata.taskId;
    assert.ok(id && api.video.store.get(id), 'the task is still listed');
  });

  it('issue 11.3: Stop while the create request is on its way does not abort it: the charged task lands in Video Tasks', async () => {
    const api = await testApi();
    // The gateway has the request (and has created the task) but takes its time to answer.
    ctx.service.setScenario({ video: { answerDelayMs: 1500, pollsToDone: 50 } });
    const source = new vscode.CancellationTokenSource();
    const stream = new RecordingStream();
    const handled = api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), await confirmedVideo(api, PROMPT), stream, source.token);
    await waitFor(() => videoPosts(ctx.service).length === 1, { what: 'the POST to reach the service' });
    source.cancel();
    const result = await handled;
    assert.equal(result.metadata.kind, 'cancelled');
    assert.match(stream.text, /already been sent, so it was not cancelled/);
    const serverTasks = (await (await fetch(`${ctx.service.baseUrl}/__control/tasks`)).json()) as { tasks: { id: string }[] };
    assert.equal(serverTasks.tasks.length, 1, 'the service made the task');
    const id = serverTasks.tasks[0].id;
    const listed = await waitFor(() => api.video.store.get(id), { what: 'the task in Video Tasks', timeoutMs: 10_000 });
    assert.equal(listed.prompt, PROMPT);
    assert.equal(videoPosts(ctx.service).length, 1, 'exactly one POST');
  });

  it('issue 11.3: an answer lost after the request was sent is listed as "answer lost", with Track Video Task by ID', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    const stream = new RecordingStream();
    const result = await api.participant.handle(
      chatRequest({ prompt: PROMPT, command: 'video' }),
      await confirmedVideo(api, PROMPT),
      stream,
      new vscode.CancellationTokenSource().token,
    );
    assert.equal(result.metadata.kind, 'error');
    assert.deepEqual(
      stream.buttons.map((button) => button.command),
      ['promptreel.trackVideoTask', 'promptreel.showLogs'],
    );
    const lost = api.video.store.tasks.filter((task) => task.state === 'unconfirmed');
    assert.equal(lost.length, 1);
    assert.equal(lost[0].prompt, PROMPT);
    assert.equal(videoPosts(ctx.service).length, 1, 'exactly one POST');
  });

  it('explains what is missing without creating anything: the prompt, the video model', async () => {
    const api = await testApi();
    const noPrompt = new RecordingStream();
    assert.equal(
      (await api.participant.handle(chatRequest({ prompt: '  ', command: 'video' }), { history: [] }, noPrompt, new vscode.CancellationTokenSource().token))
        .metadata.kind,
      'setup',
    );
    assert.match(noPrompt.text, /Describe the video after the command/);

    await setSetting('video.model', undefined);
    const noModel = new RecordingStream();
    const result = await api.participant.handle(
      chatRequest({ prompt: PROMPT, command: 'video' }),
      { history: [] },
      noModel,
      new vscode.CancellationTokenSource().token,
    );
    assert.match(result.errorDetails?.message ?? '', /No video model is set/);
    assert.deepEqual(
      noModel.buttons.map((button) => [button.command, button.arguments]),
      [
        ['promptreel.openSettings', ['promptreel.video.model']],
        ['promptreel.showLogs', undefined],
      ],
    );
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('shows what the service refused when creating, with the way out', async () => {
    const api = await testApi();
    ctx.service.setScenario({ fault: { status: 403, body: 'task', code: 'insufficient_user_quota', message: 'quota used up', path: 'videos' } });
    const stream = new RecordingStream();
    const result = await api.participant.handle(
      chatRequest({ prompt: PROMPT, command: 'video' }),
      await confirmedVideo(api, PROMPT),
      stream,
      new vscode.CancellationTokenSource().token,
    );
    assert.match(result.errorDetails?.message ?? '', /quota used up/);
    assert.match(result.errorDetails?.message ?? '', /top up or raise the key's quota/);
    assert.deepEqual(
      stream.buttons.map((button) => button.command),
      ['promptreel.openSettings', 'promptreel.setApiKey', 'promptreel.showLogs'],
    );
    assert.deepEqual(stream.buttons[0].arguments, ['promptreel.video.model'], 'the video model setting, not the chat model');
    assert.equal(api.video.store.tasks.length, 0);
  });

  it('shows the price and what is left before anything is charged; the follow-up confirms and creates exactly one task', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { pollsToDone: 1 } });
    const token = new vscode.CancellationTokenSource().token;
    const first = new RecordingStream();
    const asked = await api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), { history: [] }, first, token);
    const { quoteId, ...shown } = asked.metadata;
    assert.deepEqual(shown, { kind: 'video-confirm', prompt: PROMPT, price: '$0.40' });
    assert.ok(quoteId, 'the answer names the quote its follow-up confirms');
    assert.match(first.text, /Generate this video with `promptreel-video` \(5 s · \d+p · adaptive\)\? It costs \*\*\$0\.40 · \$2\.80 left after\*\*/);
    assert.match(first.text, /Nothing is sent \(or charged\) until you confirm/);
    assert.equal(videoPosts(ctx.service).length, 0, 'nothing is sent before the confirmation');
    const [followup] = await api.participant.provideFollowups(asked);
    assert.deepEqual(followup, { prompt: PROMPT, label: 'Generate for $0.40', command: 'video' });

    const history = { history: [requestTurn(PROMPT, 'video'), responseTurn('Generate this video?', 'video', asked)] };
    const confirmed = await runVideo(api, new RecordingStream(), token, followup.prompt, history);
    assert.equal(confirmed.metadata.kind, 'video');
    assert.equal(videoPosts(ctx.service).length, 1, 'exactly one POST');

    // VS Code's Retry sends the same request with the same history again: the confirmation was used, so it asks again.
    const replayed = new RecordingStream();
    const again = await api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), history, replayed, token);
    assert.equal(again.metadata.kind, 'video-confirm', 'review 2.3: a replayed confirmation asks again');
    assert.notEqual(again.metadata.quoteId, quoteId);
    assert.match(replayed.text, /It costs \*\*\$0\.40/);
    assert.equal(videoPosts(ctx.service).length, 1, 'review 2.3: still exactly one POST');
  });

  it('review 2.3: names a key that cannot pay before sending; without a price it still asks, saying the price is not known', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { usedQuota: 4_900_000 } });
    await api.connection.keyHealth.refresh();
    const warned = new RecordingStream();
    const token = new vscode.CancellationTokenSource().token;
    const asked = await api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), { history: [] }, warned, token);
    assert.equal(asked.metadata.kind, 'video-confirm');
    assert.match(warned.text.replace(/\\/g, ''), /Your key has \$0\.20 left, less than the \$0\.40 this costs: the service may refuse it\./);
    assert.equal(videoPosts(ctx.service).length, 0);

    ctx.service.setScenario({ account: { usedQuota: 3_400_000, pricing: 'absent' }, video: { pollsToDone: 1 } });
    await api.connection.keyHealth.refresh();
    api.connection.prices.forget();
    try {
      const unpriced = new RecordingStream();
      const asks = await api.participant.handle(chatRequest({ prompt: PROMPT, command: 'video' }), { history: [] }, unpriced, token);
      assert.equal(asks.metadata.kind, 'video-confirm');
      assert.match(unpriced.text, /\*\*Its price is not known\*\*/);
      assert.equal(videoPosts(ctx.service).length, 0, 'nothing is sent without a confirmation, price or not');
      const [followup] = await api.participant.provideFollowups(asks);
      assert.equal(followup.label, 'Generate it (price not known)');
      const history = { history: [requestTurn(PROMPT, 'video'), responseTurn('Generate this video?', 'video', asks)] };
      const made = await runVideo(api, new RecordingStream(), token, PROMPT, history);
      assert.equal(made.metadata.kind, 'video');
      assert.equal(videoPosts(ctx.service).length, 1);
    } finally {
      api.connection.prices.forget(); // the next tests' service publishes prices again
    }
  });
});
