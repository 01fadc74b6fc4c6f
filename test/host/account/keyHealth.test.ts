import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { AccountFeature } from '../../../src/account/accountFeature';
import { Connection } from '../../../src/connection/connection';
import { FakeClock } from '../../fakes/fakeClock';
import { openEditor } from '../editorStream/editorStreamSupport';
import { setSetting, testApi, useSettings } from '../support/extension';
import { useConnectedService } from '../support/connectedService';
import { recordMessages } from '../support/recordMessages';
import { waitFor } from '../support/waitFor';
import { closeAllEditors } from '../support/workspace';

const SHOWN_WARNINGS_KEY = 'promptreel.account.shownWarnings';

describe('account: the key quota in the status bar', () => {
  const ctx = useConnectedService();
  const own = useSettings();

  beforeEach(async () => {
    const api = await testApi();
    api.connection.keyHealth.forget();
    await api.storage.global.update(SHOWN_WARNINGS_KEY, undefined);
  });

  it('shows what is left and when the key expires, with the detail in the tooltip', async () => {
    const api = await testApi();
    await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
    const text = await waitFor(() => api.account.text, { what: 'the key quota in the status bar' });
    assert.match(text, /^\$\(key\) \$3\.20 left · 1[12] days$/);
    assert.match(api.account.tooltip, /Left: \$3\.20 of \$10\.00/);
    assert.match(api.account.tooltip, new RegExp(`on ${ctx.service.baseUrl.replace(/[.:/]/g, '\\$&')}`));
  });

  it('follows the key: used up, then hidden where the service does not publish its quota', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { tokenUsage: 'exhausted' } });
    await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
    await waitFor(() => api.account.text === '$(warning) used up', { what: 'the used-up key' });
    ctx.service.setScenario({ account: { tokenUsage: 'absent', billing: 'absent' } });
    await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
    await waitFor(() => api.account.text === undefined, { what: 'the item to hide' });
  });

  it('reads again a moment after a charged request', async () => {
    const api = await testApi();
    await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
    await waitFor(() => api.account.text, { what: 'the first read' });
    const reads = () => ctx.service.requests.filter((request) => request.path === '/api/usage/token').length;
    const before = reads();
    ctx.service.setScenario({ account: { usedQuota: 4_000_000 } });
    let charges = 0;
    const subscription = api.connection.clients.onDidCharge(() => charges++);
    const conversation = api.chat.store.create({ model: 'promptreel-chat' });
    await api.chat.controller.send(conversation.id, { text: 'hello' });
    subscription.dispose();
    assert.equal(charges, 1, 'the chat request counted as charged');
    await waitFor(() => reads() > before && api.account.text?.includes('$2.00 left'), { what: 'the read after the charge', timeoutMs: 15_000 });
  });

  it('warns once when the key expires within 7 days, with Set API Key', async () => {
    const api = await testApi();
    ctx.service.setScenario({ account: { expiresInDays: 3.5 } });
    const messages = recordMessages();
    try {
      await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
      await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
      const warnings = messages.shown.filter((shown) => /expires in 3 days/.test(shown.message));
      assert.equal(warnings.length, 1, messages.shown.map((shown) => shown.message).join(' | '));
      assert.equal(warnings[0].severity, 'warning');
      assert.deepEqual(warnings[0].items, ['Set API Key', 'Test Connection']);
      assert.match(api.account.text ?? '', /\$3\.20 left · 3 days/);
    } finally {
      messages.restore();
    }
  });

  it('warns once when less than promptreel.account.warnBelowShare is left', async () => {
    ctx.service.setScenario({ account: { usedQuota: 4_700_000 } });
    const messages = recordMessages();
    try {
      await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
      await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
      assert.deepEqual(
        messages.shown.map((shown) => [shown.message, shown.items]),
        [["Less than 10% of your Promptreel API key's quota is left: $0.60 of $10.00.", ['Set API Key', 'Open Settings']]],
      );
    } finally {
      messages.restore();
    }
  });

  it('names an expired key before a charged request is sent, and sends nothing unless told to', async () => {
    const api = await testApi();
    await setSetting('chat.model', 'promptreel-chat');
    ctx.service.setScenario({ account: { expiresInDays: -2 } });
    const chatRequests = () => ctx.service.requests.filter((request) => request.path === '/v1/chat/completions').length;
    let answer: string | undefined;
    const messages = recordMessages(() => answer);
    try {
      await vscode.commands.executeCommand('promptreel.refreshKeyHealth');
      await waitFor(() => api.account.text === '$(warning) expired', { what: 'the expired key in the status bar' });
      assert.match(messages.shown[0]?.message ?? '', /^Your Promptreel API key expired on \d{4}-\d{2}-\d{2}\.$/);
      assert.equal(messages.shown[0].severity, 'error');

      await openEditor('const answer = ', new vscode.Position(0, 15));
      const before = messages.shown.length;
      await vscode.commands.executeCommand('promptreel.completeAtCursor');
      const asked = messages.shown.slice(before);
      assert.deepEqual(
        asked.map((shown) => shown.items),
        [['Send Anyway', 'Set API Key']],
      );
      assert.match(asked[0].message, /expired on/);
      assert.equal(chatRequests(), 0, 'nothing sent after the warning was dismissed');

      answer = 'Send Anyway';
      const shownBefore = messages.shown.length;
      const result = await vscode.commands.executeCommand('promptreel.completeAtCursor');
      assert.equal(
        chatRequests(),
        1,
        `sent when the user goes on (the service decides); the command answered ${JSON.stringify(result)} after ${JSON.stringify(messages.shown.slice(shownBefore))}`,
      );
    } finally {
      messages.restore();
      await closeAllEditors();
      await setSetting('chat.model', undefined);
    }
  });

  it('asks the service nothing while the feature starts (activation); the first read comes after a pause', async () => {
    const api = await testApi();
    const clock = new FakeClock(Date.now());
    const log = api.log.logger.forComponent('account-test');
    const { settings } = own;
    const { keyStore, clients, catalog, chatModel } = api.connection;
    const connection = new Connection(keyStore, clients, catalog, chatModel, settings, log, clock);
    const feature = new AccountFeature(connection, settings, api.storage.global, log);
    try {
      await new Promise((resolve) => setTimeout(resolve, 500)); // the point: nothing is read during it
      // Had anything been read, the monitor would know the quota (the service answers at once).
      assert.equal(connection.keyHealth.state.kind, 'unknown', 'nothing read while starting');
      assert.equal(connection.prices.known().size, 0, 'no prices read while starting');
      assert.equal(feature.text, undefined);
      await clock.advance(3_000);
      await waitFor(() => feature.text, { what: 'the first read, after the pause' });
      assert.equal(connection.prices.known().size, 0, 'prices are read only when a price is wanted');
    } finally {
      feature.dispose();
      connection.dispose();
    }
  });
});
