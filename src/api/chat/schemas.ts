import * as z from 'zod/mini';
import { orUndefined } from '../tolerant';
import type { Usage } from './events';

const usageSchema = z.object({
  prompt_tokens: z.optional(z.number()),
  completion_tokens: z.optional(z.number()),
  total_tokens: z.optional(z.number()),
  /** SERVICE.md, "Account": the prompt tokens served from a cache (billed at `cache_ratio` where one is published). */
  prompt_tokens_details: orUndefined(z.nullish(z.object({ cached_tokens: orUndefined(z.nullish(z.number())) }))),
});

const toolCallFragmentSchema = z.object({
  index: z.optional(z.int()),
  id: z.nullish(z.string()),
  type: z.nullish(z.string()),
  function: z.nullish(z.object({ name: z.nullish(z.string()), arguments: z.nullish(z.string()) })),
});

export const streamErrorSchema = z.object({
  message: z.optional(z.string()),
  type: z.nullish(z.string()),
  param: z.nullish(z.string()),
  code: z.nullish(z.union([z.string(), z.number()])),
});

/** A text field of a delta (`content`, `reasoning_content`, `reasoning`). */
const deltaTextSchema = z.nullish(z.string());

/** Only the fields the client reads: unknown fields are ignored, never rejected. */
export const chunkSchema = z.object({
  choices: z.nullish(
    z.array(
      z.object({
        index: z.optional(z.number()),
        delta: z.nullish(
          z.object({
            role: z.nullish(z.string()),
            content: deltaTextSchema,
            reasoning_content: deltaTextSchema,
            reasoning: deltaTextSchema,
            tool_calls: z.nullish(z.array(toolCallFragmentSchema)),
          }),
        ),
        finish_reason: z.nullish(z.string()),
      }),
    ),
  ),
  usage: z.nullish(usageSchema),
  error: z.nullish(z.union([streamErrorSchema, z.string()])),
});

export type ChatChunk = z.infer<typeof chunkSchema>;

export const completionSchema = z.object({
  id: z.optional(z.string()),
  model: z.optional(z.string()),
  choices: z
    .array(
      z.object({
        message: z.nullish(
          z.object({
            role: z.optional(z.string()),
            content: z.nullish(z.string()),
            reasoning_content: z.nullish(z.string()),
            reasoning: z.nullish(z.string()),
            tool_calls: z.nullish(z.array(z.object({ id: z.nullish(z.string()), function: z.object({ name: z.string(), arguments: z.nullish(z.string()) }) }))),
          }),
        ),
        finish_reason: z.nullish(z.string()),
      }),
    )
    .check(z.minLength(1)),
  usage: z.nullish(usageSchema),
});

export function toUsage(usage: z.infer<typeof usageSchema>): Usage {
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  const cachedTokens = usage.prompt_tokens_details?.cached_tokens;
  return {
    promptTokens,
    completionTokens,
    totalTokens: usage.total_tokens ?? promptTokens + completionTokens,
    ...(cachedTokens ? { cachedTokens } : {}),
  };
}
