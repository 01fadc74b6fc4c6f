import * as z from 'zod/mini';
import { t } from '../l10n';
import { lazy } from '../lazy';

/** The longest video Promptreel asks for; models accept less (often 5 or 10), and the service says so. */
export const MAX_VIDEO_SECONDS = 60;
export const MAX_VIDEO_SEED = 4_294_967_295;

/** `seconds` as settings, arguments and requests give it: a whole number 1–60, as a string or a number; always a string after. */
export const videoSecondsSchema = lazy(() =>
  z.pipe(
    z.union([z.string().check(z.trim(), z.regex(/^\d+$/, { error: () => t('a whole number of seconds') })), z.int()]),
    z.pipe(
      z.transform((value: string | number) => Number(value)),
      z.pipe(
        z
          .int()
          .check(z.gte(1, { error: () => t('at least 1 second') }), z.lte(MAX_VIDEO_SECONDS, { error: () => t('at most {0} seconds', MAX_VIDEO_SECONDS) })),
        z.transform(String),
      ),
    ),
  ),
);

export const videoSeedSchema = lazy(() => z.int().check(z.gte(0), z.lte(MAX_VIDEO_SEED)));
