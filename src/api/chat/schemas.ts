import { z } from 'zod';

const usageSchema = z.object({
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  total_tokens: z.number().optional(),
});

const toolCallFragmentSchema = z.object({
  index: z.number().int().optional(),
  id: z.string().nullish(),
  type: z.string().nullish(),
  function: z.object({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
});

export const streamErrorSchema = z.object({
  message: z.string().optional(),
  type: z.string().nullish(),
  param: z.string().nullish(),
  code: z.union([z.string(), z.number()]).nullish(),
});

/** Only the fields the client reads: unknown fields are ignored, never rejected. */
export const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        index: z.number().optional(),
        delta: z
          .object({
            role: z.string().nullish(),
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z.array(toolCallFragmentSchema).nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: usageSchema.nullish(),
  error: z.union([streamErrorSchema, z.string()]).nullish(),
});

export type ChatChunk = z.infer<typeof chunkSchema>;

export const completionSchema = z.object({
  id: z.string().optional(),
  model: z.string().optional(),
  choices: z
    .array(
      z.object({
        message: z
          .object({
            role: z.string().optional(),
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
            tool_calls: z
              .array(z.object({ id: z.string().nullish(), function: z.object({ name: z.string(), arguments: z.string().nullish() }) }))
              .nullish(),
          })
          .nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .min(1),
  usage: usageSchema.nullish(),
});

export function toUsage(usage: z.infer<typeof usageSchema>): { promptTokens: number; completionTokens: number; totalTokens: number } {
  const promptTokens = usage.prompt_tokens ?? 0;
  const completionTokens = usage.completion_tokens ?? 0;
  return { promptTokens, completionTokens, totalTokens: usage.total_tokens ?? promptTokens + completionTokens };
}
