import * as z from 'zod/mini';
import { invalidRequest } from '../invalidRequest';
import { t } from '../l10n';
import type { VideoCreateRequest } from './task';
import { MAX_VIDEO_SECONDS, videoSecondsSchema, videoSeedSchema } from './requestFields';

export { MAX_VIDEO_SECONDS, MAX_VIDEO_SEED, videoSecondsSchema, videoSeedSchema } from './requestFields';

const videoRequestSchema = z.object({
  model: z.string().check(z.trim(), z.minLength(1, { error: () => t('a video model is required') })),
  prompt: z.string().check(z.trim(), z.minLength(1, { error: () => t('a prompt is required') })),
  seconds: z.optional(videoSecondsSchema()),
  moderator: z.optional(z.boolean()),
  metadata: z.optional(
    z.object({
      resolution: z.optional(z.string().check(z.minLength(1))),
      ratio: z.optional(z.string().check(z.minLength(1))),
      generate_audio: z.optional(z.boolean()),
      watermark: z.optional(z.boolean()),
      seed: z.optional(videoSeedSchema()),
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
