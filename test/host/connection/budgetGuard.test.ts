import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { PromptreelTestApi } from '../../../src/extension';
import { CHAT, newConversation } from '../chatPanel/chatTestSupport';
import { useConnectedService } from '../support/connectedService';
import { recordMessages, type RecordedMessage } from '../support/recordMessages';
import { confirmedRequests, scriptQuickInputs, setSetting, testApi, VIDEO, videoPosts, waitFor } from '../video/videoTestSupport';
import { videoToolWhere } from '../video/videoToolSupport';

function chatPosts(requests: readonly { method: string; path: string }[]): number {
  return requests.filter((request) => request.method === 'POST' && request.path === '/v1/chat/completions').length;
}

/** What this machine recorded for the connected service (the local service publishes no key log in these tests). */
function recorded(api: PromptreelTestApi) {
  return api.connection.spending.entries(api.connection.service ?? '');
}

describe('connection: daily and monthly budgets (issue 26.4)', () => {
  const ctx = useConnectedService(CHAT, VIDEO, {
    cleanup: async () => {
      await setSetting('account.dailyBudget', undefined);
      await setSetting('account.monthlyBudget', undefined);
    },
  });

  it('issue 26.4: a video whose price passes the daily budget names it and what was spent in its review; dismissing sends nothing', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { log: 'absent' } });
    await setSetting('account.dailyBudget', 0.5);
    const first = await (
      await api.video.flows.get()
    ).creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt: 'The first of the day' }));
    await waitFor(() => recorded(api).find((entry) => entry.taskId === first.id)?.usd === 0.4, { what: 'the first task recorded at $0.40' });

    const script = scriptQuickInputs([{ cancel: true }]);
    try {
      await vscode.commands.executeCommand('promptreel.generateVideo', { prompt: 'The second of the day' });
    } finally {
      script.restore();
    }
    const shown = script.seen.flatMap((seen) => seen.items ?? []).map((item) => `${item.label} ${item.detail ?? ''}`);
    const note = 'This passes your daily budget of $0.50: $0.40 spent today (as recorded by Promptreel on this machine).';
    assert.ok(
      shown.some((text) => text.includes(note)),
      shown.join('\n'),
    );
    assert.equal(videoPosts(ctx.service).length, 1, 'dismissing the review sent nothing');

    const prepared = await (await videoToolWhere(true)).prepareInvocation({ input: { prompt: 'From an agent' } });
    const message = prepared.confirmationMessages?.message;
    const text = typeof message === 'string' ? message : (message?.value ?? '');
    assert.ok(text.includes('**Note:** This passes your daily budget of $0\\.50: $0\\.40 spent today'), `the tool’s confirmation names it too:\n${text}`);
    assert.match(api.account.tooltip, /Budget: \$0\.40 of \$0\.50 today \(as recorded by Promptreel on this machine\)/);
  });

  it('issue 26.4: once the budget is spent a chat message asks first: dismissing sends nothing, Send Anyway holds for the day, and the warning shows once', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { log: 'absent' } });
    // Just above what this suite spent so far: the next reply passes it.
    const spentBefore = await api.connection.spending.spent(api.connection.service ?? '');
    await setSetting('account.dailyBudget', spentBefore.todayUsd + 0.000001);
    const conversation = await newConversation();
    let answer: string | undefined;
    const messages = recordMessages((shown: RecordedMessage) => (shown.message === 'Your Promptreel budget is spent' ? answer : undefined));
    try {
      const first = await api.chat.controller.send(conversation.id, { text: 'hello there' });
      assert.equal(first?.status, 'done', 'nothing spent yet: sent without asking');
      await waitFor(() => recorded(api).some((entry) => entry.kind === 'chat' && (entry.usd ?? 0) > 0), { what: 'the reply recorded with its cost' });
      await waitFor(() => messages.shown.some((shown) => shown.message.startsWith('Promptreel has reached your daily budget')), { what: 'the warning' });

      const before = chatPosts(ctx.service.requests);
      const declined = await api.chat.controller.send(conversation.id, { text: 'one more?' });
      assert.equal(declined?.status, 'error');
      assert.match(declined?.error?.message ?? '', /was not sent: your budget is spent/);
      assert.equal(chatPosts(ctx.service.requests), before, 'dismissed: nothing sent');
      const asked = messages.shown.filter((shown) => shown.message === 'Your Promptreel budget is spent');
      assert.equal(asked.length, 1);
      assert.match(asked[0]?.detail ?? '', /This passes your daily budget of \$[\d.]+: \$[\d.]+ spent today \(as recorded by Promptreel on this machine\)/);
      assert.deepEqual(asked[0]?.items, ['Send Anyway', 'Open Settings']);

      answer = 'Send Anyway';
      assert.equal((await api.chat.controller.send(conversation.id, { text: 'yes, send it' }))?.status, 'done');
      assert.equal((await api.chat.controller.send(conversation.id, { text: 'and this one' }))?.status, 'done');
      assert.equal(chatPosts(ctx.service.requests), before + 2);
      assert.equal(messages.shown.filter((shown) => shown.message === 'Your Promptreel budget is spent').length, 2, 'asked once more, then not again that day');
      assert.equal(messages.shown.filter((shown) => shown.message.startsWith('Promptreel has reached your daily budget')).length, 1, 'warned once');

      // Another budget is another decision: asked afresh.
      await setSetting('account.dailyBudget', spentBefore.todayUsd + 0.000002);
      assert.equal((await api.chat.controller.send(conversation.id, { text: 'under the new budget' }))?.status, 'done');
      assert.equal(messages.shown.filter((shown) => shown.message === 'Your Promptreel budget is spent').length, 3, 'a new budget asks again');
    } finally {
      messages.restore();
    }
  });

  it("issue 26.4: where the service publishes the key's log, what was spent is what it charged; the log is read once per burst of charges", async () => {
    const api = await testApi();
    // Spent elsewhere today (another machine, the web console): only the gateway's log knows.
    ctx.service.addLogEntry({ model_name: 'promptreel-video', quota: 200_000, created_at: Math.floor(Date.now() / 1000) - 60 });
    const chat = await newConversation();
    for (const text of ['one', 'two', 'three']) {
      const reply = await api.chat.controller.send(chat.id, { text });
      assert.equal(reply?.status, 'done', JSON.stringify(reply?.error));
    }
    await waitFor(() => ctx.service.logReads() === 1, { what: 'one read after the burst of three replies', timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the point: no further read for the same burst
    assert.equal(ctx.service.logReads(), 1);

    await setSetting('account.dailyBudget', 0.5);
    const quote = await (await api.connection.videoCharges()).quote([{ model: 'promptreel-video', prompt: 'Read the log' }]);
    assert.equal(ctx.service.logReads(), 1, 'what was read is used: no read for the confirmation');
    const logged = ctx.service.keyLog().reduce((sum, entry) => sum + Number(entry['quota']), 0) / 500_000;
    await waitFor(() => api.account.tooltip.includes(`Budget: $${logged.toFixed(2)} of $0.50 today (from the service's log of the key)`), {
      what: `the tooltip to show the $${logged} the log holds`,
    });
    assert.equal(quote.budgetNote, `This passes your daily budget of $0.50: $${logged.toFixed(2)} spent today (from the service's log of the key).`);
  });

  it("issue 26.4: a folder's settings never set a budget (application scope, read from the user's level)", async () => {
    const api = await testApi();
    const manifest = vscode.extensions.getExtension('promptreel.promptreel')?.packageJSON as {
      contributes: { configuration: { properties: Record<string, { scope?: string }> }[] };
    };
    for (const key of ['promptreel.account.dailyBudget', 'promptreel.account.monthlyBudget']) {
      const declared = manifest.contributes.configuration.map((section) => section.properties[key]).find(Boolean);
      assert.equal(declared?.scope, 'application', key);
    }
    await assert.rejects(
      Promise.resolve(vscode.workspace.getConfiguration('promptreel').update('account.dailyBudget', 0.01, vscode.ConfigurationTarget.Workspace)),
      'VS Code refuses to write a budget into the folder',
    );
    assert.deepEqual(api.connection.budgets.budgets(), { dailyUsd: 0, monthlyUsd: 0 });
  });
});
