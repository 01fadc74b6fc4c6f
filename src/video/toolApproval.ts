import * as vscode from 'vscode';

/** The video tool's id in `chat.tools.eligibleForAutoApproval` (package.json's configurationDefaults). */
const VIDEO_TOOL_APPROVAL_ID = 'promptreel.promptreel/promptreelVideo';

/**
 * Whether this VS Code honours `chat.tools.eligibleForAutoApproval` (1.106 and later), so it shows the video tool's
 * confirmation before every call. Known by its effect, not by version: only a VS Code that declares the setting
 * applies package.json's default for it.
 */
export function vscodeAlwaysConfirmsVideoTool(): boolean {
  const setting = vscode.workspace.getConfiguration('chat.tools').inspect<Record<string, unknown>>('eligibleForAutoApproval');
  return setting?.defaultValue?.[VIDEO_TOOL_APPROVAL_ID] === false;
}
