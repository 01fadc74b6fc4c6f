import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import type { UsageView } from '../../../../src/account/usage/usageView';
import type { UsageSnapshot } from '../../../../src/account/usage/protocol';
import type { PromptreelTestApi } from '../../../../src/extension';
import type { ServiceLogEntry } from '../../../service';
import { CHAT, newConversation } from '../../chatPanel/chatTestSupport';
import { useConnectedService } from '../../support/connectedService';
import { recordMessages } from '../../support/recordMessages';
import { stubWindow } from '../../support/stubWindow';
import { assertStrictPage } from '../../support/webviewPage';
import { confirmedRequests, pollUntil, setSetting, testApi, VIDEO, waitFor } from '../../video/videoTestSupport';

/** The local service's unit: quota per US dollar. */
const QUOTA_PER_USD = 500_000;

function usageOf(api: PromptreelTestApi): UsageView {
  const usage = api.account.usage;
  assert.ok(usage, 'the window has a usage view');
  return usage;
}

/** The log as the view should show it: newest first (ties: the last written first), in US dollars. */
function expectedRows(log: readonly ServiceLogEntry[]) {
  return [...log]
    .filter((entry) => entry.type === 2)
    .sort((a, b) => b.created_at - a.created_at || b.id - a.id)
    .map((entry) => ({
      model: entry.model_name,
      usd: entry.quota / QUOTA_PER_USD,
      promptTokens: entry.prompt_tokens,
      completionTokens: entry.completion_tokens,
    }));
}

function shownRows(snapshot: UsageSnapshot | undefined) {
  return (snapshot?.rows ?? []).map((row) => ({ model: row.model, usd: row.usd, promptTokens: row.promptTokens, completionTokens: row.completionTokens }));
}

/** The page was sent a view whose rows are the service's log, as it is now. */
async function showsTheLog(usage: UsageView, log: () => readonly ServiceLogEntry[]): Promise<UsageSnapshot> {
  return waitFor(
    () => {
      const snapshot = usage.shownSnapshot();
      return snapshot?.source === 'log' && JSON.stringify(shownRows(snapshot)) === JSON.stringify(expectedRows(log())) ? snapshot : undefined;
    },
    { what: `the view to show the log: ${JSON.stringify(expectedRows(log()))}, got ${JSON.stringify(shownRows(usage.shownSnapshot()))}`, timeoutMs: 20_000 },
  );
}

