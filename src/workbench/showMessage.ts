import * as vscode from 'vscode';

export type MessageSeverity = 'info' | 'warning' | 'error';

/** A button of a message: it runs a command (with its arguments) or a callback. */
export type MessageAction = { title: string; command: string; args?: unknown[] } | { title: string; run: () => unknown };

/** What was shown, for the caller to return (tests read it instead of scraping notifications). */
export interface ShownMessage {
  severity: MessageSeverity;
  message: string;
  actions: string[];
}

/**
 * Shows a non-modal message with buttons and runs the action of the button clicked. It does not wait for the click:
 * the command that reported the problem returns at once, and the button acts whenever the user clicks it.
 */
export function showMessage(severity: MessageSeverity, message: string, actions: readonly MessageAction[] = []): ShownMessage {
  const titles = actions.map((action) => action.title);
  const show =
    severity === 'info' ? vscode.window.showInformationMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void Promise.resolve(show(message, ...titles)).then(
    (picked) => {
      const action = actions.find((candidate) => candidate.title === picked);
      if (!action) return undefined;
      return 'run' in action ? action.run() : vscode.commands.executeCommand(action.command, ...(action.args ?? []));
    },
    () => undefined,
  );
  return { severity, message, actions: titles };
}
