import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { vscodeAlwaysConfirmsVideoTool } from '../../../src/video/toolApproval';
import { useConnectedService } from '../support/connectedService';
import { pumping, testApi, STUDIO, VIDEO, videoPosts } from './videoTestSupport';
import { answerToolConfirmations, toolConfirmations, videoToolWhere, vscodeDeclaresEligibleForAutoApproval } from './videoToolSupport';

const TOOL = 'promptreel_generateVideo';

function resultText(result: vscode.LanguageModelToolResult): string {
  return result.content.map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : '')).join('');
}

describe('video: the video tool where VS Code may approve it by itself (VS Code 1.104)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO);
  const never = new vscode.CancellationTokenSource().token;

  it('VS Code 1.104: VS Code is known to confirm every call where it declares chat.tools.eligibleForAutoApproval (1.106 and later)', () => {
    const setting = vscode.workspace.getConfiguration('chat.tools').inspect('eligibleForAutoApproval');
    assert.equal(vscodeAlwaysConfirmsVideoTool(), vscodeDeclaresEligibleForAutoApproval(), `VS Code ${vscode.version}: ${JSON.stringify(setting)}`);
  });

  it('VS Code 1.104: as registered, a call is confirmed once with its price: by Promptreel only where VS Code may skip its own', async () => {
    const api = await testApi();
    const messages = answerToolConfirmations(true);
    try {
      const result = await pumping(api, vscode.lm.invokeTool(TOOL, { input: { prompt: 'A kite over the dunes' }, toolInvocationToken: undefined }));
      assert.match(resultText(result), /^The video is ready/);
    } finally {
      messages.restore();
    }
    const asked = toolConfirmations(messages.shown);
    assert.equal(asked.length, vscodeAlwaysConfirmsVideoTool() ? 0 : 1, `VS Code ${vscode.version}`);
    if (asked[0]) assert.match(asked[0].detail ?? '', /Price: \$0\.40 · \$2\.80 left after\./);
    assert.equal(videoPosts(ctx.service).length, 1);
  });

  it("VS Code 1.104: where VS Code may skip its confirmation, nothing is sent until the user accepts Promptreel's, with the price", async () => {
    const api = await testApi();
    const tool = await videoToolWhere(false);
    const input = { prompt: 'A kite the user confirms', seconds: 10, ratio: '16:9' };

    const prepared = await tool.prepareInvocation({ input });
    assert.equal(prepared.confirmationMessages, undefined, 'VS Code is not asked to confirm (its "Always Allow" would skip it)');
    const declined = answerToolConfirmations(false);
    try {
      await assert.rejects(
        Promise.resolve(tool.invoke({ input, toolInvocationToken: undefined }, never)),
        (error) => error instanceof vscode.CancellationError,
      );
    } finally {
      declined.restore();
    }
    assert.equal(videoPosts(ctx.service).length, 0, 'declined: nothing sent');
    const [modal, ...more] = toolConfirmations(declined.shown);
    assert.equal(more.length, 0);
    assert.equal(modal?.message, 'An agent asks for this video. Generate it?');
    assert.equal(modal?.detail, '“A kite the user confirms”\n\npromptreel-video · 10 s · 720p · 16:9\n\nPrice: $0.40 · $2.80 left after.');

    await tool.prepareInvocation({ input });
    const accepted = answerToolConfirmations(true);
    let text: string;
    try {
      text = resultText(await pumping(api, tool.invoke({ input, toolInvocationToken: undefined }, never)));
    } finally {
      accepted.restore();
    }
    assert.match(text, /^The video is ready \(task task_\w+\)/);
    assert.equal(toolConfirmations(accepted.shown).length, 1);
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1, 'accepted: exactly one POST');
    assert.equal((posts[0].body as { seconds: string }).seconds, '10');
  });

  it('VS Code 1.104: a model whose price is not known is confirmed as such, and a call made again is not asked twice', async () => {
    const api = await testApi();
    const tool = await videoToolWhere(false);
    const input = { prompt: 'A kite of unknown price', model: 'unpriced-video' };
    await tool.prepareInvocation({ input });
    const messages = answerToolConfirmations(true);
    try {
      const first = resultText(await pumping(api, tool.invoke({ input, toolInvocationToken: undefined }, never)));
      await tool.prepareInvocation({ input });
      const again = resultText(await tool.invoke({ input, toolInvocationToken: undefined }, never));
      assert.equal(again, `This call was already made (the same input, moments ago), so no second task was created. ${first}`);
    } finally {
      messages.restore();
    }
    const asked = toolConfirmations(messages.shown);
    assert.equal(asked.length, 1, 'the call made again shares the first one: no second confirmation');
    assert.match(asked[0]?.detail ?? '', /Price: price not known\.\n\nThe price of this model is not known: it uses your quota like any other request\./);
    assert.equal(videoPosts(ctx.service).length, 1);
  });

  it('VS Code 1.104: where VS Code confirms every call, its confirmation is the only one', async () => {
    const api = await testApi();
    const tool = await videoToolWhere(true);
    const input = { prompt: 'A kite VS Code confirms' };
    const prepared = await tool.prepareInvocation({ input });
    assert.equal(prepared.confirmationMessages?.title, 'Generate a video for $0.40?');
    const messages = answerToolConfirmations(false);
    try {
      assert.match(resultText(await pumping(api, tool.invoke({ input, toolInvocationToken: undefined }, never))), /^The video is ready/);
    } finally {
      messages.restore();
    }
    assert.deepEqual(toolConfirmations(messages.shown), [], 'no second confirmation');
    assert.equal(videoPosts(ctx.service).length, 1);
  });
});
