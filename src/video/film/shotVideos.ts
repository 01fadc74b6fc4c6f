import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { VideoTaskStore } from '../core/taskStore';
import type { FirstFrame } from '../core/videoTaskRecord';
import { savedFile } from '../downloadedFile';
import type { VideoDownloader } from '../videoDownloader';

// The shots' videos a film needs (to take a last frame, to be joined): downloaded whatever
// promptreel.video.autoDownload says, once per task whoever waits; and where a shot's last frame is kept.

export class ShotVideos {
  /** The downloads this started, by task. */
  private readonly downloads = new Map<string, Promise<vscode.Uri | undefined>>();

  constructor(
    private readonly store: VideoTaskStore,
    private readonly downloader: VideoDownloader,
  ) {}

  /** The shot's downloaded video, waiting until its task is made and downloading it; rejects when it failed. */
  videoOf(taskId: string, shot: number, signal: AbortSignal): Promise<vscode.Uri> {
    return new Promise<vscode.Uri>((resolve, reject) => {
      let settled = false;
      const finish = (result: vscode.Uri | Error) => {
        if (settled) return;
        settled = true;
        listener.dispose();
        signal.removeEventListener('abort', aborted);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
      const aborted = () => finish(new Error(t('Shooting was stopped.')));
      const check = async () => {
        const task = this.store.get(taskId);
        if (!task) return finish(new Error(t('The task of shot {0} is no longer in the list.', shot)));
        if (task.state === 'failed' || task.state === 'unconfirmed' || task.state === 'stale')
          return finish(new Error(t('shot {0} failed: {1}', shot, task.error ?? t('the service gave no reason'))));
        if (task.state !== 'completed') return;
        const file = await this.download(taskId);
        if (file) finish(file);
        else if (!this.store.get(taskId)?.downloadedUri) finish(new Error(t('The video of shot {0} could not be downloaded.', shot)));
      };
      const listener = this.store.onDidChange(() => void check());
      signal.addEventListener('abort', aborted);
      if (signal.aborted) aborted();
      void check();
    });
  }

  /** A completed shot's video: its downloaded file, downloaded now when it is not (whatever promptreel.video.autoDownload says). */
  download(id: string): Promise<vscode.Uri | undefined> {
    const running = this.downloads.get(id);
    if (running) return running;
    const started = (async () => {
      const task = this.store.get(id);
      if (!task || task.state !== 'completed') return undefined;
      const saved = await savedFile(task);
      if (saved) return saved;
      const outcome = await this.downloader.download(id, { automatic: true });
      return outcome.kind === 'saved' ? outcome.uri : undefined;
    })().finally(() => this.downloads.delete(id));
    this.downloads.set(id, started);
    return started;
  }
}

/**
 * Saves the last frame of a shot's video beside the storyboard (`<stem>.frames/<task>/<shot>.png`), as the next shot's
 * first frame. One folder per task: a shot made again has a new last frame, and the tasks made from the old one still
 * name the frame they were made from (Regenerate reads it).
 */
export async function saveFrame(film: vscode.Uri, shot: { id: string; taskId: string }, png: Uint8Array): Promise<FirstFrame> {
  const stem = film.path.slice(film.path.lastIndexOf('/') + 1).replace(/\.json$/, '');
  const folder = vscode.Uri.joinPath(film, '..', `${stem}.frames`, shot.taskId.replace(/[^\w.-]/g, '_'));
  await vscode.workspace.fs.createDirectory(folder);
  const fileName = `${shot.id}.png`;
  const saved = vscode.Uri.joinPath(folder, fileName);
  await vscode.workspace.fs.writeFile(saved, png);
  return { uri: saved.toString(), fileName, contentType: 'image/png' };
}
