import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { showMessage } from '../../workbench/showMessage';
import { FILMS_FOLDER } from './core/storyboard';
import { readFilm } from './filmFiles';

/** A storyboard file a command was given: a URI (the explorer's menu), or its text (a command link). */
export function storyboardArgument(argument: unknown): vscode.Uri | undefined {
  if (argument instanceof vscode.Uri) return argument;
  if (typeof argument === 'string' && argument.trim()) return /^[a-z][\w+.-]+:/i.test(argument) ? vscode.Uri.parse(argument, true) : vscode.Uri.file(argument);
  return undefined;
}

/**
 * The film a command without an argument acts on, picked from the workspace's storyboards (`made`: only the films
 * already made of their shots); undefined when the user picks none, or there is none (after saying so).
 */
export async function pickFilm(made: boolean): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles(`${FILMS_FOLDER}/*.json`, `${FILMS_FOLDER}/*.playlist.json`, 200);
  const items: (vscode.QuickPickItem & { file: vscode.Uri })[] = [];
  for (const file of files) {
    const read = await readFilm(file);
    if (!read.ok || (made && !read.storyboard.output)) continue;
    const { name, shots } = read.storyboard;
    items.push({ label: name, description: vscode.workspace.asRelativePath(file, false), detail: t('{0} shots', shots.length), file });
  }
  if (items.length === 0) {
    showMessage(
      'info',
      made
        ? t('No film in this workspace is made yet: shoot one in its storyboard editor first.')
        : t('This workspace has no storyboard yet: select some code and run Generate Explainer Film from Selection.'),
    );
    return undefined;
  }
  items.sort((a, b) => a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: made ? t('The film to play') : t('The storyboard to open') });
  return picked?.file;
}
