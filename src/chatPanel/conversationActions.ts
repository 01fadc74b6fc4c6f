import { CommandIds } from '../common/contributions';
import * as os from 'node:os';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import { joinSentences } from '../api/sentences';
import { showMessage } from '../workbench/showMessage';
import type { ChatController } from './core/chatController';
import { chatFileName, conversationToJson, parseConversationJson } from './core/conversationJson';
import { conversationToMarkdown } from './core/exportMarkdown';

export type ChatFileFormat = 'markdown' | 'json';
export type ExportOutcome =
  { kind: 'saved'; uri: vscode.Uri } | { kind: 'opened'; document: vscode.TextDocument } | { kind: 'cancelled' } | { kind: 'failed'; problem: string };
export type ImportOutcome = { kind: 'imported'; conversationId: string } | { kind: 'cancelled' } | { kind: 'failed'; problem: string };

/** A chat file larger than this is refused before it is read (images make files large, not this large). */
const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

function jsonFilter(): Record<string, string[]> {
  return { [t('Promptreel chat (JSON)')]: ['json'] };
}

/**
 * Rename, delete, export and import: the steps that ask the user something (input box, confirmation, file dialog)
 * or open an editor.
 */
export class ConversationActions {
  constructor(
    private readonly controller: ChatController,
    private readonly log: ComponentLogger,
  ) {}

  async rename(conversationId: string): Promise<string | undefined> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return undefined;
    const title = await vscode.window.showInputBox({
      title: t('Promptreel: Rename Chat'),
      prompt: t('The new name of the chat'),
      value: conversation.title,
      validateInput: (value) => (value.trim() ? undefined : t('Enter a name; it cannot be empty.')),
    });
    if (title === undefined || !title.trim()) return undefined;
    this.controller.store.rename(conversationId, title);
    return title.trim();
  }

  /** Asks for confirmation (a modal), stops a reply in progress, then deletes. */
  async delete(conversationId: string, { confirm = true }: { confirm?: boolean } = {}): Promise<boolean> {
    return (await this.deleteMany([conversationId], { confirm })) === 1;
  }

  /** Deletes several chats after one modal confirmation naming how many; returns how many were deleted. */
  async deleteMany(conversationIds: readonly string[], { confirm = true }: { confirm?: boolean } = {}): Promise<number> {
    const store = this.controller.store;
    const chats = [...new Set(conversationIds)].flatMap((id) => store.get(id) ?? []);
    if (chats.length === 0) return 0;
    if (confirm) {
      const answering = chats.some((chat) => this.controller.isBusy(chat.id)) ? t('The reply in progress is stopped.') : undefined;
      const [question, detail] =
        chats.length === 1
          ? [t('Delete the chat "{0}"?', chats[0].title), joinSentences(t('Its messages cannot be restored.'), answering)]
          : [
              t('Delete {0} chats?', chats.length),
              `${listTitles(chats.map((chat) => chat.title))}\n\n${joinSentences(t('Their messages cannot be restored.'), answering)}`,
            ];
      const remove = t('Delete');
      const choice = await vscode.window.showWarningMessage(question, { modal: true, detail }, remove);
      if (choice !== remove) return 0;
    }
    for (const chat of chats) this.controller.stop(chat.id);
    const deleted = store.deleteMany(chats.map((chat) => chat.id));
    const messages = chats.filter((chat) => deleted.includes(chat.id)).reduce((sum, chat) => sum + chat.messages.length, 0);
    this.log.info(`Deleted ${deleted.length} chat(s) (${messages} messages).`);
    return deleted.length;
  }

  /** Opens the conversation as a new Markdown document (the user saves it where they like). */
  async exportToMarkdown(conversationId: string): Promise<vscode.TextDocument | undefined> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return undefined;
    const document = await vscode.workspace.openTextDocument({ language: 'markdown', content: conversationToMarkdown(conversation) });
    await vscode.window.showTextDocument(document, { preview: false });
    return document;
  }

  /**
   * Exports the chat in the format given, or the one the user picks: a Markdown or a JSON file (saved where they
   * choose), or Markdown opened in an editor (nothing written).
   */
  async export(conversationId: string, format?: ChatFileFormat): Promise<ExportOutcome> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return { kind: 'failed', problem: t('The chat no longer exists.') };
    const chosen = format ?? (await askExportFormat(conversation.title));
    if (!chosen) return { kind: 'cancelled' };
    if (chosen !== 'editor') return this.exportToFile(conversationId, chosen);
    const document = await this.exportToMarkdown(conversationId);
    return document ? { kind: 'opened', document } : { kind: 'cancelled' };
  }

  /** Saves the chat as Markdown (to read) or JSON (to import again, images included) where the user picks. */
  async exportToFile(conversationId: string, format: ChatFileFormat): Promise<ExportOutcome> {
    const conversation = this.controller.store.get(conversationId);
    if (!conversation) return { kind: 'failed', problem: t('The chat no longer exists.') };
    const target = await vscode.window.showSaveDialog({
      title: format === 'json' ? t('Promptreel: Export Chat as JSON') : t('Promptreel: Export Chat as Markdown'),
      saveLabel: t('Export'),
      defaultUri: vscode.Uri.joinPath(defaultFolder(), chatFileName(conversation.title, format === 'json' ? 'json' : 'md')),
      filters: format === 'json' ? jsonFilter() : { Markdown: ['md'] },
    });
    if (!target) return { kind: 'cancelled' };
    const content = format === 'json' ? conversationToJson(conversation) : conversationToMarkdown(conversation);
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(content));
    } catch (error) {
      const where = target.scheme === 'file' ? target.fsPath : target.toString(true);
      this.log.error(`Could not export the chat to ${where}: ${describeError(error)}`);
      const problem = t('Could not export the chat to {0}: {1}', where, describeError(error));
      showMessage('error', problem, [
        { title: t('Choose Another File'), run: () => this.exportToFile(conversationId, format) },
        { title: t('Show Logs'), command: CommandIds.showLogs },
      ]);
      return { kind: 'failed', problem };
    }
    this.log.info(`Exported a chat (${conversation.messages.length} messages) as ${format}.`);
    showMessage('info', t('Exported "{0}" to {1}.', conversation.title, baseName(target)), [
      { title: t('Open'), run: () => vscode.commands.executeCommand('vscode.open', target) },
    ]);
    return { kind: 'saved', uri: target };
  }

  /**
   * Reads a chat exported as JSON (the file given, or one the user picks) and adds it to the history as a new chat
   * (never over an existing one); `show` puts it on screen. A bad file gets a message saying what is wrong, with a
   * way to pick another.
   */
  async importFromFile(show: (conversationId: string) => unknown, source?: vscode.Uri): Promise<ImportOutcome> {
    const uri = source ?? (await pickChatFile());
    if (!uri) return { kind: 'cancelled' };
    const read = await readText(uri);
    const parsed = read.ok ? parseConversationJson(read.text) : read;
    if (!parsed.ok) {
      this.log.warn(`Did not import ${uri.toString(true)}: ${parsed.problem}`);
      const problem = t('Could not import "{0}": {1}', baseName(uri), parsed.problem);
      showMessage('error', problem, [
        { title: t('Choose Another File'), run: () => this.importFromFile(show) },
        { title: t('Show Logs'), command: CommandIds.showLogs },
      ]);
      return { kind: 'failed', problem };
    }
    const imported = this.controller.store.addImported(parsed.conversation);
    this.log.info(`Imported a chat (${imported.messages.length} messages) from a JSON file.`);
    await show(imported.id);
    return { kind: 'imported', conversationId: imported.id };
  }
}

