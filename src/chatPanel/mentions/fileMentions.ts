import * as vscode from 'vscode';
import { formatBytes, locationLabel, looksBinary, plural } from './core/mentionFormat';
import { mentionTokens } from './core/contextBudget';
import { randomId } from '../core/conversation';
import type { Mention, MentionKind } from '../core/model';
import { MentionError } from './mentionError';

/** A file larger than this is not added whole (a range of it, a symbol, still can be). */
export const MAX_FILE_BYTES = 1024 * 1024;
/** A folder mention lists at most this many files. */
const MAX_LISTED_FILES = 1_000;

export function relativePath(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The mention with its token count (the chip shows it; the budget adds them up). */
export function withTokens(mention: Omit<Mention, 'id' | 'tokens'>): Mention {
  return { ...mention, id: randomId(), tokens: mentionTokens({ ...mention, tokens: 0 }) };
}

/**
 * The text of a document: what the editor holds when it is open (unsaved changes included), else the file, up to
 * `maxBytes` (a larger file throws `tooLarge`'s words). Throws a MentionError for a folder or a binary file.
 */
export async function readDocumentText(
  uri: vscode.Uri,
  { maxBytes = MAX_FILE_BYTES, tooLarge = mentionTooLarge }: { maxBytes?: number; tooLarge?: (size: number) => string } = {},
): Promise<{ text: string; bytes: number }> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    return { text, bytes: new TextEncoder().encode(text).length };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if ((stat.type & vscode.FileType.Directory) !== 0) throw new MentionError(`${relativePath(uri)} is a folder.`);
  if (stat.size > maxBytes) throw new MentionError(`${relativePath(uri)} is ${formatBytes(stat.size)}, ${tooLarge(maxBytes)}`);
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (looksBinary(bytes)) throw new MentionError(`${relativePath(uri)} is not a text file.`);
  return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
}

function mentionTooLarge(limit: number): string {
  return `over the ${formatBytes(limit)} a mention takes: mention a symbol or select a range and use Ask About Selection.`;
}

/** A whole file, or lines of it (1-based, inclusive). */
export async function fileMention(uri: vscode.Uri, kind: MentionKind = 'file', lines?: { startLine: number; endLine: number }): Promise<Mention> {
  const { text, bytes } = await readDocumentText(uri);
  if (bytes > MAX_FILE_BYTES && !lines) {
    throw new MentionError(`${relativePath(uri)} is ${formatBytes(bytes)}, over the ${formatBytes(MAX_FILE_BYTES)} a mention takes.`);
  }
  const path = relativePath(uri);
  if (!lines) return withTokens({ kind, label: path, detail: formatBytes(bytes), uri: uri.toString(), content: text });
  const all = text.split(/\r?\n/);
  const endLine = Math.min(lines.endLine, all.length);
  const content = all.slice(lines.startLine - 1, endLine).join('\n');
  return withTokens({
    kind,
    label: locationLabel(path, lines.startLine, endLine),
    detail: plural(endLine - lines.startLine + 1, 'line'),
    uri: uri.toString(),
    startLine: lines.startLine,
    endLine,
    content,
  });
}

/** A folder: the list of its files (their text is not included; the model can ask for a file with its tools). */
export function folderMention(uri: vscode.Uri, files: readonly string[], folderPath: string): Mention {
  const prefix = folderPath ? `${folderPath}/` : '';
  const listed = files.slice(0, MAX_LISTED_FILES).map((file) => file.slice(prefix.length));
  const more = files.length > listed.length ? `\n… and ${files.length - listed.length} more` : '';
  return withTokens({
    kind: 'folder',
    label: `${relativePath(uri)}/`,
    detail: plural(files.length, 'file'),
    uri: uri.toString(),
    content: `Files in ${relativePath(uri)}/:\n${listed.join('\n')}${more}`,
  });
}

export function activeFileUri(): vscode.Uri | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor) return editor.document.uri;
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputText ? input.uri : undefined;
}

/** The text files open in editor tabs, most recent group first, without duplicates. */
export function openEditorUris(): vscode.Uri[] {
  const seen = new Map<string, vscode.Uri>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) if (tab.input instanceof vscode.TabInputText) seen.set(tab.input.uri.toString(), tab.input.uri);
  }
  return [...seen.values()];
}
