import * as z from 'zod/mini';
import { lazy } from '../../api/lazy';

/** What a `@promptreel` result remembers (VS Code keeps it as JSON in `ChatResult.metadata`). */
export const resultMetadataSchema = lazy(() =>
  z.object({
    /** `video-confirm`: `/video` showed the price and waits for the user to confirm (a follow-up asks again). */
    /** `film`: `/film` drafted a storyboard (`storyboard`: its file's URI). */
    kind: z.enum(['answer', 'explain', 'video', 'video-confirm', 'film', 'setup', 'error', 'cancelled']),
    model: z.optional(z.string()),
    /** The video prompt (for "make another one"). */
    prompt: z.optional(z.string()),
    taskId: z.optional(z.string()),
    videoState: z.optional(z.string()),
    /** The price shown by `video-confirm` (`$0.40`). */
    price: z.optional(z.string()),
    /** The charge gate's quote shown by `video-confirm`: its follow-up confirms that quote, once. */
    quoteId: z.optional(z.string()),
    storyboard: z.optional(z.string()),
  }),
);
export type ResultMetadata = z.infer<ReturnType<typeof resultMetadataSchema>>;
