import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The film clips a task's file can be (scenario `video.clips`), in test/service/fixtures/film, made by
 * scripts/make-film-fixtures.sh: `shot-a`, `shot-b`, `shot-c` have the same settings (they join by remuxing),
 * `shot-portrait` and `shot-high` differ from them (fixtures/README.md).
 */
export const FILM_CLIPS = ['shot-a', 'shot-b', 'shot-c', 'shot-portrait', 'shot-high'] as const;
export type FilmClip = (typeof FILM_CLIPS)[number];

/** Where a clip is, from out/test/service (compiled) or test/service (run from the sources). */
export function filmClipPath(clip: FilmClip): string {
  const candidates = [
    path.join(__dirname, 'fixtures', 'film', `${clip}.mp4`),
    path.resolve(__dirname, '..', '..', '..', 'test', 'service', 'fixtures', 'film', `${clip}.mp4`),
  ];
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error(`${clip}.mp4 not found (looked in ${candidates.join(', ')})`);
  return found;
}

const clips = new Map<FilmClip, Buffer>();

export function filmClipBytes(clip: FilmClip): Buffer {
  let bytes = clips.get(clip);
  if (!bytes) {
    bytes = fs.readFileSync(filmClipPath(clip));
    clips.set(clip, bytes);
  }
  return bytes;
}
