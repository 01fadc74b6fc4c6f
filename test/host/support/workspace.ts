import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';

/** A path in the workspace folder the host tests open (the runner's sample workspace, scripts/vscode/profile.js). */
export function workspaceUri(...segments: string[]): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  assert.ok(folder, 'the host tests run with a workspace folder');
  return vscode.Uri.joinPath(folder, ...segments);
}

/** Writes a file into the workspace folder (through VS Code's file system) and returns its URI. */
export async function writeWorkspaceFile(relative: string, content: Uint8Array | string): Promise<vscode.Uri> {
  const uri = workspaceUri(...relative.split('/'));
  await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  return uri;
}

/** Reverts and closes every editor: an untitled or changed document would otherwise ask whether to save it. */
export async function closeAllEditors(): Promise<void> {
  for (let i = 0; i < 50 && vscode.window.tabGroups.all.some((group) => group.tabs.length > 0); i++) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    if (!vscode.window.tabGroups.activeTabGroup.activeTab) await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
}
