import * as vscode from 'vscode';

/** How many video tasks are running; the Video feature implements it, the status bar shows it. */
export interface RunningVideoTasks {
  readonly runningCount: number;
  readonly onDidChangeRunningCount: vscode.Event<void>;
}

/** Until the Video feature exists: nothing runs. */
export const noRunningVideoTasks: RunningVideoTasks = {
  runningCount: 0,
  onDidChangeRunningCount: () => ({ dispose() {} }),
};
