import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { Disposable } from '../common/lifecycle';
import type { Settings } from '../config/settings';
import { showMessage, type ShownMessage } from '../workbench/showMessage';
import { shortenPrompt } from './core/taskModel';
import type { VideoDownloader } from './videoDownloader';
import type { PollerPause, TaskFinished, VideoPoller } from './core/videoPoller';

/**
 * Tells the user when a task ends (only the polling window hears of it, so one notification per task across
 * windows), downloads it first when `promptreel.video.autoDownload` is on, and says when polling pauses for the key.
 */
export class VideoNotifications extends Disposable {
  /** Every message shown, newest last (the test API reads them). */
  readonly shown: ShownMessage[] = [];

  constructor(
    poller: VideoPoller,
    private readonly settings: Settings,
    private readonly downloader: { get(): Promise<VideoDownloader> },
  ) {
    super();
    this._register(poller.onDidFinishTask((event) => void this.finished(event)));
    this._register(poller.onDidChangePause((pause) => this.paused(pause)));
  }

  private async finished({ task, state }: TaskFinished): Promise<void> {
    const prompt = task.prompt && shortenPrompt(task.prompt, 40);
    if (state === 'failed') {
      const reason = task.error ?? t('the service gave no reason');
      const message = prompt ? t('The video "{0}" failed: {1}', prompt, reason) : t('The video {0} failed: {1}', task.id, reason);
      this.record(
        showMessage('error', message, [
          ...(task.request ? [{ title: t('Regenerate'), run: () => vscode.commands.executeCommand(CommandIds.video.regenerate, task.id) }] : []),
          { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
        ]),
      );
      return;
    }
    if (this.settings.video.autoDownload) {
      const outcome = await (await this.downloader.get()).download(task.id, { automatic: true });
      // Saved, or failed with its own message; only "nowhere to save" falls through to the plain notification.
      if (outcome.kind !== 'cancelled') return;
    }
    this.record(
      showMessage('info', prompt ? t('The video "{0}" is ready.', prompt) : t('The video {0} is ready.', task.id), [
        { title: t('Download'), run: () => vscode.commands.executeCommand(CommandIds.video.download, task.id) },
        { title: t('Open'), run: () => vscode.commands.executeCommand(CommandIds.video.open, task.id) },
      ]),
    );
  }

  private paused(pause: PollerPause): void {
    if (pause !== 'auth') return;
    this.record(
      showMessage('warning', t('Checking the video tasks is paused: the service refused the API key.'), [
        { title: t('Set API Key'), run: () => vscode.commands.executeCommand(CommandIds.setApiKey) },
        { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
      ]),
    );
  }

  private record(message: ShownMessage): void {
    this.shown.push(message);
    if (this.shown.length > 50) this.shown.shift();
  }
}
