import * as z from 'zod/mini';

// The video player's page and its host (PlayerHost): the page says where playback is (checked here with zod; the
// page imports only the types), the host tells it what to play and when.

/** Page → host: `ready` asks for the video; `playback` says where playback is (the host logs it; tests wait for it). */
export const playerToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('playback'),
    state: z.enum(['loadedmetadata', 'canplay', 'playing', 'pause', 'ended', 'timeupdate', 'error', 'blocked', 'cuechange', 'captions-error']),
    currentTime: z.number(),
    duration: z.number(),
    width: z.int(),
    height: z.int(),
    error: z.optional(z.string().check(z.maxLength(2000))),
    /** A film's shot playing now (0-based), when the film is a playlist of shots. */
    shot: z.optional(z.int().check(z.gte(0))),
    /** The captions on screen now (the text of the shown track's active cues), when the video has captions. */
    caption: z.optional(z.string().check(z.maxLength(4000))),
  }),
]);
export type PlayerToHost = z.infer<typeof playerToHostSchema>;
export type PlaybackReport = Extract<PlayerToHost, { type: 'playback' }>;

/** A WebVTT file the page shows as the video's captions (`<track kind="captions" default>`). */
export interface PlayerCaptions {
  src: string;
  label: string;
}

/** One shot of a film that is a playlist: its file, and its caption while it plays. */
export interface PlayerShot {
  src: string;
  caption: string;
}

/**
 * Host → page: the video to show (`file`: the URI the page saves for a window reload; `film`: it is a film's storyboard),
 * a film's shots to play in order, and playback commands.
 */
export type HostToPlayer =
  | { type: 'load'; src: string; title: string; file: string; film?: true; captions?: PlayerCaptions }
  | { type: 'playlist'; title: string; file: string; shots: PlayerShot[]; captionsLabel: string }
  | { type: 'play'; muted: boolean }
  | { type: 'pause' };

/** What the page saves (`setState`) for a window reload to bring the player back: the file's URI, and whether it is a film's storyboard. */
export const playerStateSchema = z.object({ file: z.string().check(z.minLength(1)), film: z.optional(z.boolean()) });
export type PlayerState = z.infer<typeof playerStateSchema>;
