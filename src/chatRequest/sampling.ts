import * as z from 'zod/mini';
import type { ChatRequest } from '../api';
import type { ChatSettings } from '../config/settings';
import type { ModelCapabilities } from '../config/schema';
import { resolveCapabilities } from './capabilities';
import type { ReasoningChoice } from './reasoning';
import { REASONING_EFFORTS } from '../api/chat/reasoningEffort';

export type SamplingParameters = Pick<ChatRequest, 'temperature' | 'top_p' | 'frequency_penalty' | 'presence_penalty' | 'max_tokens'>;

/** The `modelOptions` a caller of `sendRequest` may pass; anything else in them is ignored. */
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

/** The reasoning a caller of `sendRequest` asked for in `modelOptions` (`reasoningEffort` or `reasoning_effort`, `thinking`). */
export function reasoningChoiceOf(modelOptions: unknown): ReasoningChoice {
  const options = modelOptionsSchema.parse(modelOptions ?? {});
  const effort = options.reasoningEffort ?? options.reasoning_effort;
  return { ...(effort ? { effort } : {}), ...(options.thinking !== undefined ? { thinking: options.thinking } : {}) };
}

/**
 * Sampling and length parameters: the `promptreel.chat.*` settings, overridden by the caller's `modelOptions`.
 * Sampling values are left out for a model declared without sampling (some reasoning models refuse them) and
 * where they equal the API defaults (1, 1, 0, 0), so a gateway that rejects them is never bothered needlessly.
 * `max_tokens`: the caller's, else the setting, else the declared `maxOutputTokens`; never above the latter.
 */
export function samplingParameters(chat: ChatSettings, declared: ModelCapabilities | undefined, modelOptions?: unknown): SamplingParameters {
  const options = modelOptionsSchema.parse(modelOptions ?? {});
  const parameters: SamplingParameters = {};
  if (resolveCapabilities(declared).sampling) {
    const temperature = options.temperature ?? chat.temperature;
    const topP = options.top_p ?? chat.topP;
    const frequency = options.frequency_penalty ?? chat.frequencyPenalty;
    const presence = options.presence_penalty ?? chat.presencePenalty;
    if (temperature !== 1 || options.temperature !== undefined) parameters.temperature = temperature;
    if (topP !== 1 || options.top_p !== undefined) parameters.top_p = topP;
    if (frequency !== 0 || options.frequency_penalty !== undefined) parameters.frequency_penalty = frequency;
    if (presence !== 0 || options.presence_penalty !== undefined) parameters.presence_penalty = presence;
  }
  const limit = declared?.maxOutputTokens;
  const maxTokens = options.max_tokens ?? chat.maxTokens ?? limit;
  if (maxTokens !== undefined) parameters.max_tokens = limit === undefined ? maxTokens : Math.min(maxTokens, limit);
  return parameters;
}
