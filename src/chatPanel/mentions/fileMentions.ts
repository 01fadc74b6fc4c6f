import * as vscode from 'vscode';
import { t } from '../../common/l10n';
import { english, fileCount, userLanguage, formatBytes, lineCount, locationLabel, looksBinary, type Words } from './core/mentionFormat';
import { mentionTokens } from './core/contextBudget';
import { mentionHeading } from '../core/contextPrompt';
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

/** A chip's label and detail, written once with `t`: shown in the user's language, read by the model in English. */
export type ChipWords = (t: Words) => { label: string; detail?: string };

/**
 * The mention with its chip's words and its token count (the chip shows it; the budget adds them up). When the words
 * are translated, the model reads them in English (the mention's `heading`).
 */
export function withTokens(mention: Omit<Mention, 'id' | 'tokens' | 'label' | 'detail' | 'heading'>, words: ChipWords): Mention {
  const shown = words(t);
  const heading = mentionHeading(words(english));
  const described = { ...mention, ...shown, ...(heading !== mentionHeading(shown) ? { heading } : {}) };
  return { ...described, id: randomId(), tokens: mentionTokens({ ...described, tokens: 0 }) };
}

/** Words for a file that is too large: the path, its size and the limit, as `formatBytes` writes them. */
export type TooLarge = (path: string, size: string, limit: string) => string;

/**
 * The text of a document: what the editor holds when it is open (unsaved changes included), else the file, up to
 * `maxBytes` (a larger file throws `tooLarge`'s words). Throws a MentionError for a folder or a binary file, in the
 * words of `t` (the user's language for a mention; the tools, whose errors the model reads, pass `english`).
 */
export async function readDocumentText(
  uri: vscode.Uri,
  { maxBytes = MAX_FILE_BYTES, tooLarge = mentionTooLarge, t = userLanguage }: { maxBytes?: number; tooLarge?: TooLarge; t?: Words } = {},
): Promise<{ text: string; bytes: number }> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open) {
    const text = open.getText();
    return { text, bytes: new TextEncoder().encode(text).length };
  }
  const stat = await vscode.workspace.fs.stat(uri);
  if ((stat.type & vscode.FileType.Directory) !== 0) throw new MentionError(t('{0} is a folder.', relativePath(uri)));
  if (stat.size > maxBytes) throw new MentionError(tooLarge(relativePath(uri), formatBytes(stat.size), formatBytes(maxBytes)));
  const bytes = await vscode.workspace.fs.readFile(uri);
  if (looksBinary(bytes)) throw new MentionError(t('{0} is not a text file.', relativePath(uri)));
  return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
}

function mentionTooLarge(path: string, size: string, limit: string): string {
  return t('{0} is {1}, over the {2} a mention takes: mention a symbol or select a range and use Ask About Selection.', path, size, limit);
}

/** A whole file, or lines of it (1-based, inclusive); a symbol's lines are labelled with its name. */
export async function fileMention(
  uri: vscode.Uri,
  kind: MentionKind = 'file',
  lines?: { startLine: number; endLine: number; symbol?: string },
): Promise<Mention> {
  const { text, bytes } = await readDocumentText(uri);
  if (bytes > MAX_FILE_BYTES && !lines) {
    throw new MentionError(t('{0} is {1}, over the {2} a mention takes.', relativePath(uri), formatBytes(bytes), formatBytes(MAX_FILE_BYTES)));
  }
  const path = relativePath(uri);
  if (!lines) return withTokens({ kind, uri: uri.toString(), content: text }, () => ({ label: path, detail: formatBytes(bytes) }));
  const all = text.split(/\r?\n/);
  const endLine = Math.min(lines.endLine, all.length);
  const content = all.slice(lines.startLine - 1, endLine).join('\n');
  const location = locationLabel(path, lines.startLine, endLine);
  return withTokens({ kind, uri: uri.toString(), startLine: lines.startLine, endLine, content }, (t) => ({
    label: lines.symbol === undefined ? location : `${lines.symbol} (${location})`,
    detail: lineCount(endLine - lines.startLine + 1, t),
  }));
}

/** A folder: the list of its files (their text is not included; the model can ask for a file with its tools). */
export function folderMention(uri: vscode.Uri, files: readonly string[], folderPath: string): Mention {
  const prefix = folderPath ? `${folderPath}/` : '';
  const listed = files.slice(0, MAX_LISTED_FILES).map((file) => file.slice(prefix.length));
  const more = files.length > listed.length ? `\n… and ${files.length - listed.length} more` : '';
  return withTokens({ kind: 'folder', uri: uri.toString(), content: `Files in ${relativePath(uri)}/:\n${listed.join('\n')}${more}` }, (t) => ({
    label: `${relativePath(uri)}/`,
    detail: fileCount(files.length, t),
  }));
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
