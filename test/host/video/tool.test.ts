import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as vscode from 'vscode';
import { sampleBytes } from '../../service';
import { pumping, setSetting, testApi, STUDIO, VIDEO, videoPosts } from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';
import type { MessageRecorder } from '../support/recordMessages';
import { answerToolConfirmations, videoToolWhere, vscodeDeclaresEligibleForAutoApproval } from './videoToolSupport';

const TOOL = 'promptreel_generateVideo';
const PROMPT = 'A kite rising over a windy beach';

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('video: the video tool for agents (issue 16.1)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO);
  // Where VS Code may skip its own confirmation (before 1.106), Promptreel asks: accepted (toolApproval.test.ts).
  let confirmations: MessageRecorder | undefined;
  beforeEach(() => (confirmations = answerToolConfirmations(true)));
  afterEach(() => confirmations?.restore());

  it('issue 16.1: is contributed with its schema, and VS Code is told never to approve it by itself', async () => {
    const tool = vscode.lm.tools.find((candidate) => candidate.name === TOOL);
    assert.ok(tool, 'listed in vscode.lm.tools');
    assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['prompt']);
    // Contributed default: VS Code always shows the confirmation (no "Always Allow", no global auto-approve); one
    // before 1.106 does not know the setting.
    const eligible = vscode.workspace.getConfiguration('chat.tools').inspect<Record<string, boolean>>('eligibleForAutoApproval');
    assert.equal(
      eligible?.defaultValue?.['promptreel.promptreel/promptreelVideo'],
      vscodeDeclaresEligibleForAutoApproval() ? false : undefined,
      JSON.stringify(eligible),
    );
  });

  it('issue 16.1: the confirmation shows the price, prompt, model and settings, and preparing it sends nothing', async () => {
    const prepared = await (await videoToolWhere(true)).prepareInvocation({ input: { prompt: PROMPT, seconds: 10, ratio: '16:9' } });
    const confirmation = prepared.confirmationMessages;
    assert.ok(confirmation, 'a confirmation is asked for');
    assert.equal(confirmation.title, 'Generate a video for $0.40?');
    const message = typeof confirmation.message === 'string' ? confirmation.message : confirmation.message.value;
    assert.match(message, /\*\*Prompt:\*\* A kite rising over a windy beach/);
    assert.match(message, /\*\*Model:\*\* `promptreel-video`/);
    assert.match(message, /\*\*Settings:\*\* 10 s · 720p · 16:9 · audio on/);
    assert.match(message, /\*\*Price:\*\* \$0\.40 · \$2\.80 left after/);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 16.1: invoked without a chat (as a tool loop does), it makes exactly one task, follows it and downloads it', async () => {
    const api = await testApi();
    const result = await pumping(api, vscode.lm.invokeTool(TOOL, { input: { prompt: PROMPT }, toolInvocationToken: undefined }));
    const text = resultText(result);
    assert.match(text, /^The video is ready \(task task_\w+\) and saved to videos\/a-kite-rising-over-a-windy-beach-task_\w+\.mp4 \(file:\/\/.+\.mp4\)\.$/);
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1, 'exactly one POST');
    assert.equal((posts[0].body as { prompt: string }).prompt, PROMPT);
    const file = vscode.Uri.parse(/\((file:\/\/[^)]+)\)/.exec(text)?.[1] ?? '').fsPath;
    assert.ok(fs.readFileSync(file).equals(sampleBytes()), 'the file is the video');
  });

  it('issue 16.1: the same call made twice at once makes one task, and both get its result', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { createDelayMs: 300 } });
    const input = { prompt: 'A kite made twice at once', seed: 9 };
    const [first, second] = await pumping(
      api,
      Promise.all([
        vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }),
        vscode.lm.invokeTool(TOOL, { input: { seed: 9, prompt: 'A kite made twice at once' }, toolInvocationToken: undefined }),
      ]),
    );
    assert.match(resultText(first), /^The video is ready/);
    assert.equal(resultText(second), `This call was already made (the same input, moments ago), so no second task was created. ${resultText(first)}`);
    assert.equal(videoPosts(ctx.service).length, 1);
  });

  it('issue 16.1: cancelled after the request went out, the task is still made (once) and listed; only the following stops', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { createDelayMs: 400 } });
    const cancel = new vscode.CancellationTokenSource();
    const input = { prompt: 'A kite cancelled while it is sent' };
    await (await api.video.flows.get()).tool.prepareInvocation({ input });
    const running = (await api.video.flows.get()).tool.invoke({ input, toolInvocationToken: undefined }, cancel.token);
    // Cancelled once the POST has reached the service (which holds its answer for 400 ms).
    for (const deadline = Date.now() + 10_000; videoPosts(ctx.service).length === 0 && Date.now() < deadline;)
      await new Promise((resolve) => setTimeout(resolve, 10));
    cancel.cancel();
    const text = resultText(await running);
    assert.match(text, /^Stopped following video task task_\w+: it keeps running on the service\./);
    assert.equal(videoPosts(ctx.service).length, 1, 'the request was neither aborted nor sent again');
    assert.equal(api.video.store.tasks.length, 1, 'the charged task is listed');
  });

  it('issue 16.1: cancelled before anything was sent, nothing is created', async () => {
    const api = await testApi();
    const cancel = new vscode.CancellationTokenSource();
    cancel.cancel();
    const input = { prompt: 'A kite cancelled at once' };
    await (await api.video.flows.get()).tool.prepareInvocation({ input });
    const text = resultText(await (await api.video.flows.get()).tool.invoke({ input, toolInvocationToken: undefined }, cancel.token));
    assert.equal(text, 'Cancelled before anything was sent: no video task was created.');
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 16.1: a lost answer is reported, never sent again, and a retry of the call gets the same answer', async () => {
    const api = await testApi();
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    const input = { prompt: 'A lost kite' };
    const first = resultText(await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }));
    assert.match(first, /answer to the video request was lost .* it was not sent again/);
    const retry = resultText(await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }));
    assert.equal(retry, `This call was already made (the same input, moments ago), so no second task was created. ${first}`);
    assert.equal(videoPosts(ctx.service).length, 1);
    assert.equal(api.video.store.tasks[0]?.state, 'unconfirmed');
  });

  it('review 2.3: a call sends only what its confirmation showed, once, and nothing without one', async () => {
    const api = await testApi();
    const tool = await videoToolWhere(true);
    const input = { prompt: 'A kite confirmed at 5 seconds' };
    await assert.rejects(
      Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token)),
      /has not confirmed this video and its price: nothing was sent/,
    );
    assert.equal(videoPosts(ctx.service).length, 0, 'nothing without a confirmation');

    const prepared = await tool.prepareInvocation({ input });
    const message = prepared.confirmationMessages?.message;
    assert.match(typeof message === 'string' ? message : (message?.value ?? ''), /\*\*Settings:\*\* 5 s/);
    // The settings change between the confirmation and the call: what was shown is what is sent.
    await setSetting('video.seconds', '10');
    await pumping(api, tool.invoke({ input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token));
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1);
    assert.equal((posts[0].body as { seconds: string }).seconds, '5');
  });

  it('issue 16.1: input that does not fit is refused before anything is sent, with the reason', async () => {
    await assert.rejects(Promise.resolve(vscode.lm.invokeTool(TOOL, { input: { prompt: 'p', seconds: 0 }, toolInvocationToken: undefined })), /seconds/);
    assert.equal(videoPosts(ctx.service).length, 0);
  });
});