describe('account: the usage view (issue 26.3)', () => {
  const ctx = useConnectedService(CHAT, VIDEO, {
    cleanup: async () => {
      await setSetting('account.dailyBudget', undefined);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    },
  });

  it("issue 26.3: shows what the service's log charged, the two replies and the video made here marked as this machine's, under its strict CSP; Export CSV… writes every row", async () => {
    const api = await testApi();
    // Charged elsewhere (the web console, another machine), a little earlier today.
    ctx.service.addLogEntry({
      model_name: 'promptreel-chat',
      quota: 3_000,
      prompt_tokens: 40,
      completion_tokens: 90,
      use_time: 3,
      is_stream: true,
      created_at: Math.floor(Date.now() / 1000) - 120,
    });
    const chat = await newConversation();
    for (const text of ['hello there', 'and once more']) {
      const reply = await api.chat.controller.send(chat.id, { text });
      assert.equal(reply?.status, 'done', JSON.stringify(reply?.error));
    }
    const task = await (
      await api.video.flows.get()
    ).creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt: 'A usage chart at dawn' }));
    await pollUntil(api, task.id, (record) => record.state === 'completed', 'the task completes');
    await setSetting('account.dailyBudget', 2);

    await vscode.commands.executeCommand('promptreel.showUsage');
    const usage = usageOf(api);
    assert.ok(usage.isOpen);
    // The page's code loads with the first Show Usage: the page is written once it has.
    await waitFor(() => usage.host, { what: 'the usage page written' });
    assertStrictPage(usage.open().webview, 'usage.js');

    const snapshot = await showsTheLog(usage, () => ctx.service.keyLog());
    assert.equal(snapshot.sourceText, "From the service's log of the key.");
    assert.deepEqual(
      snapshot.rows.map((row) => [row.model, row.fromThisMachine]),
      [
        ['promptreel-video', true],
        ['promptreel-chat', true],
        ['promptreel-chat', true],
        ['promptreel-chat', false],
      ],
      'the three requests made here are marked, the one logged from elsewhere is not',
    );
    assert.equal(snapshot.rows[0]?.usdText, '$0.40');
    assert.equal(snapshot.rows[3]?.latencySeconds, 3);
    const loggedUsd = expectedRows(ctx.service.keyLog()).reduce((sum, row) => sum + row.usd, 0);
    assert.equal(snapshot.days.at(-1)?.usd.toFixed(6), loggedUsd.toFixed(6), "today's bar is the log's total");
    assert.equal(snapshot.todayText, `$${loggedUsd.toFixed(2)}`);
    assert.deepEqual(
      snapshot.budgets.map((budget) => budget.text),
      [`Daily budget: $${loggedUsd.toFixed(2)} of $2.00 spent`],
    );
    assert.deepEqual(
      snapshot.perModel.map((model) => [model.model, model.requests]),
      [
        ['promptreel-video', 1],
        ['promptreel-chat', 3],
      ],
    );

    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-usage-'));
    const target = vscode.Uri.file(path.join(folder, 'usage.csv'));
    const asked: vscode.SaveDialogOptions[] = [];
    const dialogs = stubWindow({
      showSaveDialog: async (options?: vscode.SaveDialogOptions) => {
        asked.push(options ?? {});
        return target;
      },
    });
    const messages = recordMessages();
    try {
      // What the page's Export CSV… button sends.
      await usage.host?.handleMessage({ type: 'exportCsv' });
      assert.equal(asked.length, 1);
      assert.deepEqual(asked[0]?.filters, { 'CSV files': ['csv'] });
      const lines = fs.readFileSync(target.fsPath, 'utf8').split('\r\n');
      assert.equal(lines[0], 'time,model,prompt_tokens,completion_tokens,cached_tokens,charged_usd,latency_s,stream,from_this_machine,request_id');
      assert.equal(lines.at(-1), '', 'every line ends with CRLF');
      const rows = lines.slice(1, -1).map((line) => line.split(','));
      assert.deepEqual(
        rows.map((cells) => [cells[1], Number(cells[2]), Number(cells[3]), Number(cells[5]), cells[8]]),
        expectedRows(ctx.service.keyLog()).map((row, index) => [`"${row.model}"`, row.promptTokens, row.completionTokens, row.usd, index < 3 ? 'yes' : 'no']),
      );
      for (const cells of rows) assert.ok(!Number.isNaN(Date.parse(JSON.parse(cells[0] ?? '""') as string)), `an ISO time: ${cells[0]}`);
      assert.ok(
        messages.shown.some((shown) => shown.message === 'Exported 4 requests.'),
        JSON.stringify(messages.shown),
      );
    } finally {
      dialogs.restore();
      messages.restore();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('issue 26.3: follows the log live: a charge elsewhere shows after Refresh, a reply made here after the read its burst leads to', async () => {
    const api = await testApi();
    await vscode.commands.executeCommand('promptreel.showUsage');
    const usage = usageOf(api);
    await showsTheLog(usage, () => ctx.service.keyLog());
    const reads = ctx.service.logReads();

    // Ten minutes ago: this machine's own record holds a video of the test before, seconds ago, which the local
    // service's log (reset between tests) no longer has.
    ctx.service.addLogEntry({ model_name: 'promptreel-video', quota: 200_000, created_at: Math.floor(Date.now() / 1000) - 600 });
    await usage.host?.handleMessage({ type: 'refresh' });
    assert.equal(ctx.service.logReads(), reads + 1, 'Refresh reads the log once');
    await showsTheLog(usage, () => ctx.service.keyLog());

    const chat = await newConversation();
    assert.equal((await api.chat.controller.send(chat.id, { text: 'live' }))?.status, 'done');
    const snapshot = await showsTheLog(usage, () => ctx.service.keyLog());
    assert.deepEqual(
      snapshot.rows.map((row) => row.fromThisMachine),
      [true, false],
    );
  });

  it('issue 26.3: where the service publishes no log, the view shows what this machine recorded, and says so', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { log: 'absent' } });
    const chat = await newConversation();
    assert.equal((await api.chat.controller.send(chat.id, { text: 'no log here' }))?.status, 'done');
    await vscode.commands.executeCommand('promptreel.showUsage');
    const usage = usageOf(api);
    await usage.host?.handleMessage({ type: 'refresh' });
    const snapshot = await waitFor(
      () => {
        const shown = usage.shownSnapshot();
        return shown?.source === 'local' && shown.rows.length > 0 ? shown : undefined;
      },
      { what: "the view to show this machine's record", timeoutMs: 15_000 },
    );
    assert.equal(snapshot.sourceText, 'As recorded by Promptreel on this machine: the service publishes no log of the key.');
    const recorded = api.connection.spending.entries(api.connection.service ?? '');
    assert.equal(snapshot.requestCount, recorded.length);
    assert.ok(
      snapshot.rows.every((row) => row.fromThisMachine),
      'all of it made here',
    );
    assert.equal(snapshot.rows[0]?.model, 'promptreel-chat');
    assert.equal(snapshot.rows[0]?.latencySeconds, undefined, 'the record keeps no latency');

    await usage.host?.handleMessage({ type: 'runCommand', command: 'workbench.action.quit' });
    await usage.host?.handleMessage('exportCsv');
    assert.ok(usage.isOpen, 'messages that do not fit are dropped');
  });
});
