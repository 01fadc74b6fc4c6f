import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { CHAT, newConversation } from '../chatPanel/chatTestSupport';
import { useConnectedService } from '../support/connectedService';
import { confirmedRequests, testApi, VIDEO, waitFor } from '../video/videoTestSupport';
import { formatUsd } from '../../../src/api/account/prices';
import { chatRequest, RecordingStream } from '../participant/participantSupport';

function noToken(): vscode.CancellationToken {
  return new vscode.CancellationTokenSource().token;
}

/** The service's log entry of a charge, converted with the published unit (500000 quota units per US dollar here). */
const QUOTA_PER_USD = 500_000;

describe('connection: what each request really cost, from the service’s log of the key (issue 26.2)', () => {
  const ctx = useConnectedService(CHAT, VIDEO);

  it('issue 26.2: a video task keeps its charged cost, equal to its log entry, shown in the tree and the gallery', async () => {
    const api = await testApi();
    const reads = ctx.service.logReads();
    const task = await (
      await api.video.flows.get()
    ).creator.createOrThrow(await confirmedRequests(api, { model: 'promptreel-video', prompt: 'A charged kite' }));
    const record = await waitFor(() => api.video.store.get(task.id)?.charged && api.video.store.get(task.id), {
      what: 'the charged cost read from the log after the burst',
      timeoutMs: 15_000,
    });
    const logged = ctx.service.keyLog().find((entry) => entry['model_name'] === 'promptreel-video');
    assert.ok(logged, 'the service logged the task');
    assert.equal(record.charged?.usd, Number(logged['quota']) / QUOTA_PER_USD);
    assert.equal(ctx.service.logReads(), reads + 1, 'one read of the log for the charge');
    const tooltip = ((await api.video.tree.getTreeItem(task.id)).tooltip as vscode.MarkdownString).value.replace(/&nbsp;/g, ' ').replace(/\\/g, '');
    assert.match(tooltip, /\*\*Price:\*\* \$0\.40/);
    assert.match(tooltip, /\*\*Charged:\*\* \$0\.40 \(from the service.{1,6}s log of the key\)/);
    // The card the gallery sent to its page.
    const { gallery } = await api.video.flows.get();
    gallery.open();
    try {
      const card = await waitFor(() => gallery.shownCards().find((shown) => shown.id === task.id), { what: 'the task in the gallery' });
      assert.equal(card.price, '$0.40 · charged $0.40');
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  it('issue 26.2: a reply shows what it was charged beside its estimate, and why they differ (the key’s group ratio)', async () => {
    const api = await testApi();
    // The key is charged at the `vip` group (ratio 0.8); the estimate uses the default group.
    ctx.service.setScenario({ account: { keyGroup: 'vip' } });
    const conversation = await newConversation();
    const reply = await api.chat.controller.send(conversation.id, { text: 'what does this cost?' });
    assert.ok(reply?.cost && !reply.cost.charged, 'the estimate first');
    const charged = await waitFor(() => api.chat.store.get(conversation.id)?.messages.find((message) => message.id === reply.id), {
      what: 'the reply charged from the log',
      timeoutMs: 15_000,
    }).then(() =>
      waitFor(
        () => {
          const message = api.chat.store.get(conversation.id)?.messages.find((candidate) => candidate.id === reply.id);
          return message?.role === 'assistant' ? message.cost?.charged : undefined;
        },
        { what: 'the charged cost', timeoutMs: 15_000 },
      ),
    );
    const logged = ctx.service.keyLog().find((entry) => entry['model_name'] === 'promptreel-chat');
    assert.ok(logged);
    assert.equal(charged.usd, Number(logged['quota']) / QUOTA_PER_USD);
    assert.ok(charged.usd < reply.cost.usd, `charged ${charged.usd} < estimate ${reply.cost.usd}`);
    assert.match(charged.reason ?? '', /group "vip"/);
  });

  it('issue 26.2: two replies with the same token counts a few seconds apart each get their own charge', async () => {
    const api = await testApi();
    // Two chats, one question each: the same prompt and the same answer, so the same token counts.
    const [one, two] = [await newConversation(), await newConversation()];
    const first = await api.chat.controller.send(one.id, { text: 'the same question' });
    ctx.service.setScenario({ account: { keyGroup: 'vip' } });
    const second = await api.chat.controller.send(two.id, { text: 'the same question' });
    assert.ok(first?.usage && second?.usage);
    assert.deepEqual([first.usage.promptTokens, first.usage.completionTokens], [second.usage.promptTokens, second.usage.completionTokens], 'the same counts');
    const chargeOf = (conversationId: string, id: string) => {
      const message = api.chat.store.get(conversationId)?.messages.find((candidate) => candidate.id === id);
      return message?.role === 'assistant' ? message.cost?.charged : undefined;
    };
    await waitFor(() => chargeOf(one.id, first.id) && chargeOf(two.id, second.id), { what: 'both replies charged', timeoutMs: 15_000 });
    const logged = ctx.service
      .keyLog()
      .filter((entry) => entry['model_name'] === 'promptreel-chat')
      .map((entry) => Number(entry['quota']) / QUOTA_PER_USD)
      .reverse();
    assert.ok(logged.at(-1)! < logged.at(-2)!, `the second was charged at the vip group: ${logged.join(', ')}`);
    assert.deepEqual([chargeOf(one.id, first.id)?.usd, chargeOf(two.id, second.id)?.usd], logged.slice(-2), 'each its own entry, oldest first');
    assert.match(chargeOf(two.id, second.id)?.reason ?? '', /group "vip"/);
    assert.equal(chargeOf(one.id, first.id)?.reason, undefined, 'the first was charged as estimated');
  });

  it('issue 26.2: an @promptreel answer in VS Code’s Chat ends with what the key was charged, beside the estimate, and why they differ', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { keyGroup: 'vip' } });
    const reads = ctx.service.logReads();
    const stream = new RecordingStream();
    const result = await api.participant.handle(chatRequest({ prompt: 'what did this cost?' }), { history: [] }, stream, noToken());
    assert.equal(result.metadata.kind, 'answer');
    const logged = ctx.service.keyLog().find((entry) => entry['model_name'] === 'promptreel-chat');
    assert.ok(logged, 'the service logged the answer');
    const charged = formatUsd(Number(logged['quota']) / QUOTA_PER_USD);
    const footer = stream.parts.at(-1);
    assert.ok(footer?.kind === 'markdown', 'the cost ends the answer');
    const text = footer.value.replace(/\\/g, '');
    assert.match(
      text,
      new RegExp(
        `^\\n\\n_Cost: ≈ \\$[\\d.]+ estimated, charged ${charged.replace('$', '\\$')}\\. The key is charged at the group "vip" \\(ratio 0\\.8\\)\\._$`,
      ),
    );
    const kinds = stream.parts.map((part) => part.kind);
    assert.ok(
      kinds.lastIndexOf('progress') < kinds.indexOf('markdown'),
      `no progress message after the answer began (VS Code's Chat would fold the answer into its steps): ${kinds.join(', ')}`,
    );
    assert.equal(ctx.service.logReads(), reads + 1, 'one read of the log for the answer');
  });

  it('issue 26.2: where the service publishes no log, an @promptreel answer ends with its estimate, without waiting for a log', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { log: 'absent' } });
    api.connection.keyLog.forget();
    await api.connection.keyLog.refresh();
    const reads = ctx.service.logReads();
    const stream = new RecordingStream();
    await api.participant.handle(chatRequest({ prompt: 'and this one?' }), { history: [] }, stream, noToken());
    const footer = stream.parts.at(-1);
    assert.ok(footer?.kind === 'markdown', 'the cost ends the answer');
    assert.match(footer.value.replace(/\\/g, ''), /^\n\n_Cost: ≈ \$[\d.]+ \(estimated\)\._$/);
    assert.equal(ctx.service.logReads(), reads, 'the log is not asked again');
  });
});
