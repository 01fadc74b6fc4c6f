import * as vscode from 'vscode';
import { relativePath } from '../mentions/fileMentions';
import { relativeSegments } from './core/workspacePath';

export interface WorkspaceLocation {
  uri: vscode.Uri;
  /** The workspace folder's index. */
  root: number;
  /** Relative to that folder, `/`-separated; empty for the folder itself. */
  relative: string;
  /** As the user reads it (with the folder's name in a multi-root workspace). */
  label: string;
}

/**
 * Where a path the model gave is: relative to the workspace folder (in a multi-root workspace, a first segment that
 * names a folder picks it), or absolute inside one. Anything outside the workspace is refused with the reason.
 */
export function resolveWorkspacePath(path: string): WorkspaceLocation | string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) return 'No folder is open in VS Code: there are no workspace files to read.';
  const outside = `${path} is outside the workspace: only its files can be read.`;
  const trimmed = path.trim();
  if (/^(\/|[A-Za-z]:[\\/])/.test(trimmed)) {
    const segments = relativeSegments(trimmed.replace(/^[A-Za-z]:/, ''));
    if (!segments) return outside;
    const drive = /^[A-Za-z]:/.exec(trimmed)?.[0];
    const uri = folders[0]!.uri.with({ path: `${drive ? `/${drive}` : ''}/${segments.join('/')}` });
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return outside;
    const relative = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
    return { uri, root: folder.index, relative, label: relative ? relativePath(uri) : folder.name };
  }
  const segments = relativeSegments(trimmed);
  if (!segments) return outside;
  const named = folders.length > 1 ? folders.find((folder) => folder.name === segments[0]) : undefined;
  const folder = named ?? folders[0]!;
  const rest = named ? segments.slice(1) : segments;
  const uri = rest.length ? vscode.Uri.joinPath(folder.uri, ...rest) : folder.uri;
  return { uri, root: folder.index, relative: rest.join('/'), label: rest.length ? relativePath(uri) : folder.name };
}
