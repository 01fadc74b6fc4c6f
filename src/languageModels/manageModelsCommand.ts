import * as vscode from 'vscode';
import { CommandIds } from '../common/commandIds';
import { Disposable } from '../common/lifecycle';
import type { ModelCatalog } from '../connection/core/modelCatalog';

export const MANAGE_LANGUAGE_MODELS_COMMAND = 'promptreel.manageLanguageModels';

export type ManageAction = 'setApiKey' | 'baseUrl' | 'capabilities' | 'chatModel' | 'refresh';

interface ManageItem extends vscode.QuickPickItem {
  action: ManageAction;
}

const ITEMS: readonly ManageItem[] = [
  { action: 'setApiKey', label: '$(key) Set API Key', detail: 'The key (and the address) of your Promptreel service.' },
  { action: 'baseUrl', label: '$(globe) Service Address', detail: 'promptreel.baseUrl' },
  {
    action: 'capabilities',
    label: '$(symbol-property) Model Capabilities',
    detail: 'Context window, max output, tool calling and image input of each model (promptreel.models.capabilities).',
  },
  { action: 'chatModel', label: '$(comment-discussion) Select Chat Model', detail: 'The model @promptreel answers with.' },
  { action: 'refresh', label: '$(refresh) Refresh Model List', detail: 'Read /v1/models again.' },
];

/**
 * `Promptreel: Manage Language Models`, the management command of the `promptreel` vendor in VS Code's model
 * picker: the key, the address and the per-model capabilities in one place.
 */
export class ManageModelsCommand extends Disposable {
  constructor(private readonly catalog: ModelCatalog) {
    super();
    this._register(vscode.commands.registerCommand(MANAGE_LANGUAGE_MODELS_COMMAND, () => this.run()));
  }

  /** Returns what was picked (tests drive the real quick pick), or undefined when dismissed. */
  async run(): Promise<ManageAction | undefined> {
    const picked = await vscode.window.showQuickPick(ITEMS, { title: 'Promptreel: Manage Language Models', placeHolder: 'What to change' });
    if (!picked) return undefined;
    switch (picked.action) {
      case 'setApiKey':
        await vscode.commands.executeCommand(CommandIds.setApiKey);
        break;
      case 'baseUrl':
        await vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl');
        break;
      case 'capabilities':
        await vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.models.capabilities');
        break;
      case 'chatModel':
        await vscode.commands.executeCommand(CommandIds.selectChatModel);
        break;
      case 'refresh':
        this.catalog.invalidate('asked for by the user');
        break;
    }
    return picked.action;
  }
}
