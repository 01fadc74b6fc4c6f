import * as z from 'zod/mini';
import { invalidRequest } from '../invalidRequest';
import { t } from '../l10n';
import type { VideoCreateRequest } from './task';

/** The longest video Promptreel asks for; models accept less (often 5 or 10), and the service says so. */
export const MAX_VIDEO_SECONDS = 60;
export const MAX_VIDEO_SEED = 4_294_967_295;

/** `seconds` as settings, arguments and requests give it: a whole number 1–60, as a string or a number; always a string after. */
export const videoSecondsSchema = z.pipe(
  z.union([z.string().check(z.trim(), z.regex(/^\d+$/, { error: () => t('a whole number of seconds') })), z.int()]),
  z.pipe(
    z.transform((value: string | number) => Number(value)),
    z.pipe(
      z.int().check(z.gte(1, { error: () => t('at least 1 second') }), z.lte(MAX_VIDEO_SECONDS, { error: () => t('at most {0} seconds', MAX_VIDEO_SECONDS) })),
      z.transform(String),
    ),
  ),
);

export const videoSeedSchema = z.int().check(z.gte(0), z.lte(MAX_VIDEO_SEED));

const videoRequestSchema = z.object({
  model: z.string().check(z.trim(), z.minLength(1, { error: () => t('a video model is required') })),
  prompt: z.string().check(z.trim(), z.minLength(1, { error: () => t('a prompt is required') })),
  seconds: z.optional(videoSecondsSchema),
  moderator: z.optional(z.boolean()),
  metadata: z.optional(
    z.object({
      resolution: z.optional(z.string().check(z.minLength(1))),
      ratio: z.optional(z.string().check(z.minLength(1))),
      generate_audio: z.optional(z.boolean()),
      watermark: z.optional(z.boolean()),
      seed: z.optional(videoSeedSchema),
    }),
  ),
});

/**
 * The one check of a video request, made by the client before anything is sent (and charged), whichever command,
 * chat or tool made it: a task created from an impossible request costs money and fails later.
 */
export function validateVideoCreateRequest(request: VideoCreateRequest): VideoCreateRequest {
  const result = videoRequestSchema.safeParse(request.seconds === '' ? { ...request, seconds: undefined } : request);
  if (result.success) return result.data;
  throw invalidRequest(
    t('video request'),
    result.error.issues,
    (param) =>
      param === 'seconds'
        ? t('Set promptreel.video.seconds to a whole number from 1 to {0}.', MAX_VIDEO_SECONDS)
        : t('Fix the value of "{0}".', param ?? t('the request')),
    t('Nothing was sent.'),
  );
}
