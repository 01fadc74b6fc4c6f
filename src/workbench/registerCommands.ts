import * as vscode from 'vscode';

/** A command's handler; VS Code passes whatever the caller gave (the handler validates what it uses). */
export type CommandHandler = (...args: never[]) => unknown;

/** Registers each command id with its handler; disposing the result unregisters them all. */
export function registerCommands(handlers: Readonly<Record<string, CommandHandler>>): vscode.Disposable {
  return vscode.Disposable.from(...Object.entries(handlers).map(([id, handler]) => vscode.commands.registerCommand(id, handler)));
}
