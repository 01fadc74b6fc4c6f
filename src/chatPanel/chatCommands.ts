import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { showMessage } from '../workbench/showMessage';
import type { CommandHandler } from '../workbench/registerCommands';
import type { ChatController } from './core/chatController';
import type { ChatPanels } from './webview/chatPanels';
import type { ChatViewProvider } from './webview/chatViewProvider';
import type { ChatSession } from './webview/chatSession';
import type { ConversationActions, ExportOutcome, ImportOutcome } from './conversationActions';

/** How long Show Chat History waits for a Chat view that is opening to load its page. */
const PAGE_LOAD_WAIT_MS = 10_000;

/** New Chat, Open Chat in Editor, Show Chat History, Export Chat and Import Chat from JSON. */
export class ChatCommands {
  /** The handler of each command id (chatSurfaces.ts registers the ids at activation). */
  readonly handlers: Readonly<Record<string, CommandHandler>> = {
    [CommandIds.chat.newChat]: () => this.newChat(),
    [CommandIds.chat.openChatInEditor]: () => this.openInEditor(),
    [CommandIds.chat.showChatHistory]: () => this.showHistory(),
    [CommandIds.chat.exportChat]: (conversationId?: unknown) => this.exportChat(typeof conversationId === 'string' ? conversationId : undefined),
    [CommandIds.chat.importChat]: (file?: unknown) => this.importChat(file instanceof vscode.Uri ? file : undefined),
  };

  constructor(
    private readonly controller: ChatController,
    private readonly view: ChatViewProvider,
    private readonly panels: ChatPanels,
    private readonly conversations: ConversationActions,
  ) {}

  async newChat(): Promise<string> {
    const host = await this.view.reveal();
    return host.newConversation();
  }

  /** Opens the conversation of the Chat view (or the newest one) in an editor panel. */
  async openInEditor(): Promise<string> {
    const id = this.view.host?.conversationId ?? this.controller.store.mostRecent()?.id;
    return this.panels.show(id).conversationId;
  }

  /** Shows the Chat view with its History open (search, pins, several chats at once, import and export). */
  async showHistory(): Promise<void> {
    // A hidden view's page loads again when shown: History opens once it has (the host answers its `ready`).
    const reloads = !(this.view.visible && this.view.host?.ready);
    const pageLoaded = reloads ? this.nextSnapshot() : Promise.resolve();
    const host = await this.view.reveal();
    await pageLoaded;
    host.post({ type: 'openHistory' });
  }

  /** Resolves when the Chat view's page is sent its next snapshot (it just loaded), or after a while. */
  private nextSnapshot(): Promise<void> {
    return new Promise<void>((resolve) => {
      const subscriptions: vscode.Disposable[] = [];
      const done = () => {
        clearTimeout(timer);
        for (const subscription of subscriptions) subscription.dispose();
        resolve();
      };
      const timer = setTimeout(done, PAGE_LOAD_WAIT_MS);
      const watch = (host: ChatSession) => subscriptions.push(host.onDidPost((message) => message.type === 'snapshot' && done()));
      if (this.view.host) watch(this.view.host);
      subscriptions.push(this.view.onDidResolve(watch));
    });
  }

  /** Exports the chat given, else the one of the Chat view (or the newest): Markdown or JSON, as the user picks. */
  async exportChat(conversationId?: string): Promise<ExportOutcome | undefined> {
    const id = conversationId ?? this.view.host?.conversationId ?? this.controller.store.mostRecent()?.id;
    if (!id || !this.controller.store.get(id)?.messages.length) {
      showMessage('info', t('There is no chat to export yet: send a message first.'));
      return undefined;
    }
    return this.conversations.export(id);
  }

  /** Adds a chat exported as JSON (the file given, or one the user picks) and shows it in the Chat view. */
  async importChat(file?: vscode.Uri): Promise<ImportOutcome> {
    return this.conversations.importFromFile(async (id) => (await this.view.reveal()).showConversation(id), file);
  }
}
