import * as z from 'zod/mini';

/**
 * The arguments of Rewrite Selection: an instruction, and for a retry the text to redo even though what was written
 * meanwhile replaced the selection. z.object drops unknown keys (classic zod's .strip()).
 */
export const rewriteArgsSchema = z.object({
  instruction: z.optional(z.string().check(z.trim(), z.minLength(1))),
  retry: z.optional(
    z.object({
      uri: z.string(),
      start: z.int().check(z.gte(0)),
      end: z.int().check(z.gte(0)),
      /** The text expected at [start, end): if it changed, the retry works on the current selection instead. */
      expected: z.string(),
      /** The text to rewrite (the original selection). */
      original: z.string(),
    }),
  ),
});
export type RewriteArgs = z.infer<typeof rewriteArgsSchema>;
