import * as vscode from 'vscode';
import type { ChatServices } from './chatServices';
import { recoveryCommand } from '../workbench/recoveryActions';
import type { HostToWebview, WebviewToHost } from './core/protocol';

/** The page's intents that act on the shared services only (no state of the webview it came from). */
export type ServiceIntent = Exclude<
  WebviewToHost,
  {
    type:
      | 'ready'
      | 'send'
      | 'quickAction'
      | 'newConversation'
      | 'selectConversation'
      | 'setOptions'
      | 'attachImage'
      | 'removeImage'
      | 'clearContext'
      | 'mentionQuery'
      | 'addMention'
      | 'removeMention'
      | 'openMention'
      | 'dropUris'
      | 'addImageData';
  }
>;

/** `reply` answers the page the intent came from (a search's results). */
export async function runServiceIntent(
  message: ServiceIntent,
  { controller, conversations, codeBlocks, models }: ChatServices,
  reply: (message: HostToWebview) => void,
): Promise<unknown> {
  switch (message.type) {
    case 'stop':
      return controller.stop(message.conversationId);
    case 'retryNow':
      return controller.retryNow(message.conversationId);
    case 'toolApproval':
      return controller.decideTool(message.conversationId, message.callId, message.decision);
    case 'renameConversation':
      return conversations.rename(message.conversationId);
    case 'deleteConversation':
      return conversations.delete(message.conversationId);
    case 'exportConversation':
      return conversations.export(message.conversationId, message.format);
    case 'importConversation':
      return conversations.importFromFile((conversationId) => reply({ type: 'openConversation', conversationId }));
    case 'pinConversation':
      return controller.store.setPinned(message.conversationId, message.pinned);
    case 'deleteConversations':
      return conversations.deleteMany(message.conversationIds);
    case 'searchConversations':
      reply({ type: 'searchResults', requestId: message.requestId, results: controller.store.search(message.query) });
      return;
    case 'regenerate':
    case 'retry':
      void controller.regenerate(message.conversationId);
      return;
    case 'editMessage':
      void controller.editAndResend(message.conversationId, message.messageId, message.text);
      return;
    case 'refreshModels':
      return models.refresh();
    case 'loadModels':
      return models.ensureLoaded();
    case 'codeAction':
      if (message.action === 'copy') return codeBlocks.copy(message.code);
      if (message.action === 'insert') return codeBlocks.insertAtCursor(message.code);
      if (message.action === 'replace') return codeBlocks.replaceSelection(message.code);
      return codeBlocks.newFile(message.code, message.language);
    case 'runCommand': {
      const command = recoveryCommand(message.command);
      if (command) await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
      return;
    }
  }
}
