import * as vscode from 'vscode';
import { VideoTool } from '../../../src/video/videoTool';
import { recordMessages, type MessageRecorder, type RecordedMessage } from '../support/recordMessages';
import { testApi } from './videoTestSupport';

/** The button of Promptreel's own confirmation of a tool call (where VS Code may skip its own). */
export const ACCEPT_TOOL_CALL = 'Generate Video';

/** A video tool as the extension makes it, with VS Code said to show (or not) its confirmation before every call. */
export async function videoToolWhere(vscodeAlwaysConfirms: boolean): Promise<VideoTool> {
  const flows = await (await testApi()).video.flows.get();
  return new VideoTool({ ...flows.filmDeps, vscodeAlwaysConfirms: () => vscodeAlwaysConfirms });
}

/** Records the messages shown, accepting Promptreel's confirmation of a tool call (or declining it). */
export function answerToolConfirmations(accept: boolean): MessageRecorder {
  return recordMessages((shown) => (accept && shown.items.includes(ACCEPT_TOOL_CALL) ? ACCEPT_TOOL_CALL : undefined));
}

/** Promptreel's confirmations of tool calls among the messages shown. */
export function toolConfirmations(shown: readonly RecordedMessage[]): RecordedMessage[] {
  return shown.filter((message) => message.items.includes(ACCEPT_TOOL_CALL));
}

/** Whether this VS Code declares `chat.tools.eligibleForAutoApproval`: from 1.106 on (its policy's minimumVersion). */
export function vscodeDeclaresEligibleForAutoApproval(): boolean {
  const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
  return major > 1 || minor >= 106;
}
