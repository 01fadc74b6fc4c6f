import { ensureReady } from '../workbench/readiness';
import { CommandIds } from '../common/contributions';
import * as os from 'node:os';
import type { Connection } from '../connection/connection';
import * as vscode from 'vscode';
import { isApiError } from '../api/errors';
import { t } from '../api/l10n';
import { describeError, type ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import { joinSentences } from '../api/sentences';
import { resolveDownloadFolder, videoFileName } from './core/fileNaming';
import { displayLocation, downloadedFields, fileNameOf } from './downloadedFile';
import { showMessage, type ShownMessage } from '../workbench/showMessage';
import type { VideoTaskStore } from './core/taskStore';

export type DownloadOutcome =
  /** `path`: where it is, as the user reads it (a local path, or the address on another file system). */
  { kind: 'saved'; uri: vscode.Uri; path: string; bytes: number; source: 'url' | 'content' } | { kind: 'cancelled' } | { kind: 'failed'; shown: ShownMessage };

/** A temporary download file nobody wrote to for this long belongs to a window that stopped. */
const STALE_PART_AFTER_MS = 10 * 60 * 1000;

export interface DownloadRequest {
  /** Automatic download on completion: no save dialog, nothing shown when there is nowhere to save. */
  automatic?: boolean;
  /** Where to save (a URI of any file system, or a local path), skipping the folder setting and the dialog. */
  destination?: vscode.Uri | string;
  /** Cancels like the notification's Cancel button. */
  signal?: AbortSignal;
}

/** Download to Workspace: a safe, unique file in the download folder, streamed with a cancellable progress notification. */
export class VideoDownloader {
  private readonly running = new Map<string, Promise<DownloadOutcome>>();

  constructor(
    private readonly settings: Settings,
    private readonly connection: Connection,
    private readonly store: VideoTaskStore,
    private readonly log: ComponentLogger,
    private readonly workspaceFolders: () => readonly vscode.WorkspaceFolder[] | undefined = () => vscode.workspace.workspaceFolders,
  ) {}

  /** One download per task at a time: a second click joins the first. */
  download(id: string, request: DownloadRequest = {}): Promise<DownloadOutcome> {
    const existing = this.running.get(id);
    if (existing) return existing;
    const started = this.run(id, request).finally(() => this.running.delete(id));
    this.running.set(id, started);
    return started;
  }

  private async run(id: string, request: DownloadRequest): Promise<DownloadOutcome> {
    const task = this.store.get(id);
    if (!task || task.state !== 'completed') {
      return { kind: 'failed', shown: showMessage('warning', t('Only a completed video can be downloaded.')) };
    }
    if (task.service !== this.connection.service) {
      // Its address may have expired, and the fallback asks its own service with that service's key.
      const openSettings = { title: t('Open Settings'), run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.baseUrl') };
      return { kind: 'failed', shown: showMessage('warning', elsewhereMessage(task.service, this.connection.service), [openSettings]) };
    }
    const client = await ensureReady(this.connection, t('Downloading a video'));
    if (!client) return { kind: 'cancelled' };
    const name = videoFileName(task.prompt, task.id);
    const target =
      request.destination !== undefined
        ? { uri: typeof request.destination === 'string' ? vscode.Uri.file(request.destination) : request.destination, replaceExisting: false }
        : await this.destinationFor(name, request.automatic === true);
    if ('kind' in target) return target;
    const destination = target.uri;

    // The transfer's code loads with the first download, not with every window.
    const [{ transferVideo }, { SaveError }] = await Promise.all([import('./videoTransfer'), import('../api/video/savedFile')]);
    const controller = new AbortController();
    if (request.signal?.aborted) controller.abort();
    request.signal?.addEventListener('abort', () => controller.abort(), { once: true });
    this.log.info(`Downloading ${task.id} to ${destination.toString(true)}.`);
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: t('Downloading {0}', fileNameOf(destination)), cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          let reported = 0;
          let lastReport = 0;
          return transferVideo(client, task, destination, {
            signal: controller.signal,
            replaceExisting: target.replaceExisting,
            onProgress: ({ received, total }) => {
              const now = Date.now();
              if (now - lastReport < 100 && received !== total) return;
              lastReport = now;
              const percent = total ? Math.floor((received / total) * 100) : undefined;
              progress.report({
                message: total ? t('{0} of {1} ({2}%)', formatBytes(received), formatBytes(total), percent ?? 0) : formatBytes(received),
                ...(percent !== undefined ? { increment: percent - reported } : {}),
              });
              if (percent !== undefined) reported = percent;
            },
          });
        },
      );
      await this.store.update(task.id, (current) => ({ ...current, ...downloadedFields(result.uri), updatedAt: Date.now() }));
      this.log.info(`Saved ${task.id} to ${result.uri.toString(true)} (${result.bytes} bytes, from ${result.source === 'url' ? 'its address' : '/content'}).`);
      showMessage('info', t('Saved {0} ({1}).', displayLocation(result.uri), formatBytes(result.bytes)), [
        { title: t('Open Video'), run: () => vscode.commands.executeCommand(CommandIds.video.open, task.id) },
        { title: t('Reveal in Explorer'), run: () => vscode.commands.executeCommand(CommandIds.video.reveal, task.id) },
      ]);
      const where = result.uri.scheme === 'file' ? result.uri.fsPath : result.uri.toString(true);
      return { kind: 'saved', uri: result.uri, path: where, bytes: result.bytes, source: result.source };
    } catch (error) {
      if (controller.signal.aborted || (isApiError(error) && error.kind === 'aborted')) {
        this.log.info(`Download of ${task.id} cancelled.`);
        return { kind: 'cancelled' };
      }
      this.log.warn(`Downloading ${task.id} failed: ${describeError(error)}`);
      const hint = isApiError(error) || error instanceof SaveError ? error.hint : undefined;
      const folderSetting = {
        title: t('Open Settings'),
        run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.video.downloadFolder'),
      };
      return {
        kind: 'failed',
        shown: showMessage('error', joinSentences(t('Downloading the video failed: {0}', describeError(error)), hint), [
          { title: t('Retry'), run: () => this.download(task.id) },
          ...(error instanceof SaveError ? [folderSetting] : []),
          { title: t('Show Logs'), run: () => vscode.commands.executeCommand(CommandIds.showLogs) },
        ]),
      };
    }
  }

  /**
   * Removes the temporary files (and empty reserved names) a window that stopped mid-download left in the
   * download folder; a download running in another window keeps writing its file, so only untouched ones go.
   */
  async removeStaleDownloads(now = Date.now()): Promise<string[]> {
    const folder = this.workspaceDownloadFolder();
    if (!folder) return [];
    const { removeStaleDownloads } = await import('../api/video/download');
    const removed = await removeStaleDownloads(folder, STALE_PART_AFTER_MS, now);
    if (removed.length > 0) this.log.info(`Removed what an interrupted download left in ${folder}: ${removed.join(', ')}.`);
    return removed;
  }

  /** The download folder on this machine's disk, where an interrupted download may have left its temporary file. */
  private workspaceDownloadFolder(): string | undefined {
    const folder = this.downloadFolder();
    return folder && 'uri' in folder && folder.uri.scheme === 'file' ? folder.uri.fsPath : undefined;
  }

  /** `promptreel.video.downloadFolder` in the first workspace folder, whatever its file system; none without a folder. */
  private downloadFolder(): { uri: vscode.Uri } | { problem: string } | undefined {
    const root = this.workspaceFolders()?.[0];
    if (!root) return undefined;
    const resolved = resolveDownloadFolder(this.settings.video.downloadFolder, root.uri.path);
    if ('problem' in resolved) return resolved;
    return { uri: 'absolute' in resolved ? vscode.Uri.file(resolved.absolute) : root.uri.with({ path: resolved.path }) };
  }

  /**
   * The file in the download folder of the first workspace folder (the download takes it, or the next free `-2`,
   * `-3` name), or the one the user picks in a save dialog (which asked before replacing a file).
   */
  private async destinationFor(name: string, automatic: boolean): Promise<{ uri: vscode.Uri; replaceExisting: boolean } | DownloadOutcome> {
    const folder = this.downloadFolder();
    if (folder && 'problem' in folder) {
      return {
        kind: 'failed',
        shown: showMessage('error', joinSentences(folder.problem, t('Videos are saved inside the workspace (or to an absolute path you set).')), [
          { title: t('Open Settings'), run: () => vscode.commands.executeCommand(CommandIds.openSettings, 'promptreel.video.downloadFolder') },
        ]),
      };
    }
    if (folder) return { uri: vscode.Uri.joinPath(folder.uri, name), replaceExisting: false };
    if (automatic) return { kind: 'cancelled' };
    const picked = await vscode.window.showSaveDialog({
      title: t('Save the video'),
      saveLabel: t('Save Video'),
      defaultUri: vscode.Uri.joinPath(vscode.Uri.file(os.homedir()), name),
      filters: { [t('MP4 video')]: ['mp4'] },
    });
    return picked ? { uri: picked, replaceExisting: true } : { kind: 'cancelled' };
  }
}

/** Why a task of another service is not downloaded here (`there` and `here` differ, so at most one is unknown). */
function elsewhereMessage(there: string | undefined, here: string | undefined): string {
  if (!there)
    return t(
      'This video was made on another service, and this window is set to {0}: it is downloaded only from its own service. Set promptreel.baseUrl to its service to download it.',
      here ?? '',
    );
  if (!here)
    return t(
      'This video was made on {0}, and this window is set to no service: it is downloaded only from its own service. Set promptreel.baseUrl to {0} to download it.',
      there,
    );
  return t(
    'This video was made on {0}, and this window is set to {1}: it is downloaded only from its own service. Set promptreel.baseUrl to {0} to download it.',
    there,
    here,
  );
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
