import * as vscode from 'vscode';
import type { ServiceClient } from '../api/serviceClient';
import { CommandIds } from '../common/contributions';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { t } from '../api/l10n';
import { ensureReadyToCharge } from '../workbench/readiness';
import { showMessage } from '../workbench/showMessage';
import type { ExplainerModel } from './core/explainerPrompt';

/** The code an explainer (video or film) is made of: the active editor's selection. */
export interface SelectedCode {
  document: vscode.TextDocument;
  selection: vscode.Selection;
  code: string;
  /** The file as the workspace names it. */
  fileName: string;
  /** `file:first-last`, for progress titles. */
  lines: string;
}

/** The selected code, or undefined after `noSelection` is shown. */
export function selectedCode(noSelection: string): SelectedCode | undefined {
  const selected = activeSelection();
  if (!selected) showMessage('info', noSelection);
  return selected;
}

/** The active editor's selection, when it holds some code. */
export function activeSelection(): SelectedCode | undefined {
  const editor = vscode.window.activeTextEditor;
  const selection = editor?.selection;
  const code = editor && selection && !selection.isEmpty ? editor.document.getText(selection) : '';
  if (!editor || !selection || !code.trim()) return undefined;
  const fileName = vscode.workspace.asRelativePath(editor.document.uri, false);
  return { document: editor.document, selection, code, fileName, lines: `${fileName}:${selection.start.line + 1}-${selection.end.line + 1}` };
}

/**
 * The client and chat model that write from the code, once the service is ready to charge for `purpose`:
 * 'not-ready' when it is not (readiness has said why), undefined when the service lists no chat model (after
 * `noChatModel`, with Select Chat Model).
 */
export async function explainerWriter(
  connection: Connection,
  settings: Settings,
  purpose: string,
  noChatModel: string,
): Promise<{ client: ServiceClient; model: ExplainerModel } | 'not-ready' | undefined> {
  const client = await ensureReadyToCharge(connection, purpose);
  if (!client) return 'not-ready';
  const chatModel = await connection.chatModel.resolve();
  if (!chatModel) {
    showMessage('warning', noChatModel, [{ title: t('Select Chat Model'), run: () => vscode.commands.executeCommand(CommandIds.selectChatModel) }]);
    return undefined;
  }
  return { client, model: explainerModel(connection, settings, chatModel) };
}

/** The chat model that writes an explainer, with what the chat-request layer needs to shape its request. */
export function explainerModel(connection: Connection, settings: Settings, chatModel: string): ExplainerModel {
  return { model: chatModel, settings: settings.chat, capabilities: connection.catalog.capabilitiesOf(chatModel) };
}
