import * as vscode from 'vscode';
import type { ComponentLogger } from '../common/logger';
import { describeError } from '../common/logger';
import type { ContextItem } from './core/contextItem';

// What a chat turn is about, as every `@promptreel` command reads it: the active editor's selection and the references
// the user attached (`#file`, `#selection`, dragged files).

export type { ContextItem };

/** Files bigger than this are not read whole as a reference (a range of them still is). */
const MAX_REFERENCE_BYTES = 512 * 1024;

/** The selection of the active editor, when something is selected. */
export function editorSelection(editor: vscode.TextEditor | undefined = vscode.window.activeTextEditor): ContextItem | undefined {
  if (!editor || editor.selection.isEmpty) return undefined;
  const text = editor.document.getText(editor.selection);
  if (!text.trim()) return undefined;
  return {
    label: locationLabel(editor.document.uri, editor.selection),
    languageId: editor.document.languageId,
    text,
    source: sourceOf(editor.document.uri, editor.selection),
  };
}

/**
 * The references the user attached (`#file`, `#selection`, dragged files…) as text. Unreadable ones are
 * skipped with a log line: the answer goes on with what could be read.
 */
export async function referencedContext(references: readonly vscode.ChatPromptReference[], log: ComponentLogger): Promise<ContextItem[]> {
  const items: ContextItem[] = [];
  // VS Code lists references last-in-prompt first; the model reads them in the user's order.
  log.debug(`References: ${references.map((reference) => `${reference.id}${reference.range ? '' : ' (implicit)'}`).join(', ') || 'none'}.`);
  for (const reference of [...references].reverse()) {
    try {
      const item = await readReference(reference);
      if (item) items.push(item);
    } catch (error) {
      log.warn(`Could not read the reference ${reference.id}: ${describeError(error)}`);
    }
  }
  return items;
}

async function readReference(reference: vscode.ChatPromptReference): Promise<ContextItem | undefined> {
  const value = reference.value;
  if (value instanceof vscode.Location) {
    const document = await vscode.workspace.openTextDocument(value.uri);
    return {
      label: locationLabel(value.uri, value.range),
      languageId: document.languageId,
      text: document.getText(value.range),
      source: sourceOf(value.uri, value.range),
    };
  }
  if (value instanceof vscode.Uri) {
    const stat = await vscode.workspace.fs.stat(value);
    if (stat.type & vscode.FileType.Directory) return undefined;
    if (stat.size > MAX_REFERENCE_BYTES) return { label: relativeLabel(value), text: `(a file of ${stat.size} bytes: too big to include)` };
    const document = await vscode.workspace.openTextDocument(value);
    return { label: relativeLabel(value), languageId: document.languageId, text: document.getText(), source: { uri: value.toString() } };
  }
  // Text VS Code attaches on its own (no range in the prompt, e.g. its index of chat customizations) is meant
  // for its own agent; text the user referenced in the prompt is context.
  if (typeof value === 'string' && value.trim() && reference.range) {
    return { label: reference.modelDescription ?? reference.id, text: value };
  }
  return undefined;
}

function sourceOf(uri: vscode.Uri, range: vscode.Range): ContextItem['source'] {
  return { uri: uri.toString(), lines: { start: range.start.line, end: range.end.line } };
}

function relativeLabel(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

function locationLabel(uri: vscode.Uri, range: vscode.Range): string {
  const start = range.start.line + 1;
  // A selection ending at column 0 does not include that line.
  const endLine = range.end.character === 0 && range.end.line > range.start.line ? range.end.line : range.end.line + 1;
  return `${relativeLabel(uri)}:${start === endLine ? start : `${start}-${endLine}`}`;
}
