import * as z from 'zod/mini';
import { orElse, orUndefined } from '../api/tolerant';
import { REASONING_EFFORTS } from '../api/chat/reasoningEffort';
import type { ChatOverrides } from './chatRequestBuilder';
import type { ReasoningChoice } from './reasoning';

/** The `modelOptions` a caller of VS Code's `sendRequest` may pass; anything else in them is ignored. */
const modelOptionsSchema = orElse(
  z.object({
    temperature: orUndefined(z.optional(z.number().check(z.gte(0), z.lte(2)))),
    top_p: orUndefined(z.optional(z.number().check(z.gte(0), z.lte(1)))),
    frequency_penalty: orUndefined(z.optional(z.number().check(z.gte(-2), z.lte(2)))),
    presence_penalty: orUndefined(z.optional(z.number().check(z.gte(-2), z.lte(2)))),
    max_tokens: orUndefined(z.optional(z.int().check(z.positive()))),
    reasoning_effort: orUndefined(z.optional(z.enum(REASONING_EFFORTS))),
    reasoningEffort: orUndefined(z.optional(z.enum(REASONING_EFFORTS))),
    thinking: orUndefined(z.optional(z.boolean())),
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
