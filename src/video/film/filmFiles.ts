import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { FILMS_FOLDER, filmFileStem, parseStoryboardFile, storyboardJson, type Storyboard } from './core/storyboard';
import { filmFileNames } from './core/storyboardEdits';

// A film's storyboard in its workspace folder (`.promptreel/films/<stem>.json`), through VS Code's file system.

/** Writes a new film's storyboard under a name no file has yet; the file's location. */
export async function writeNewFilm(folder: vscode.Uri, storyboard: Storyboard): Promise<vscode.Uri> {
  const films = vscode.Uri.joinPath(folder, ...FILMS_FOLDER.split('/'));
  await vscode.workspace.fs.createDirectory(films);
  for (const name of filmFileNames(filmFileStem(storyboard.name))) {
    const file = vscode.Uri.joinPath(films, name);
    if (await exists(file)) continue;
    await saveFilm(file, storyboard);
    return file;
  }
  throw new Error(t('Every name for the film "{0}" is taken in {1}.', storyboard.name, FILMS_FOLDER));
}

export async function saveFilm(file: vscode.Uri, storyboard: Storyboard): Promise<void> {
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(storyboardJson(storyboard)));
}

export type FilmRead = { ok: true; storyboard: Storyboard } | { ok: false; problems: string[] };

export async function readFilm(file: vscode.Uri): Promise<FilmRead> {
  let bytes: Uint8Array;
  try {
    bytes = await vscode.workspace.fs.readFile(file);
  } catch (error) {
    return { ok: false, problems: [error instanceof Error ? error.message : String(error)] };
  }
  return parseStoryboardFile(new TextDecoder().decode(bytes));
}

async function exists(file: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(file);
    return true;
  } catch {
    return false;
  }
}
