import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { WorkspacePlace } from '../../workspace/workspaceBoundary';
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

/** What a document's text is read from: a place of the workspace, or an open document that is no file (untitled). */
export type DocumentSource = WorkspacePlace | vscode.TextDocument;

function isPlace(source: DocumentSource): source is WorkspacePlace {
  return 'relative' in source;
}

/** The source's label: its place's, or the untitled document's name. */
export function sourceLabel(source: DocumentSource): string {
  return isPlace(source) ? source.label : relativePath(source.uri);
}

/**
 * The text of a document: what the editor holds when it is open (unsaved changes included), else the file, up to
 * `maxBytes` (a larger file throws `tooLarge`'s words). Throws a MentionError for a folder or a binary file, in the
 * words of `t` (the user's language for a mention; the tools, whose errors the model reads, pass `english`).
 */
export async function readDocumentText(
  source: DocumentSource,
  { maxBytes = MAX_FILE_BYTES, tooLarge = mentionTooLarge, t = userLanguage }: { maxBytes?: number; tooLarge?: TooLarge; t?: Words } = {},
): Promise<{ text: string; bytes: number }> {
  const open = isPlace(source) ? openDocument(source) : source;
  if (open) {
    const text = open.getText();
    return { text, bytes: new TextEncoder().encode(text).length };
  }
  const place = source as WorkspacePlace;
  if (place.isFolder) throw new MentionError(t('{0} is a folder.', place.label));
  const stat = await vscode.workspace.fs.stat(place.uri);
  if ((stat.type & vscode.FileType.Directory) !== 0) throw new MentionError(t('{0} is a folder.', place.label));
  if (stat.size > maxBytes) throw new MentionError(tooLarge(place.label, formatBytes(stat.size), formatBytes(maxBytes)));
  const bytes = await vscode.workspace.fs.readFile(place.uri);
  if (looksBinary(bytes)) throw new MentionError(t('{0} is not a text file.', place.label));
  return { text: new TextDecoder().decode(bytes), bytes: bytes.length };
}

/** The editor's document of a place, by where it is or by the URI it was asked by (a link inside the workspace). */
function openDocument(place: WorkspacePlace): vscode.TextDocument | undefined {
  const names = new Set([place.uri.toString(), place.asked.toString()]);
  return vscode.workspace.textDocuments.find((document) => names.has(document.uri.toString()));
}

function mentionTooLarge(path: string, size: string, limit: string): string {
  return t('{0} is {1}, over the {2} a mention takes: mention a symbol or select a range and use Ask About Selection.', path, size, limit);
}

/** A whole file, or lines of it (1-based, inclusive); a symbol's lines are labelled with its name. */
export async function fileMention(
  source: DocumentSource,
  kind: MentionKind = 'file',
  lines?: { startLine: number; endLine: number; symbol?: string },
): Promise<Mention> {
  const { text, bytes } = await readDocumentText(source);
  const path = sourceLabel(source);
  if (bytes > MAX_FILE_BYTES && !lines) {
    throw new MentionError(t('{0} is {1}, over the {2} a mention takes.', path, formatBytes(bytes), formatBytes(MAX_FILE_BYTES)));
  }
  const uri = source.uri.toString();
  if (!lines) return withTokens({ kind, uri, content: text }, () => ({ label: path, detail: formatBytes(bytes) }));
  const all = text.split(/\r?\n/);
  const endLine = Math.min(lines.endLine, all.length);
  const content = all.slice(lines.startLine - 1, endLine).join('\n');
  const location = locationLabel(path, lines.startLine, endLine);
  return withTokens({ kind, uri, startLine: lines.startLine, endLine, content }, (t) => ({
    label: lines.symbol === undefined ? location : `${lines.symbol} (${location})`,
    detail: lineCount(endLine - lines.startLine + 1, t),
  }));
}

/** A folder: the list of its files below it (their text is not included; the model can ask for a file with its tools). */
export function folderMention(folder: WorkspacePlace, files: readonly string[]): Mention {
  const prefix = folder.relative ? `${folder.relative}/` : '';
  const listed = files.slice(0, MAX_LISTED_FILES).map((file) => (file.startsWith(prefix) ? file.slice(prefix.length) : file));
  const more = files.length > listed.length ? `\n… and ${files.length - listed.length} more` : '';
  return withTokens({ kind: 'folder', uri: folder.uri.toString(), content: `Files in ${folder.label}/:\n${listed.join('\n')}${more}` }, (t) => ({
    label: `${folder.label}/`,
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
