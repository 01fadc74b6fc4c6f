import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { Mention } from '../core/model';
import { lineCount, listText, stripAnsi } from './core/mentionFormat';
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
  if (!text) throw new MentionError(t('Nothing is selected in the terminal: select some of its text first.'));
  const name = vscode.window.activeTerminal?.name;
  return withTokens({ kind: 'terminalSelection', content: stripAnsi(text) }, (t) => ({
    label: t('Terminal selection ({0})', name ?? t('terminal')),
    detail: lineCount(text.split('\n').length, t),
  }));
}

export async function terminalOutputMention(recorder: TerminalOutputRecorder): Promise<Mention> {
  const last = await recorder.settledLastCommand();
  if (!last) {
    throw new MentionError(
      t("No command output was recorded: run a command in a terminal with shell integration (VS Code's default for bash, zsh, fish and PowerShell)."),
    );
  }
  const output = stripAnsi(last.output).trimEnd();
  const cut = last.truncated ? '(the start of the output is cut)\n' : '';
  return withTokens({ kind: 'terminalOutput', content: `$ ${last.commandLine}\n${cut}${output}` }, (t) => ({
    label: last.commandLine ? t('Terminal: {0}', last.commandLine) : t('Terminal: last command'),
    detail: listText(
      [last.exitCode === undefined ? t('still running') : t('exit code {0}', last.exitCode), lineCount(output ? output.split('\n').length : 0, t)],
      t,
    ),
  }));
}
