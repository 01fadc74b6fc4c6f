import type { ModelInfo } from '../../api/models';
import type { ModelCapabilities } from '../../config/schema';
import { t } from '../../api/l10n';

/** What Promptreel knows a video model takes: from `promptreel.models.capabilities`, and the model list where it says. */
export interface VideoModelLimits {
  /** The durations (seconds) the model offers; undefined when not declared (any is sent). */
  durations?: readonly number[];
  /** The longest prompt, in characters. */
  maxPromptLength?: number;
  /** The model takes an image as the first frame (`input_reference`). */
  firstFrame: boolean;
}

/**
 * The settings win; without them, a `/v1/models` entry whose `input_modalities` lists images declares a first frame.
 * A model neither declares never sees the image option.
 */
export function videoModelLimits(declared: ModelCapabilities | undefined, listed: ModelInfo | undefined): VideoModelLimits {
  const durations = declared?.durations && declared.durations.length > 0 ? [...new Set(declared.durations)].sort((a, b) => a - b) : undefined;
  return {
    ...(durations ? { durations } : {}),
    ...(declared?.maxPromptLength !== undefined ? { maxPromptLength: declared.maxPromptLength } : {}),
    firstFrame: declared?.firstFrame ?? listed?.limits?.vision === true,
  };
}

/** `5 or 10 seconds`, `5, 8 or 10 seconds`. */
export function describeDurations(durations: readonly number[]): string {
  if (durations.length > 1) return t('{0} or {1} seconds', durations.slice(0, -1).join(', '), String(durations.at(-1)));
  return durations[0] === 1 ? t('1 second') : t('{0} seconds', String(durations[0]));
}
