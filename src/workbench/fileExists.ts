import * as vscode from 'vscode';

/** Whether `file` is a file, through VS Code's file system (so remote and virtual workspaces answer too). */
export async function isFile(file: string): Promise<boolean> {
  try {
    const stat = await vscode.workspace.fs.stat(vscode.Uri.file(file));
    return (stat.type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}
