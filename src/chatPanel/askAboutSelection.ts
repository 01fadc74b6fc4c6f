import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { showMessage } from '../workbench/showMessage';
import type { ComponentLogger } from '../common/logger';
import type { ChatViewProvider } from './webview/chatViewProvider';
import type { ChatSession } from './webview/chatSession';
import type { ChatController } from './core/chatController';
import { quickActionPrompt } from './core/contextPrompt';
import { quickActionSchema, type QuickAction } from './core/model';
import { selectionContext, toContextDiagnostic } from './selectionContext';

/** Arguments a code action passes; from the palette, the menu or the keybinding there are none (the active editor is used). */
export interface AskArguments {
  uri: vscode.Uri;
  range: vscode.Range;
  /** Sends at once with this quick action instead of waiting for the user's prompt. */
  action?: QuickAction;
  /** The diagnostic the "Explain this error" quick fix was offered for. */
  diagnostic?: vscode.Diagnostic;
}

export interface AskResult {
  host: ChatSession;
  conversationId: string;
}

/** `Promptreel: Ask About Selection`: shows the Chat view with the selection (file, language, line range, diagnostics)
 * next to the prompt box and the quick actions; code actions offer it (see askAboutSelectionActions.ts). */
export class AskAboutSelection {
  constructor(
    private readonly view: ChatViewProvider,
    private readonly controller: ChatController,
    private readonly log: ComponentLogger,
  ) {}

  async run(args?: unknown): Promise<AskResult | undefined> {
    const target = await this.target(args);
    if (!target) {
      showMessage('info', t('Select some code in an editor to ask Promptreel about it.'));
      return undefined;
    }
    const { document, range, action, diagnostic } = target;
    const context = selectionContext(document, range);
    if (diagnostic && !context.diagnostics.some((entry) => entry.message === diagnostic.message)) context.diagnostics.unshift(toContextDiagnostic(diagnostic));
    this.log.info(
      `Ask about ${context.relativePath}:${context.startLine}-${context.endLine} (${context.diagnostics.length} diagnostic(s)${action ? `, ${action}` : ''}).`,
    );
    const host = await this.view.reveal();
    const conversationId = host.conversationId;
    if (action) {
      // A quick fix says what to do: send at once, in a fresh conversation when the current one is busy.
      const id = this.controller.isBusy(conversationId) ? host.newConversation() : conversationId;
      void this.controller.send(id, { text: quickActionPrompt(action, context), context });
      return { host, conversationId: id };
    }
    host.setContext(context, { focus: true });
    return { host, conversationId };
  }

  private async target(
    args: unknown,
  ): Promise<{ document: vscode.TextDocument; range: vscode.Range; action?: QuickAction; diagnostic?: vscode.Diagnostic } | undefined> {
    if (isAskArguments(args)) {
      const document = await vscode.workspace.openTextDocument(args.uri);
      const action = args.action !== undefined && quickActionSchema.safeParse(args.action).success ? args.action : undefined;
      return { document, range: args.range, ...(action ? { action } : {}), ...(args.diagnostic ? { diagnostic: args.diagnostic } : {}) };
    }
    const editor = vscode.window.activeTextEditor;
    if (!editor) return undefined;
    return { document: editor.document, range: editor.selection };
  }
}

function isAskArguments(value: unknown): value is AskArguments {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<AskArguments>;
  return candidate.uri instanceof vscode.Uri && candidate.range instanceof vscode.Range;
}
