import * as vscode from 'vscode';
import { isFile } from '../workbench/fileExists';
import type { VideoTaskRecord } from './core/videoTaskRecord';

// Where a task's video was saved: a URI of any file system (a remote or virtual workspace's too). Tasks saved by
// earlier versions have only a local path.

export function downloadedUri(record: Pick<VideoTaskRecord, 'downloadedUri' | 'downloadedPath'>): vscode.Uri | undefined {
  if (record.downloadedUri) return vscode.Uri.parse(record.downloadedUri, true);
  return record.downloadedPath ? vscode.Uri.file(record.downloadedPath) : undefined;
}

/** The task's downloaded file when it is still there (a file deleted by hand makes the task "completed" again). */
export async function savedFile(record: VideoTaskRecord): Promise<vscode.Uri | undefined> {
  const uri = downloadedUri(record);
  return uri && (await isFile(uri)) ? uri : undefined;
}

/** The record's fields for a file saved at `uri`: the URI, and the local path too for a file on this machine's disk. */
export function downloadedFields(uri: vscode.Uri): Pick<VideoTaskRecord, 'downloadedUri' | 'downloadedPath'> {
  return { downloadedUri: uri.toString(), downloadedPath: uri.scheme === 'file' ? uri.fsPath : undefined };
}

/** As the user reads a saved file's place: relative to the workspace when inside it, else its path or address. */
export function displayLocation(uri: vscode.Uri): string {
  if (vscode.workspace.getWorkspaceFolder(uri)) return vscode.workspace.asRelativePath(uri, false);
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}

/** The file's name, whatever its file system. */
export function fileNameOf(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
