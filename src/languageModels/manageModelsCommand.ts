import type { CommandHandler } from '../workbench/registerCommands';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { ModelCatalog } from '../connection/core/modelCatalog';

export type ManageAction = 'setApiKey' | 'baseUrl' | 'capabilities' | 'chatModel' | 'refresh';

interface ManageItem extends vscode.QuickPickItem {
  action: ManageAction;
}

function manageItems(): ManageItem[] {
  return [
    { action: 'setApiKey', label: `$(key) ${t('Set API Key')}`, detail: t('The key (and the address) of your Promptreel service.') },
    { action: 'baseUrl', label: `$(globe) ${t('Service Address')}`, detail: 'promptreel.baseUrl' },
    {
      action: 'capabilities',
      label: `$(symbol-property) ${t('Model Capabilities')}`,
      detail: t('Context window, max output, tool calling and image input of each model (promptreel.models.capabilities).'),
    },
    { action: 'chatModel', label: `$(comment-discussion) ${t('Select Chat Model')}`, detail: t('The model @promptreel answers with.') },
    { action: 'refresh', label: `$(refresh) ${t('Refresh Model List')}`, detail: t('Read /v1/models again.') },
  ];
}

/**
 * `Promptreel: Manage Language Models`, the management command of the `promptreel` vendor in VS Code's model
 * picker: the key, the address and the per-model capabilities in one place.
 */
export class ManageModelsCommand {
  readonly handlers: Readonly<Record<string, CommandHandler>> = { [CommandIds.manageLanguageModels]: () => this.run() };

  constructor(private readonly catalog: ModelCatalog) {}

  /** Returns what was picked (tests drive the real quick pick), or undefined when dismissed. */
  async run(): Promise<ManageAction | undefined> {
    const picked = await vscode.window.showQuickPick(manageItems(), { title: t('Promptreel: Manage Language Models'), placeHolder: t('What to change') });
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
