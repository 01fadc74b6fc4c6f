import * as assert from 'assert';
import * as vscode from 'vscode';
import { testApi } from '../shell/shellTestSupport';
import { connectService, disconnectService, useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';

describe('account: the key quota in the status bar', () => {
  const ctx = useConnectedService(
    (service) => connectService(service),
    () => disconnectService(),
  );

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
    const subscription = api.clients.onDidCharge(() => charges++);
    const conversation = api.chat.store.create({ model: 'promptreel-chat' });
    await api.chat.controller.send(conversation.id, { text: 'hello' });
    subscription.dispose();
    assert.strictEqual(charges, 1, 'the chat request counted as charged');
    await waitFor(() => reads() > before && api.account.text?.includes('$2.00 left'), { what: 'the read after the charge', timeoutMs: 15_000 });
  });
});
