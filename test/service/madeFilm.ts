import * as fs from 'node:fs';
import * as path from 'node:path';
import { bytesReader, bytesWriter, joinFilm } from '../../src/video/film/core/filmJoin';
import { filmPlaylist, playlistJson } from '../../src/video/film/core/filmPlaylist';
import { newStoryboard, storyboardJson, type FilmOutput } from '../../src/video/film/core/storyboard';
import { filmClipBytes, type FilmClip } from './filmClips';

/** A film's `.promptreel/films/` folder, relative to the workspace folder. */
export const FILMS_PATH = '.promptreel/films';

export interface MadeFilmShot {
  clip: FilmClip;
  caption: string;
}

/**
 * The files of a film as the assembly leaves them once its shots are downloaded, made of the local service's film
 * clips (without shooting): the storyboard with its `output`, and the joined `<stem>.mp4` with `<stem>.vtt` when the
 * clips join, else `<stem>.shots/<id>.mp4`, `<stem>.playlist.json` and the `.vtt`. Paths relative to the films folder.
 */
export async function madeFilmFiles(
  stem: string,
  name: string,
  shots: readonly MadeFilmShot[],
): Promise<{ files: Map<string, Uint8Array>; output: FilmOutput }> {
  const target = bytesWriter();
  const { plan } = await joinFilm(
    shots.map((shot) => ({ source: bytesReader(filmClipBytes(shot.clip)), caption: shot.caption })),
    async () => target,
  );
  const files = new Map<string, Uint8Array>();
  const text = (value: string) => new TextEncoder().encode(value);
  const captions = `${stem}.vtt`;
  files.set(captions, text(plan.vtt));
  let output: FilmOutput;
  const ids = shots.map((_shot, index) => `s${index + 1}`);
  if (plan.joinable) {
    files.set(`${stem}.mp4`, target.bytes());
    output = { video: `${stem}.mp4`, captions };
  } else {
    const names = ids.map((id) => `${stem}.shots/${id}.mp4`);
    shots.forEach((shot, index) => files.set(names[index], filmClipBytes(shot.clip)));
    files.set(`${stem}.playlist.json`, text(playlistJson(filmPlaylist(name, plan, names, captions))));
    output = { playlist: `${stem}.playlist.json`, reason: plan.reason, captions };
  }
  const storyboard = newStoryboard(
    { title: name, shots: shots.map((shot) => ({ prompt: `A picture for: ${shot.caption}`, caption: shot.caption, seconds: 1 })) },
    { model: 'promptreel-video', settings: {}, source: { file: 'src/sample.ts', startLine: 1, endLine: 4, language: 'typescript' }, created: new Date(0) },
  );
  files.set(`${stem}.json`, text(storyboardJson({ ...storyboard, output })));
  return { files, output };
}

/** Writes a made film (`madeFilmFiles`) into the films folder of the workspace folder at `workspace` (a path on disk). */
export async function writeMadeFilm(workspace: string, stem: string, name: string, shots: readonly MadeFilmShot[]): Promise<void> {
  const { files } = await madeFilmFiles(stem, name, shots);
  for (const [file, bytes] of files) {
    const target = path.join(workspace, ...FILMS_PATH.split('/'), ...file.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
}