type ExportChoice = ChatFileFormat | 'editor';

async function askExportFormat(title: string): Promise<ExportChoice | undefined> {
  const items: (vscode.QuickPickItem & { format: ExportChoice })[] = [
    { format: 'markdown', label: t('$(markdown) Markdown file'), detail: t('To read or share: the messages, their code and what they cost.') },
    { format: 'json', label: t('$(json) JSON file'), detail: t('To import again later or elsewhere ("Import Chat from JSON…"), images included.') },
    { format: 'editor', label: t('$(go-to-file) Markdown in an editor'), detail: t('Opens the Markdown unsaved; nothing is written.') },
  ];
  const picked = await vscode.window.showQuickPick(items, { title: t('Promptreel: Export "{0}"', title), placeHolder: t('Export the chat as') });
  return picked?.format;
}

async function pickChatFile(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: t('Promptreel: Import Chat from JSON'),
    openLabel: t('Import'),
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    defaultUri: defaultFolder(),
    filters: { ...jsonFilter(), [t('All files')]: ['*'] },
  });
  return picked?.[0];
}

async function readText(uri: vscode.Uri): Promise<{ ok: true; text: string } | { ok: false; problem: string }> {
  try {
    const { size } = await vscode.workspace.fs.stat(uri);
    if (size > MAX_IMPORT_BYTES)
      return { ok: false, problem: t('The file is {0} MB; a chat file may be at most {1} MB.', megabytes(size), megabytes(MAX_IMPORT_BYTES)) };
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(await vscode.workspace.fs.readFile(uri)) };
  } catch (error) {
    return { ok: false, problem: error instanceof TypeError ? t('The file is not UTF-8 text.') : t('The file could not be read ({0}).', describeError(error)) };
  }
}

function megabytes(bytes: number): number {
  return Math.round(bytes / (1024 * 1024));
}

/** The first workspace folder, else the home folder: where the save dialog starts. */
function defaultFolder(): vscode.Uri {
  return vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(os.homedir());
}

function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/** Up to five titles, one a line, and how many more. */
function listTitles(titles: string[]): string {
  const shown = titles.slice(0, 5).map((title) => `• ${title}`);
  if (titles.length > 5) shown.push(t('…and {0} more', titles.length - 5));
  return shown.join('\n');
}
