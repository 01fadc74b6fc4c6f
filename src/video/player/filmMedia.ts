import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { isFile } from '../../workbench/fileExists';
import { parseFilmPlaylist } from '../film/core/filmPlaylist';
import { readFilm } from '../film/filmFiles';

// What the player plays of a made film: the joined MP4 with its captions' `.vtt`, or (when the shots did not join)
// each shot's file in the playlist's order with its caption. Every file is in the storyboard's folder (or below it),
// the one folder the player's page may load from.

export type FilmMedia =
  | { kind: 'joined'; storyboard: vscode.Uri; title: string; video: vscode.Uri; captions?: vscode.Uri }
  | { kind: 'playlist'; storyboard: vscode.Uri; title: string; shots: { file: vscode.Uri; caption: string }[] };

export type FilmMediaRead = { ok: true; media: FilmMedia } | { ok: false; problem: string };

/** The made film of a storyboard file, or why it cannot be played (not made yet, a file gone, a playlist not valid). */
export async function filmMedia(storyboard: vscode.Uri): Promise<FilmMediaRead> {
  const read = await readFilm(storyboard);
  if (!read.ok) return { ok: false, problem: t('The storyboard cannot be opened: {0}', read.problems.join(' ')) };
  const { name, output } = read.storyboard;
  if (!output?.video && !output?.playlist) return { ok: false, problem: t('The film "{0}" is not made yet: shoot it in the storyboard editor first.', name) };
  const folder = vscode.Uri.joinPath(storyboard, '..');
  const beside = (file: string) => (isRelativeInside(file) ? vscode.Uri.joinPath(folder, ...file.split('/')) : undefined);
  const missing = (file: string) => ({ ok: false as const, problem: t('The film "{0}" cannot be played: {1} is missing.', name, file) });
  if (output.video) {
    const video = beside(output.video);
    if (!video || !(await isFile(video))) return missing(output.video);
    const captions = beside(output.captions);
    const hasCaptions = captions !== undefined && (await isFile(captions));
    return { ok: true, media: { kind: 'joined', storyboard, title: name, video, ...(hasCaptions ? { captions } : {}) } };
  }
  const playlistFile = output.playlist ? beside(output.playlist) : undefined;
  if (!playlistFile || !output.playlist) return missing(output.playlist ?? '');
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(playlistFile));
  } catch {
    return missing(output.playlist);
  }
  const parsed = parseFilmPlaylist(text);
  if (!parsed.ok) return { ok: false, problem: parsed.problem };
  const playlistFolder = vscode.Uri.joinPath(playlistFile, '..');
  const shots = [];
  for (const shot of parsed.playlist.shots) {
    // The playlist's schema keeps each file beside it (no absolute path, no `..`).
    const file = vscode.Uri.joinPath(playlistFolder, ...shot.file.split('/'));
    if (!(await isFile(file))) return missing(shot.file);
    shots.push({ file, caption: shot.caption });
  }
  return { ok: true, media: { kind: 'playlist', storyboard, title: name, shots } };
}

/** A name the storyboard records for what was made: a path below its folder (a hand edit could put anything there). */
function isRelativeInside(path: string): boolean {
  return !/^([A-Za-z]:|[/\\])/.test(path) && !path.includes('\\') && !path.split('/').some((part) => part === '..' || part === '' || part === '.');
}
