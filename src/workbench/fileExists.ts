import * as vscode from 'vscode';

/** Whether `file` (a URI of any file system, or a local path) is a file, through VS Code's file system, so remote and virtual workspaces answer too. */
export async function isFile(file: vscode.Uri | string): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(typeof file === 'string' ? vscode.Uri.file(file) : file);
    return (stat.type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}
