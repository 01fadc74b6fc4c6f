import { randomUUID } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { SaveError } from '../api/video/savedFile';
import type { DownloadProgress } from '../api/video/download';
import type { ServiceClient } from '../api/serviceClient';
import { t } from '../api/l10n';
import { describeError } from '../common/logger';
import { displayLocation, fileNameOf } from './downloadedFile';

export interface Transfer {
  uri: vscode.Uri;
  bytes: number;
  source: 'url' | 'content';
}

export interface TransferOptions {
  signal: AbortSignal;
  /** The user chose this exact file (a save dialog that asked about replacing it). */
  replaceExisting: boolean;
  onProgress(progress: DownloadProgress): void;
}

/**
 * Saves a task's video at `target`. On this machine's disk (a local folder, or the remote machine's when Promptreel
 * runs in a remote extension host) it streams straight into a reserved file. On another file system (a virtual
 * workspace) it streams into a temporary file here, then VS Code copies it in (streamed where that file system
 * supports it) under a free name, and the temporary file goes.
 */
export async function transferVideo(
  client: ServiceClient,
  task: { id: string; videoUrl?: string },
  target: vscode.Uri,
  options: TransferOptions,
): Promise<Transfer> {
  const source = { id: task.id, ...(task.videoUrl ? { videoUrl: task.videoUrl } : {}) };
  if (target.scheme === 'file') {
    const saved = await client.downloadVideo(source, target.fsPath, options);
    return { uri: vscode.Uri.file(saved.path), bytes: saved.bytes, source: saved.source };
  }
  const temporary = vscode.Uri.file(path.join(os.tmpdir(), `promptreel-${randomUUID()}.mp4`));
  try {
    const saved = await client.downloadVideo(source, temporary.fsPath, { ...options, replaceExisting: true });
    const uri = await copyIn(temporary, target, options.replaceExisting);
    return { uri, bytes: saved.bytes, source: saved.source };
  } finally {
    await Promise.resolve(vscode.workspace.fs.delete(temporary)).catch(() => undefined);
  }
}

/** Copies `from` to `target`, or to the next free `-2`, `-3` name when it is taken (nothing is overwritten unless asked). */
async function copyIn(from: vscode.Uri, target: vscode.Uri, replaceExisting: boolean): Promise<vscode.Uri> {
  const folder = vscode.Uri.joinPath(target, '..');
  const name = fileNameOf(target);
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  try {
    await vscode.workspace.fs.createDirectory(folder);
    for (let counter = 1; counter < 10_000; counter++) {
      const candidate = counter === 1 ? target : vscode.Uri.joinPath(folder, `${stem}-${counter}${extension}`);
      if (!replaceExisting && (await exists(candidate))) continue;
      try {
        await vscode.workspace.fs.copy(from, candidate, { overwrite: replaceExisting });
        return candidate;
      } catch (error) {
        // Taken meanwhile (another window's download): try the next name.
        if (error instanceof vscode.FileSystemError && error.code === 'FileExists' && !replaceExisting) continue;
        throw error;
      }
    }
  } catch (error) {
    throw new SaveError(
      t('Saving the video in {0} failed: {1}', displayLocation(folder), describeError(error)),
      t('Check that the folder can be written to (or set promptreel.video.downloadFolder), then retry.'),
      undefined,
      { cause: error },
    );
  }
  throw new SaveError(
    t('There is no free file name for {0} in {1}.', name, displayLocation(folder)),
    t('Remove old videos from the folder, then retry.'),
    'EEXIST',
  );
}

async function exists(uri: vscode.Uri): Promise<boolean> {
  return Promise.resolve(vscode.workspace.fs.stat(uri)).then(
    () => true,
    () => false,
  );
}
