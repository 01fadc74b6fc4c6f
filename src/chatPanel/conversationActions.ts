import * as vscode from 'vscode';
import type { ComponentLogger } from '../common/logger';
import type { ChatController } from './core/chatController';
import { conversationToMarkdown } from './core/exportMarkdown';

/** Rename, delete and export: the steps that ask the user something (input box, confirmation) or open an editor. */
export class ConversationActions {
  constructor(
    private readonly controller: ChatController,
    private readonly log: ComponentLogger,
  ) {}

  async rename(conversationId: string): Promise<string | undefined> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return undefined;
    const title = await vscode.window.showInputBox({
      title: 'Promptreel: Rename Chat',
      prompt: 'The new name of the chat',
      value: conversation.title,
      validateInput: (value) => (value.trim() ? undefined : 'Enter a name; it cannot be empty.'),
    });
    if (title === undefined || !title.trim()) return undefined;
    this.controller.store.rename(conversationId, title);
    return title.trim();
  }

  /** Asks for confirmation (a modal), stops a reply in progress, then deletes. */
  async delete(conversationId: string, { confirm = true }: { confirm?: boolean } = {}): Promise<boolean> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return false;
    if (confirm) {
      const choice = await vscode.window.showWarningMessage(
        `Delete the chat "${conversation.title}"?`,
        { modal: true, detail: 'Its messages cannot be restored.' },
        'Delete',
      );
      if (choice !== 'Delete') return false;
    }
    this.controller.stop(conversationId);
    const deleted = this.controller.store.delete(conversationId);
    if (deleted) this.log.info(`Deleted a chat (${conversation.messages.length} messages).`);
    return deleted;
  }

  /** Opens the conversation as a new Markdown document (the user saves it where they like). */
  async exportToMarkdown(conversationId: string): Promise<vscode.TextDocument | undefined> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return undefined;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: conversationToMarkdown(conversation) });
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }
}
