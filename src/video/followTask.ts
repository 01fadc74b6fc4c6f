import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { isFinished, shortenPrompt } from './core/taskModel';
import type { VideoTaskStore } from './core/taskStore';
import type { VideoTaskRecord } from './core/videoTaskRecord';

/** The agent gets an answer within this time even when the task keeps running (the user still sees it finish). */
const FOLLOW_AT_MOST_MS = 30 * 60 * 1000;

/**
 * Waits, with a notification showing the task's status and progress, until the poller finds the task final. The
 * notification's Cancel, the caller's token or the time limit stop the waiting, never the task. Resolves with the
 * task as last known.
 */
export function followTask(store: VideoTaskStore, id: string, prompt: string, token: vscode.CancellationToken): Thenable<VideoTaskRecord | undefined> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: t('Video "{0}"', shortenPrompt(prompt, 40)), cancellable: true },
    (progress, shown) =>
      new Promise<VideoTaskRecord | undefined>((resolve) => {
        let reported = 0;
        const subscriptions: vscode.Disposable[] = [];
        const timer = setTimeout(() => finish(), FOLLOW_AT_MOST_MS);
        const finish = () => {
          clearTimeout(timer);
          subscriptions.forEach((subscription) => subscription.dispose());
          resolve(store.get(id));
        };
        const check = () => {
          const task = store.get(id);
          if (!task || isFinished(task) || task.state === 'stale') return finish();
          const percent = task.progress ?? 0;
          progress.report({ message: `${task.rawStatus}${task.progress !== undefined ? ` · ${percent}%` : ''}`, increment: Math.max(0, percent - reported) });
          reported = Math.max(reported, percent);
        };
        subscriptions.push(store.onDidChange(check), token.onCancellationRequested(finish), shown.onCancellationRequested(finish));
        check();
      }),
  );
}
