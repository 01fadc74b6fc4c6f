import { CommandIds, ViewIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { ComponentLogger } from '../common/logger';
import type { LazyFeature } from '../workbench/lazyFeature';
import { registerPanelSerializer } from '../workbench/webview/webviewPanels';
import { AskAboutSelectionActions } from './askAboutSelectionActions';
import type { ChatFeature } from './chatFeature';

/**
 * What VS Code must know of the chat panel from activation on: its commands, the Chat view, the editor panels it
 * restores after a reload and the code actions. The panel's own code loads when one of them is first used.
 */
export function registerChatSurfaces(chat: LazyFeature<ChatFeature>, log: ComponentLogger): vscode.Disposable {
  return vscode.Disposable.from(
    chat.registerCommands(Object.values(CommandIds.chat), (feature) => feature.commandHandlers),
    vscode.window.registerWebviewViewProvider(ViewIds.chat, {
      resolveWebviewView: async (view, context) => (await chat.getOrReport())?.view.resolveWebviewView(view, context),
    }),
    registerPanelSerializer(ViewIds.chatPanel, async (panel, state) => (await chat.get()).panels.restore(panel, state), log),
    vscode.languages.registerCodeActionsProvider(AskAboutSelectionActions.selector, new AskAboutSelectionActions(), AskAboutSelectionActions.metadata),
  );
}
