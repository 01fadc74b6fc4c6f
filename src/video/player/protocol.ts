import * as z from 'zod/mini';

// The video player's page and its host (PlayerHost): the page says where playback is (checked here with zod; the
// page imports only the types), the host tells it what to play and when.

/** Page → host: `ready` asks for the video; `playback` says where playback is (the host logs it; tests wait for it). */
export const playerToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('playback'),
    state: z.enum(['loadedmetadata', 'canplay', 'playing', 'pause', 'ended', 'timeupdate', 'error', 'blocked']),
    currentTime: z.number(),
    duration: z.number(),
    width: z.int(),
    height: z.int(),
    error: z.optional(z.string()),
  }),
]);
export type PlayerToHost = z.infer<typeof playerToHostSchema>;
export type PlaybackReport = Extract<PlayerToHost, { type: 'playback' }>;

/** Host → page: the video to show (`file`: the URI the page saves for a window reload), and playback commands. */
export type HostToPlayer = { type: 'load'; src: string; title: string; file: string } | { type: 'play'; muted: boolean } | { type: 'pause' };

/** What the page saves (`setState`) for a window reload to bring the player back: the file's URI (a path, before). */
export const playerStateSchema = z.object({ file: z.string().check(z.minLength(1)) });
export type PlayerState = z.infer<typeof playerStateSchema>;
