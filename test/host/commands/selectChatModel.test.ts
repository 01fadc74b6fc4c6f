import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { chatModelsOf } from '../../../src/connection/core/chatModels';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { setSetting, testApi } from '../support/extension';

describe('shell: Select Chat Model', () => {
  const ctx = useConnectedService({ settings: { 'chat.model': undefined } });

  /** Runs the command on a fresh model list, waits until the pick has the service's models, then drives the real quick pick. */
  async function pickWith(...keys: string[]): Promise<string | undefined> {
    // The list is shared and kept per service and key: the test reads it again, as a new key would.
    (await testApi()).languageModels.catalog.invalidate('a new pick in the test');
    const picked = vscode.commands.executeCommand<string | undefined>('promptreel.selectChatModel');
    await waitFor(() => ctx.service.requests.some((request) => request.path === '/v1/models'), { what: 'the model list request' });
    // The pick gets the list (or the failure) in the tick the catalog settles; its items reach the workbench on the next timer turn.
    await (await testApi()).languageModels.catalog.chatModels().catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (const key of keys) await vscode.commands.executeCommand(key);
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    return picked;
  }

  function chatModelSetting(): string | undefined {
    return vscode.workspace.getConfiguration('promptreel').get<string>('chat.model');
  }

  it('is what the status bar item runs', async () => {
    const { statusBar } = await testApi();
    assert.equal(statusBar.command, 'promptreel.selectChatModel');
  });

  it('offers only chat models', () => {
    const models = [
      { id: 'promptreel-chat', endpointTypes: ['openai'] },
      { id: 'promptreel-video', endpointTypes: ['openai-video'] },
      { id: 'untyped-video', endpointTypes: undefined },
      { id: 'plain' },
    ];
    assert.deepEqual(
      chatModelsOf(models, 'untyped-video').map((model) => model.id),
      ['promptreel-chat', 'plain'],
    );
  });

  it('writes the picked model to promptreel.chat.model (global)', async () => {
    const { statusBar } = await testApi();
    assert.equal(await pickWith(), 'promptreel-chat');
    assert.equal(chatModelSetting(), 'promptreel-chat');
    assert.equal(vscode.workspace.getConfiguration('promptreel').inspect('chat.model')?.globalValue, 'promptreel-chat');
    await waitFor(() => statusBar.text === '$(comment-discussion) promptreel-chat', { what: 'the status bar' });

    ctx.service.reset();
    assert.equal(await pickWith('workbench.action.quickOpenSelectNext'), 'promptreel-reasoner');
    assert.equal(chatModelSetting(), 'promptreel-reasoner');
  });

  it('falls back to the configured model when the list cannot be loaded', async () => {
    await setSetting('chat.model', 'my-own-model');
    ctx.service.setScenario({ fault: { status: 503, body: 'html' } });
    assert.equal(await pickWith(), 'my-own-model');
    assert.equal(chatModelSetting(), 'my-own-model');
  });
});
