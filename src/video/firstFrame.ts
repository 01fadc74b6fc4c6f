import * as vscode from 'vscode';
import { firstFrameType } from '../api/video/inputReference';
import type { VideoInputReference } from '../api/video/task';
import { t } from '../api/l10n';
import type { FirstFrame } from './core/videoTaskRecord';

/** The image extensions a first frame can have (the open dialog's filter and the explorer menu's `when`). */
export const FIRST_FRAME_EXTENSIONS = ['png', 'jpg', 'jpeg', 'webp'];

/** A first frame from an image file, or undefined when the file is not a PNG, JPEG or WebP image. */
export function firstFrameOf(uri: vscode.Uri): FirstFrame | undefined {
  const fileName = uri.path.slice(uri.path.lastIndexOf('/') + 1);
  const contentType = firstFrameType(fileName);
  return contentType ? { uri: uri.toString(), fileName, contentType } : undefined;
}

/** Asks for the image a video starts from (in the workspace by default). */
export async function pickFirstFrame(title: string): Promise<FirstFrame | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    openLabel: t('Use as First Frame'),
    canSelectMany: false,
    canSelectFolders: false,
    filters: { [t('Images')]: FIRST_FRAME_EXTENSIONS },
    ...(vscode.workspace.workspaceFolders?.[0] ? { defaultUri: vscode.workspace.workspaceFolders[0].uri } : {}),
  });
  return picked?.[0] ? firstFrameOf(picked[0]) : undefined;
}

/** The image's bytes, read through VS Code's file system when the task is sent (remote and virtual workspaces too). */
export async function readFirstFrame(frame: FirstFrame): Promise<VideoInputReference> {
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.parse(frame.uri));
    return { bytes, fileName: frame.fileName, contentType: frame.contentType };
  } catch (error) {
    throw new Error(t('The first frame {0} cannot be read ({1}); nothing was sent.', frame.fileName, error instanceof Error ? error.message : String(error)));
  }
}
