import { CommandIds } from '../common/contributions';
import type { ComponentLogger } from '../common/logger';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import type { CommandHandler } from '../workbench/registerCommands';
import { animateImage } from './animateImage';
import type { VideoGallery } from './gallery/videoGallery';
import type { VideoOptions } from './core/videoOptions';
import { RecipeFlow } from './recipeFlow';
import { VariantsFlow } from './variantsFlow';
import type { CreateOutcome, VideoCreator } from './videoCreator';

export interface StudioDeps {
  settings: Settings;
  connection: Connection;
  creator: VideoCreator;
  /** Generate Video's review step and its one task. */
  review: (prompt: string, options: VideoOptions, fromFolder?: readonly string[]) => Promise<CreateOutcome | undefined>;
  gallery: VideoGallery;
  log: ComponentLogger;
}

/** The commands of the video studio: variants, recipes, Animate Image, the gallery. Each returns its outcome (tests read it). */
export class StudioCommands {
  readonly variants: VariantsFlow;
  readonly recipes: RecipeFlow;
  /** The handler of each command id (videoSurfaces.ts registers the ids at activation). */
  readonly handlers: Readonly<Record<string, CommandHandler>>;

  constructor(deps: StudioDeps) {
    this.variants = new VariantsFlow(deps);
    this.recipes = new RecipeFlow(deps);
    this.handlers = {
      [CommandIds.video.generateVariants]: (arg?: unknown) => this.variants.run(arg),
      [CommandIds.video.generateFromRecipe]: () => this.recipes.run(),
      [CommandIds.video.animateImage]: (arg?: unknown) => animateImage(deps, arg),
      [CommandIds.video.openGallery]: () => deps.gallery.open(),
    };
  }
}
