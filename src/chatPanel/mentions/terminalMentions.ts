import * as vscode from 'vscode';
import type { Mention } from '../core/model';
import { plural, stripAnsi } from './core/mentionFormat';
import { withTokens } from './fileMentions';
import { MentionError } from './mentionError';
import type { TerminalOutputRecorder } from './terminalOutput';

/** Newer VS Code versions give a terminal's selection directly; older ones only through the clipboard. */
function selectionProperty(terminal: vscode.Terminal): string | undefined {
  const selection: unknown = (terminal as { selection?: unknown }).selection;
  return typeof selection === 'string' ? selection : undefined;
}

/** The selected text of the active terminal, read with "Copy Selection", the clipboard put back as it was. */
export async function terminalSelection(): Promise<string | undefined> {
  const terminal = vscode.window.activeTerminal;
  if (!terminal) return undefined;
  const direct = selectionProperty(terminal);
  if (direct !== undefined) return direct || undefined;
  const saved = await vscode.env.clipboard.readText();
  const marker = `promptreel-no-selection-${Math.random().toString(36).slice(2)}`;
  await vscode.env.clipboard.writeText(marker);
  try {
    await vscode.commands.executeCommand('workbench.action.terminal.copySelection');
    const copied = await vscode.env.clipboard.readText();
    return copied && copied !== marker ? copied : undefined;
  } finally {
    await vscode.env.clipboard.writeText(saved);
  }
}

export async function terminalSelectionMention(): Promise<Mention> {
  const text = await terminalSelection();
  if (!text) throw new MentionError('Nothing is selected in the terminal: select some of its text first.');
  const name = vscode.window.activeTerminal?.name ?? 'terminal';
  return withTokens({
    kind: 'terminalSelection',
    label: `Terminal selection (${name})`,
    detail: plural(text.split('\n').length, 'line'),
    content: stripAnsi(text),
  });
}

export async function terminalOutputMention(recorder: TerminalOutputRecorder): Promise<Mention> {
  const last = await recorder.settledLastCommand();
  if (!last) {
    throw new MentionError(
      "No command output was recorded: run a command in a terminal with shell integration (VS Code's default for bash, zsh, fish and PowerShell).",
    );
  }
  const output = stripAnsi(last.output).trimEnd();
  const status = last.exitCode === undefined ? 'still running' : `exit code ${last.exitCode}`;
  const cut = last.truncated ? '(the start of the output is cut)\n' : '';
  return withTokens({
    kind: 'terminalOutput',
    label: `Terminal: ${last.commandLine || 'last command'}`,
    detail: `${status}, ${plural(output ? output.split('\n').length : 0, 'line')}`,
    content: `$ ${last.commandLine}\n${cut}${output}`,
  });
}
