import * as z from 'zod/mini';
import { MAX_VIDEO_SECONDS, MAX_VIDEO_SEED, videoSecondsSchema, videoSeedSchema } from '../../api/video/request';
import type { VideoSettings } from '../../config/settings';
import { t } from '../../api/l10n';
import type { FirstFrame, StoredCreateRequest } from './videoTaskRecord';

/** The fields of one video that the settings give a default for. */
type VideoDefaults = Pick<VideoSettings, 'model' | 'seconds' | 'resolution' | 'ratio' | 'generateAudio' | 'watermark' | 'moderator'>;

/** What the user can change for one video before it is created; starts from the settings. */
export interface VideoOptions extends VideoDefaults {
  /** Undefined: no seed is sent. */
  seed: number | undefined;
  /** An image the video starts from (only for a model that takes one); undefined: none. */
  firstFrame?: FirstFrame;
}

export { RATIOS, RESOLUTIONS } from './videoChoices';
export const MAX_SECONDS = MAX_VIDEO_SECONDS;
export const MAX_SEED = MAX_VIDEO_SEED;

export function defaultOptions(settings: VideoSettings): VideoOptions {
  const { model, seconds, resolution, ratio, generateAudio, watermark, moderator } = settings;
  return { model, seconds, resolution, ratio, generateAudio, watermark, moderator, seed: settings.seed ?? undefined };
}

/** The documented body: `seconds` as a string, `moderator`, and the rest under `metadata`. */
export function toCreateRequest(prompt: string, options: VideoOptions): StoredCreateRequest {
  return {
    model: options.model,
    prompt,
    seconds: options.seconds,
    moderator: options.moderator,
    metadata: {
      resolution: options.resolution,
      ratio: options.ratio,
      generate_audio: options.generateAudio,
      watermark: options.watermark,
      ...(options.seed !== undefined ? { seed: options.seed } : {}),
    },
    ...(options.firstFrame ? { firstFrame: options.firstFrame } : {}),
  };
}

/** Null when valid, else the message for the input box. */
export function secondsProblem(value: string): string | null {
  if (!/^\d+$/.test(value.trim())) return t('Enter a whole number of seconds, e.g. 5.');
  return videoSecondsSchema().safeParse(value).success ? null : t('Enter between 1 and {0} seconds.', MAX_SECONDS);
}

/** Empty means "no seed". */
export function seedProblem(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > MAX_SEED) return t('Enter a whole number from 0 to {0}, or leave it empty for none.', MAX_SEED);
  return null;
}

/**
 * Arguments of `promptreel.generateVideo` when another part of Promptreel, another extension or a task's command
 * input calls it: they prefill the prompt and the review step, which always shows the price before anything is sent
 * (`review` is still accepted, and ignored).
 */
export const generateArgsSchema = z.strictObject({
  prompt: z.optional(z.string().check(z.trim(), z.minLength(1))),
  model: z.optional(z.string().check(z.trim(), z.minLength(1))),
  seconds: z.optional(videoSecondsSchema()),
  resolution: z.optional(z.string().check(z.minLength(1))),
  ratio: z.optional(z.string().check(z.minLength(1))),
  generateAudio: z.optional(z.boolean()),
  watermark: z.optional(z.boolean()),
  seed: z.optional(z.nullable(videoSeedSchema())),
  moderator: z.optional(z.boolean()),
  review: z.optional(z.boolean()),
});
export type GenerateArgs = z.infer<typeof generateArgsSchema>;

export function withOverrides(options: VideoOptions, args: GenerateArgs): VideoOptions {
  return {
    model: args.model ?? options.model,
    seconds: args.seconds ?? options.seconds,
    resolution: args.resolution ?? options.resolution,
    ratio: args.ratio ?? options.ratio,
    generateAudio: args.generateAudio ?? options.generateAudio,
    watermark: args.watermark ?? options.watermark,
    seed: args.seed === null ? undefined : (args.seed ?? options.seed),
    moderator: args.moderator ?? options.moderator,
  };
}

/** The options a stored request was made with (Regenerate). */
export function optionsFromRequest(request: StoredCreateRequest, fallback: VideoOptions): VideoOptions {
  const metadata = request.metadata ?? {};
  return {
    model: request.model,
    seconds: request.seconds ?? fallback.seconds,
    resolution: metadata.resolution ?? fallback.resolution,
    ratio: metadata.ratio ?? fallback.ratio,
    generateAudio: metadata.generate_audio ?? fallback.generateAudio,
    watermark: metadata.watermark ?? fallback.watermark,
    seed: metadata.seed,
    moderator: request.moderator ?? fallback.moderator,
    ...(request.firstFrame ? { firstFrame: request.firstFrame } : {}),
  };
}
