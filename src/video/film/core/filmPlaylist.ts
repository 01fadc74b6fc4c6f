import * as z from 'zod/mini';
import { t } from '../../../api/l10n';
import '../../../api/zodLocale';
import type { FilmPlan } from './filmJoin';

// When the shots cannot be joined without re-encoding, the film is its shots played in order: a playlist beside them
// (`<name>.playlist.json`) that Promptreel's player reads, with each shot's caption and place in the film, the
// captions' `.vtt` (one timeline, the shots one after the other) and why there is no single file. The same playlist
// as M3U (`playlistM3u`) plays in VLC, mpv and other players.

export const PLAYLIST_VERSION = 1;

/** A path relative to the playlist's folder that stays inside it: no absolute path, no `..`, no backslash. */
const relativeFile = z.string().check(
  z.minLength(1),
  z.refine((path) => !/^([A-Za-z]:|[/\\])/.test(path) && !path.includes('\\') && !path.split('/').some((part) => part === '..' || part === ''), {
    error: () => t('a file beside the playlist (a relative path without "..")'),
  }),
);

export const filmPlaylistSchema = z.object({
  version: z.literal(PLAYLIST_VERSION),
  name: z.string().check(z.minLength(1)),
  /** Why the shots are not one file, in the user's words. */
  reason: z.string(),
  /** The captions' WebVTT file (the film's timeline), relative to the playlist. */
  captions: z.optional(relativeFile),
  shots: z
    .array(
      z.object({
        file: relativeFile,
        /** Seconds from the start of the film. */
        start: z.number().check(z.gte(0)),
        seconds: z.number().check(z.gte(0)),
        caption: z.string(),
      }),
    )
    .check(z.minLength(1)),
});
export type FilmPlaylist = z.infer<typeof filmPlaylistSchema>;

/** The playlist of a plan's shots: `files` are the shots' files relative to the playlist, in the film's order. */
export function filmPlaylist(
  name: string,
  plan: Pick<FilmPlan, 'shots' | 'cues'> & { reason?: string },
  files: readonly string[],
  captionsFile?: string,
): FilmPlaylist {
  if (files.length !== plan.shots.length) throw new RangeError('One file per shot.');
  return {
    version: PLAYLIST_VERSION,
    name,
    reason: plan.reason ?? '',
    ...(captionsFile ? { captions: captionsFile } : {}),
    shots: plan.shots.map((shot, index) => ({ file: files[index], start: shot.start, seconds: shot.seconds, caption: plan.cues[index]?.text ?? '' })),
  };
}

export function playlistJson(playlist: FilmPlaylist): string {
  return `${JSON.stringify(playlist, null, 2)}\n`;
}

export type PlaylistParse = { ok: true; playlist: FilmPlaylist } | { ok: false; problem: string };

/** A playlist file's text, checked (the player opens only files beside it). */
export function parseFilmPlaylist(content: string): PlaylistParse {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch (error) {
    return { ok: false, problem: t('The playlist is not JSON ({0}).', error instanceof Error ? error.message : String(error)) };
  }
  const parsed = filmPlaylistSchema.safeParse(raw);
  if (parsed.success) return { ok: true, playlist: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, problem: t('The playlist is not valid: {0}: {1}.', issue?.path.map(String).join('.') || t('the playlist'), issue?.message ?? '') };
}

/** The playlist as extended M3U: each shot with its length and caption, for players other than Promptreel's. */
export function playlistM3u(playlist: FilmPlaylist): string {
  const lines = ['#EXTM3U', `#PLAYLIST:${oneLine(playlist.name)}`];
  for (const shot of playlist.shots) lines.push(`#EXTINF:${Math.round(shot.seconds * 1000) / 1000},${oneLine(shot.caption)}`, encodeURI(shot.file));
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
