import * as vscode from 'vscode';

export interface MessageAction {
  title: string;
  command: string;
  args?: unknown[];
}

export type MessageSeverity = 'info' | 'warning' | 'error';

/**
 * Shows a non-modal message with action buttons and runs the command of the button clicked.
 * It does not wait for the click: the command that reported the problem can finish (and return its result).
 */
export function offerActions(severity: MessageSeverity, message: string, actions: readonly MessageAction[] = []): void {
  const titles = actions.map((action) => action.title);
  const shown =
    severity === 'info'
      ? vscode.window.showInformationMessage(message, ...titles)
      : severity === 'warning'
        ? vscode.window.showWarningMessage(message, ...titles)
        : vscode.window.showErrorMessage(message, ...titles);
  void Promise.resolve(shown).then((picked) => {
    const action = actions.find((candidate) => candidate.title === picked);
    if (action) return vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    return undefined;
  }, () => undefined);
}
