import * as vscode from 'vscode';

export interface ActionButton {
  title: string;
  run: () => unknown;
}

export type Severity = 'info' | 'warning' | 'error';

/** What was shown, for the caller to return (tests read it instead of scraping notifications). */
export interface ShownMessage {
  severity: Severity;
  message: string;
  actions: string[];
}

/**
 * A non-modal message whose buttons run callbacks. Not awaited: the command that reported the problem returns at
 * once, and the button runs whenever the user clicks it.
 */
export function showActions(severity: Severity, message: string, actions: readonly ActionButton[] = []): ShownMessage {
  const titles = actions.map((action) => action.title);
  const show = severity === 'info' ? vscode.window.showInformationMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showErrorMessage;
  void Promise.resolve(show(message, ...titles)).then(
    (picked) => actions.find((action) => action.title === picked)?.run(),
    () => undefined,
  );
  return { severity, message, actions: titles };
}
