import type { ReviewSources } from './createVideoFlow';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { videoModelLimits, type VideoModelLimits } from './core/videoModelLimits';
import { toCreateRequest, type VideoOptions } from './core/videoOptions';
import type { StoredCreateRequest } from './core/videoTaskRecord';

/**
 * What a video model takes, from the settings and the one model list (never asked for on its own: a list that cannot
 * be read leaves the settings).
 */
export async function limitsOf(settings: Settings, connection: Connection, model: string): Promise<VideoModelLimits> {
  const listed = await connection.catalog.allModels().catch(() => []);
  return videoModelLimits(
    settings.capabilities(model),
    listed.find((entry) => entry.id === model),
  );
}

/** The models that take an image as the first frame: the listed ones, and those only the settings name. */
export async function firstFrameModels(settings: Settings, connection: Connection): Promise<string[]> {
  const listed = await connection.catalog.allModels().catch(() => []);
  const ids = [...new Set([...listed.map((entry) => entry.id), ...Object.keys(settings.get('models.capabilities'))])];
  return ids.filter(
    (id) =>
      videoModelLimits(
        settings.capabilities(id),
        listed.find((entry) => entry.id === id),
      ).firstFrame,
  );
}

/** The requests a review's choices send: one task by default, or each variant. */
export type RequestsFor = (prompt: string, options: VideoOptions) => StoredCreateRequest[];

/**
 * What every review step (Generate Video, variants, recipes, Animate Image) asks the service through; its quote is the
 * charge gate's, of exactly what would be sent. `fromFolder`: choices the open folder made besides its settings (a
 * workspace recipe's model), named in the confirmation.
 */
export function reviewSources(
  settings: Settings,
  connection: Connection,
  requestsFor: RequestsFor = (prompt, options) => [toCreateRequest(prompt, options)],
  fromFolder: readonly string[] = [],
): ReviewSources {
  return {
    listModels: () => connection.catalog.allModels(),
    priceOf: (model) => connection.prices.priceOf(model),
    quote: async (prompt, options) => (await connection.videoCharges()).quote(requestsFor(prompt, options), fromFolder),
    limits: (model) => limitsOf(settings, connection, model),
  };
}
