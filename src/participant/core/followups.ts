import * as z from 'zod/mini';
import { t } from '../../common/l10n';

export const PARTICIPANT_ID = 'promptreel.participant';
export const VIDEO_COMMAND = 'video';
export const EXPLAIN_COMMAND = 'explain';

export type AnswerKind = 'answer' | 'explain' | 'video' | 'video-confirm' | 'setup' | 'error' | 'cancelled';

/** What a `@promptreel` result remembers (VS Code keeps it as JSON in `ChatResult.metadata`). */
export const resultMetadataSchema = z.object({
  /** `video-confirm`: `/video` showed the price and waits for the user to confirm (a follow-up asks again). */
  kind: z.enum(['answer', 'explain', 'video', 'video-confirm', 'setup', 'error', 'cancelled']),
  model: z.optional(z.string()),
  /** The video prompt (for "make another one"). */
  prompt: z.optional(z.string()),
  taskId: z.optional(z.string()),
  videoState: z.optional(z.string()),
  /** The price shown by `video-confirm` (`$0.40`). */
  price: z.optional(z.string()),
  /** The charge gate's quote shown by `video-confirm`: its follow-up confirms that quote, once. */
  quoteId: z.optional(z.string()),
});
export type ResultMetadata = z.infer<typeof resultMetadataSchema>;

/** The shape of `vscode.ChatFollowup`. */
export interface Followup {
  prompt: string;
  label: string;
  command?: string;
}

/**
 * Follow-ups offered after a result; nothing after a failure, a cancelled request or a setup hint. The labels are in
 * VS Code's language; the prompts stay English (the model reads them).
 */
export function followupsFor(metadata: unknown): Followup[] {
  const parsed = resultMetadataSchema.safeParse(metadata);
  if (!parsed.success) return [];
  const result = parsed.data;
  switch (result.kind) {
    case 'answer':
      return [
        { prompt: 'Explain that in more detail, with an example.', label: t('Tell me more') },
        { prompt: 'Summarize that in three bullet points.', label: t('Summarize') },
      ];
    case 'explain':
      // A follow-up stays with its command: these ask /explain again, with a focus.
      return [
        { prompt: 'in simpler words, for someone new to this language', label: t('Explain it more simply'), command: EXPLAIN_COMMAND },
        { prompt: 'the edge cases: what could go wrong, and how to guard against it', label: t('What could go wrong?'), command: EXPLAIN_COMMAND },
      ];
    case 'video':
      return result.prompt ? [{ prompt: result.prompt, label: t('Make another video from the same prompt'), command: VIDEO_COMMAND }] : [];
    case 'video-confirm':
      return result.prompt
        ? [{ prompt: result.prompt, label: result.price ? t('Generate for {0}', result.price) : t('Generate it (price not known)'), command: VIDEO_COMMAND }]
        : [];
    default:
      return [];
  }
}
