import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import type { AskArguments } from './askAboutSelection';

/**
 * The code actions that offer Ask About Selection on a selection, and "Explain this error" on diagnostics. VS Code asks
 * for them on every selection change, so this stays out of the chat panel's code, which loads when one is run.
 */
export class AskAboutSelectionActions implements vscode.CodeActionProvider {
  static readonly askKind = vscode.CodeActionKind.RefactorRewrite.append('promptreel');
  static readonly metadata: vscode.CodeActionProviderMetadata = {
    providedCodeActionKinds: [vscode.CodeActionKind.QuickFix, AskAboutSelectionActions.askKind],
  };
  static readonly selector: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }, { scheme: 'vscode-remote' }];

  provideCodeActions(document: vscode.TextDocument, range: vscode.Range | vscode.Selection, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics.slice(0, 3)) {
      const fix = new vscode.CodeAction(t('Explain this error with Promptreel: {0}', shorten(diagnostic.message)), vscode.CodeActionKind.QuickFix);
      fix.diagnostics = [diagnostic];
      const args: AskArguments = { uri: document.uri, range: range.isEmpty ? diagnostic.range : range, action: 'explain', diagnostic };
      fix.command = { command: CommandIds.chat.askAboutSelection, title: t('Explain this error'), arguments: [args] };
      actions.push(fix);
    }
    if (!range.isEmpty) {
      const ask = new vscode.CodeAction(t('Ask Promptreel about the selection'), AskAboutSelectionActions.askKind);
      const args: AskArguments = { uri: document.uri, range };
      ask.command = { command: CommandIds.chat.askAboutSelection, title: t('Ask About Selection'), arguments: [args] };
      actions.push(ask);
    }
    return actions;
  }
}

function shorten(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 60 ? `${line.slice(0, 57)}…` : line;
}
