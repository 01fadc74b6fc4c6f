import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { registerCommands } from '../workbench/registerCommands';

/** `Open Settings` (all Promptreel settings, or one given by id) and `Show Logs`. */
export class GeneralCommands extends Disposable {
  constructor(extensionId: string, output: vscode.OutputChannel) {
    super();
    this._register(
      registerCommands({
        [CommandIds.openSettings]: (setting?: unknown) =>
          vscode.commands.executeCommand(
            'workbench.action.openSettings',
            typeof setting === 'string' && setting.startsWith('promptreel.') ? setting : `@ext:${extensionId}`,
          ),
        [CommandIds.showLogs]: () => output.show(true),
      }),
    );
  }
}
