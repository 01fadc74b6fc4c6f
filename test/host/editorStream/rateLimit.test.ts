import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { chatRequests, completeAtCursor, controlProgress, openEditor, setSetting, testApi, EDITOR, waitFor } from './editorStreamSupport';

const SUM = 'function sum(a: number, b: number) {\n  \n}\n';
const IN_BODY = new vscode.Position(1, 2);
const CHAT = '^/v1/chat/completions$';

describe('editor: rate limits (HTTP 429) are waited out with a countdown', () => {
  const ctx = useConnectedService(EDITOR);
  afterEach(async () => {
    await setSetting('chat.rateLimitRetries', undefined);
  });

  it('counts down in the progress notification, then writes the reply after sending again', async () => {
    ctx.service.setScenario({ chat: { reply: 'return a + b;' }, fault: { status: 429, retryAfter: '1', times: 1, path: CHAT } });
    const progress = controlProgress();
    try {
      const editor = await openEditor(SUM, IN_BODY);
      const result = await completeAtCursor();
      assert.equal(result.status, 'completed', JSON.stringify(result));
      assert.equal(editor.document.getText(), 'function sum(a: number, b: number) {\n  return a + b;\n}\n');
      assert.ok(
        progress.reports.some((report) => /^Rate limited \(HTTP 429\): retrying in 1 s \(as the service asked; attempt 1 of 3\)/.test(report)),
        progress.reports.join('\n'),
      );
      assert.equal(chatRequests(ctx.service).length, 2);
    } finally {
      progress.restore();
    }
  });

  it('Retry Now sends again at once; Cancel on the notification during the wait sends nothing more', async () => {
    const api = await testApi();
    const commands = api.editorStream.commands;
    ctx.service.setScenario({ chat: { reply: 'return a + b;' }, fault: { status: 429, retryAfter: '30', times: 1, path: CHAT } });
    const progress = controlProgress();
    try {
      await openEditor(SUM, IN_BODY);
      const running = completeAtCursor();
      await waitFor(() => commands.rateLimited, { what: 'the wait after 429' });
      assert.equal(await vscode.commands.executeCommand('promptreel.retryEditorStreamNow'), true);
      const result = await running;
      assert.equal(result.status, 'completed');
      assert.equal(commands.rateLimited, false);
      assert.equal(chatRequests(ctx.service).length, 2);

      ctx.service.setScenario({ fault: { status: 429, retryAfter: '30', times: 1, path: CHAT } });
      const editor = await openEditor(SUM, IN_BODY);
      const second = completeAtCursor();
      await waitFor(() => commands.rateLimited, { what: 'the second wait' });
      progress.cancel();
      const cancelled = await second;
      assert.equal(cancelled.status, 'cancelled');
      assert.equal(editor.document.getText(), SUM, 'nothing was written');
      assert.equal(commands.rateLimited, false, 'Retry Now is gone');
      assert.equal(await vscode.commands.executeCommand('promptreel.retryEditorStreamNow'), false);
      assert.equal(chatRequests(ctx.service).length, 3);
    } finally {
      progress.restore();
    }
  });

  it('with retries off, the 429 is reported at once with Retry', async () => {
    await setSetting('chat.rateLimitRetries', 0);
    ctx.service.setScenario({ fault: { status: 429, retryAfter: '1', times: 1, path: CHAT } });
    await openEditor(SUM, IN_BODY);
    const result = await completeAtCursor();
    assert.equal(result.status, 'failed');
    assert.match(result.notice?.message ?? '', /rate limiting requests \(HTTP 429\)/);
    assert.ok(result.notice?.actions.includes('Retry'), JSON.stringify(result.notice));
    assert.equal(chatRequests(ctx.service).length, 1);
  });
});
