import * as z from 'zod/mini';
import { REASONING_EFFORTS } from '../api/chat/reasoningEffort';
import type { ChatOverrides } from './chatRequestBuilder';
import type { ReasoningChoice } from './reasoning';

/** The `modelOptions` a caller of VS Code's `sendRequest` may pass; anything else in them is ignored. */
const modelOptionsSchema = z.catch(
  z.object({
    temperature: z.catch(z.optional(z.number().check(z.gte(0), z.lte(2))), undefined),
    top_p: z.catch(z.optional(z.number().check(z.gte(0), z.lte(1))), undefined),
    frequency_penalty: z.catch(z.optional(z.number().check(z.gte(-2), z.lte(2))), undefined),
    presence_penalty: z.catch(z.optional(z.number().check(z.gte(-2), z.lte(2))), undefined),
    max_tokens: z.catch(z.optional(z.int().check(z.positive())), undefined),
    reasoning_effort: z.catch(z.optional(z.enum(REASONING_EFFORTS)), undefined),
    reasoningEffort: z.catch(z.optional(z.enum(REASONING_EFFORTS)), undefined),
    thinking: z.catch(z.optional(z.boolean()), undefined),
  }),
  {},
);

/** The reasoning a caller asked for in `modelOptions` (`reasoningEffort` or `reasoning_effort`, `thinking`). */
export function reasoningChoiceOf(modelOptions: unknown): ReasoningChoice {
  const options = modelOptionsSchema.parse(modelOptions ?? {});
  const effort = options.reasoningEffort ?? options.reasoning_effort;
  return { ...(effort ? { effort } : {}), ...(options.thinking !== undefined ? { thinking: options.thinking } : {}) };
}

/**
 * What a caller of `sendRequest` chose over the settings: its `modelOptions` (sampling, `max_tokens`, reasoning),
 * over the choices of VS Code's model picker (`modelConfiguration`, newer VS Code).
 */
export function chatOverridesOf(modelOptions: unknown, modelConfiguration?: unknown): ChatOverrides {
  const options = modelOptionsSchema.parse(modelOptions ?? {});
  const reasoning = { ...reasoningChoiceOf(modelConfiguration), ...reasoningChoiceOf(modelOptions) };
  return {
    ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    ...(options.top_p !== undefined ? { topP: options.top_p } : {}),
    ...(options.frequency_penalty !== undefined ? { frequencyPenalty: options.frequency_penalty } : {}),
    ...(options.presence_penalty !== undefined ? { presencePenalty: options.presence_penalty } : {}),
    ...(options.max_tokens !== undefined ? { maxTokens: options.max_tokens } : {}),
    ...(reasoning.effort !== undefined || reasoning.thinking !== undefined ? { reasoning } : {}),
  };
}
