import * as vscode from 'vscode';
import { showMessage } from '../workbench/showMessage';
import { registerCommands } from '../workbench/registerCommands';
import { Disposable } from '../common/lifecycle';
import { ChatCommandIds } from './chatCommandIds';
import type { ChatController } from './core/chatController';
import type { ChatPanels } from './chatPanels';
import type { ChatViewProvider } from './chatViewProvider';
import type { ConversationActions, ExportOutcome, ImportOutcome } from './conversationActions';

interface ConversationItem extends vscode.QuickPickItem {
  conversationId: string;
}

const RENAME_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('edit'), tooltip: 'Rename' };
const DELETE_BUTTON: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

/** New Chat, Open Chat in Editor, Show Chat History (switch, rename, delete), Export Chat and Import Chat from JSON. */
export class ChatCommands extends Disposable {
  constructor(
    private readonly controller: ChatController,
    private readonly view: ChatViewProvider,
    private readonly panels: ChatPanels,
    private readonly conversations: ConversationActions,
  ) {
    super();
    this._register(
      registerCommands({
        [ChatCommandIds.newChat]: () => this.newChat(),
        [ChatCommandIds.openChatInEditor]: () => this.openInEditor(),
        [ChatCommandIds.showChatHistory]: () => this.showHistory(),
        [ChatCommandIds.exportChat]: (conversationId?: unknown) => this.exportChat(typeof conversationId === 'string' ? conversationId : undefined),
        [ChatCommandIds.importChat]: (file?: unknown) => this.importChat(file instanceof vscode.Uri ? file : undefined),
      }),
    );
  }

  async newChat(): Promise<string> {
    const host = await this.view.reveal();
    return host.newConversation();
  }

  /** Opens the conversation of the Chat view (or the newest one) in an editor panel. */
  async openInEditor(): Promise<string> {
    const id = this.view.host?.conversationId ?? this.controller.store.mostRecent()?.id;
    return this.panels.show(id).conversationId;
  }

  async showHistory(): Promise<string | undefined> {
    const pick = vscode.window.createQuickPick<ConversationItem>();
    pick.title = 'Promptreel: Chat History';
    pick.placeholder = 'Pick a chat to open it';
    pick.matchOnDetail = true;
    const refresh = () => {
      pick.items = this.controller.store.list().map((summary) => ({
        conversationId: summary.id,
        label: summary.title,
        description: `${summary.pinned ? '$(pinned) ' : ''}${summary.messageCount} message${summary.messageCount === 1 ? '' : 's'}${this.controller.isBusy(summary.id) ? ' · answering' : ''}`,
        detail: new Date(summary.updatedAt).toLocaleString(),
        buttons: [RENAME_BUTTON, DELETE_BUTTON],
      }));
    };
    refresh();
    const disposables: vscode.Disposable[] = [pick];
    // Rename and delete open their own input box or dialog, which hides the pick for a moment.
    let acting = false;
    try {
      const chosen = await new Promise<string | undefined>((resolve) => {
        disposables.push(
          pick.onDidTriggerItemButton(async ({ item, button }) => {
            acting = true;
            pick.busy = true;
            if (button === RENAME_BUTTON) await this.conversations.rename(item.conversationId);
            else await this.conversations.delete(item.conversationId);
            pick.busy = false;
            acting = false;
            refresh();
            pick.show();
          }),
          pick.onDidAccept(() => resolve(pick.selectedItems[0]?.conversationId)),
          pick.onDidHide(() => {
            if (!acting) resolve(undefined);
          }),
        );
        pick.show();
      });
      if (!chosen) return undefined;
      const host = await this.view.reveal();
      host.showConversation(chosen);
      return chosen;
    } finally {
      for (const disposable of disposables) disposable.dispose();
    }
  }

  /** Exports the chat given, else the one of the Chat view (or the newest): Markdown or JSON, as the user picks. */
  async exportChat(conversationId?: string): Promise<ExportOutcome | undefined> {
    const id = conversationId ?? this.view.host?.conversationId ?? this.controller.store.mostRecent()?.id;
    if (!id || !this.controller.store.get(id)?.messages.length) {
      showMessage('info', 'There is no chat to export yet: send a message first.');
      return undefined;
    }
    return this.conversations.export(id);
  }

  /** Adds a chat exported as JSON (the file given, or one the user picks) and shows it in the Chat view. */
  async importChat(file?: vscode.Uri): Promise<ImportOutcome> {
    return this.conversations.importFromFile(async (id) => (await this.view.reveal()).showConversation(id), file);
  }
}
