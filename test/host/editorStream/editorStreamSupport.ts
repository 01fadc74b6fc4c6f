import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EditorStreamResult } from '../../../src/editorStream/editorStreamCommands';
import type { RecordedRequest } from '../../service';
import { chatRequests, type ServiceScenario } from '../support/connectedService';
import { setSetting, testApi } from '../support/extension';
import { waitFor } from '../support/waitFor';
import { closeAllEditors } from '../support/workspace';

export { chatRequests, closeAllEditors, setSetting, testApi, waitFor };

/** The editor's scenario: a chat model set; the editors a test opened are closed after it. */
export const EDITOR: ServiceScenario = { settings: { 'chat.model': 'promptreel-chat' }, cleanup: closeAllEditors };

/** An untitled document with the text, shown in the active editor, the cursor (or selection) placed. */
export async function openEditor(content: string, selection: vscode.Selection | vscode.Position, language = 'typescript'): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument({ content, language });
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  editor.selection = selection instanceof vscode.Position ? new vscode.Selection(selection, selection) : selection;
  return editor;
}

export function completeAtCursor(): Thenable<EditorStreamResult> {
  return vscode.commands.executeCommand<EditorStreamResult>('promptreel.completeAtCursor');
}

export function rewriteSelection(args?: unknown): Thenable<EditorStreamResult> {
  return args === undefined
    ? vscode.commands.executeCommand<EditorStreamResult>('promptreel.rewriteSelection')
    : vscode.commands.executeCommand<EditorStreamResult>('promptreel.rewriteSelection', args);
}

/** Focuses the document's editor and runs the real `undo` command once. */
export async function undoOnce(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('undo');
}

type WithProgress = typeof vscode.window.withProgress;

/**
 * Replaces `window.withProgress` so the test holds the notification's cancellation: `cancel()` is what clicking
 * the notification's Cancel button does.
 */
export function controlProgress(): { readonly titles: string[]; readonly reports: string[]; cancel(): void; restore(): void } {
  const window = vscode.window as unknown as { withProgress: WithProgress };
  const original = window.withProgress;
  const titles: string[] = [];
  const reports: string[] = [];
  let source: vscode.CancellationTokenSource | undefined;
  const replacement = <R>(
    options: vscode.ProgressOptions,
    task: (progress: vscode.Progress<{ message?: string; increment?: number }>, token: vscode.CancellationToken) => Thenable<R>,
  ): Thenable<R> => {
    assert.equal(options.cancellable, true, 'the progress notification can be cancelled');
    assert.equal(options.location, vscode.ProgressLocation.Notification);
    titles.push(options.title ?? '');
    source = new vscode.CancellationTokenSource();
    return task({ report: (value) => void reports.push(value.message ?? '') }, source.token);
  };
  window.withProgress = replacement;
  return {
    titles,
    reports,
    cancel: () => {
      assert.ok(source, 'a progress notification is shown');
      source.cancel();
    },
    restore: () => (window.withProgress = original),
  };
}

/**
 * Applies an edit the way another actor would while the stream writes: a workspace edit computed against the
 * current document. VS Code refuses it when the document changed between building and applying it (the stream
 * edited meanwhile), so it is rebuilt and retried, as a user's next keystroke would be.
 */
export async function applyUserEdit(document: vscode.TextDocument, build: (edit: vscode.WorkspaceEdit, document: vscode.TextDocument) => void): Promise<void> {
  // VS Code refuses an edit built on a version of the document that the stream's own edit replaced meanwhile: a busy
  // machine makes that likely, so the edit is tried again, at moments that drift off the stream's frame rhythm.
  const deadline = Date.now() + 10_000;
  for (let attempt = 1; Date.now() < deadline; attempt++) {
    const edit = new vscode.WorkspaceEdit();
    build(edit, document);
    if (await vscode.workspace.applyEdit(edit)) return;
    await new Promise((resolve) => setTimeout(resolve, 3 + ((attempt * 7) % 11)));
  }
  assert.fail('the edit kept being refused for 10 s');
}

/** The text of the last user message of a recorded chat request. */
export function lastUserText(request: RecordedRequest): string {
  const body = request.body as { messages: { role: string; content: unknown }[] };
  const user = [...body.messages].reverse().find((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : '';
}

export { recordMessages } from '../support/recordMessages';
