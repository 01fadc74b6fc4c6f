import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { promptreelModels } from './languageModelSupport';

type ShowQuickPick = (items: readonly vscode.QuickPickItem[], options?: vscode.QuickPickOptions) => Thenable<vscode.QuickPickItem | undefined>;

/** Answers the next quick pick with the item whose label contains `label`, and keeps what was offered. */
function pickNext(label: string): { offered: string[]; restore(): void } {
  const window = vscode.window as unknown as { showQuickPick: ShowQuickPick };
  const original = window.showQuickPick;
  const offered: string[] = [];
  window.showQuickPick = async (items) => {
    offered.push(...items.map((item) => item.label));
    return items.find((item) => item.label.includes(label));
  };
  return { offered, restore: () => (window.showQuickPick = original) };
}

interface ProviderContribution {
  vendor: string;
  displayName: string;
  managementCommand?: string;
}

describe('language models: the management command of the promptreel vendor', () => {
  const ctx = useConnectedService();

  it('is the management command of the contributed vendor, and contributed with the Promptreel category', () => {
    const contributes = (
      vscode.extensions.getExtension('promptreel.promptreel')?.packageJSON as {
        contributes: { languageModelChatProviders: ProviderContribution[]; commands: { command: string; category: string }[] };
      }
    ).contributes;
    assert.deepEqual(contributes.languageModelChatProviders, [
      { vendor: 'promptreel', displayName: 'Promptreel', managementCommand: 'promptreel.manageLanguageModels' },
    ]);
    assert.equal(contributes.commands.find((command) => command.command === 'promptreel.manageLanguageModels')?.category, 'Promptreel');
  });

  it('offers the key, the address, the capabilities, the chat model and a refresh; Refresh lists the models again', async () => {
    await waitFor(async () => (await promptreelModels()).length === 2, { what: 'the models', timeoutMs: 20_000 });
    const listed = ctx.service.requests.filter((request) => request.path === '/v1/models').length;
    // The service now lists another model; the cached list does not know it yet.
    ctx.service.setScenario({ models: [{ id: 'promptreel-new', supported_endpoint_types: ['openai'] }] });
    assert.equal((await promptreelModels()).length, 2);
    const pick = pickNext('Refresh Model List');
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.manageLanguageModels'), 'refresh');
    } finally {
      pick.restore();
    }
    assert.deepEqual(pick.offered, [
      '$(key) Set API Key',
      '$(globe) Service Address',
      '$(symbol-property) Model Capabilities',
      '$(comment-discussion) Select Chat Model',
      '$(refresh) Refresh Model List',
    ]);
    // VS Code hears that the list changed and asks again: a new /v1/models request.
    await waitFor(async () => (await promptreelModels()).map((model) => model.id).join() === 'promptreel-new', {
      what: 'the refreshed list',
      timeoutMs: 20_000,
    });
    assert.ok(ctx.service.requests.filter((request) => request.path === '/v1/models').length > listed);
  });

  it('opens the capability setting', async () => {
    const pick = pickNext('Model Capabilities');
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.manageLanguageModels'), 'capabilities');
    } finally {
      pick.restore();
    }
    await waitFor(() => vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('Settings'), { what: 'the Settings editor' });
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
