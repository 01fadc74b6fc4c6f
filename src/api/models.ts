import * as z from 'zod/mini';
import { orUndefined } from './tolerant';
import { lazy } from './lazy';

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  created?: number;
  /** e.g. `openai`, `openai-video`; absent on many gateways. */
  endpointTypes?: string[];
  /** What the entry says of the model's limits, where the gateway says anything (most say nothing). */
  limits?: ModelLimits;
}

export interface ModelLimits {
  /** Tokens of prompt plus reply (`context_length`, `max_model_len`). */
  contextWindow?: number;
  maxInputTokens?: number;
  maxOutputTokens?: number;
  /** `input_modalities` includes images. */
  vision?: boolean;
  /** `supported_parameters` includes `tools`. */
  tools?: boolean;
}

const modelSchema = lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    owned_by: orUndefined(z.nullish(z.string())),
    created: orUndefined(z.nullish(z.number())),
    supported_endpoint_types: orUndefined(z.nullish(z.array(z.string()))),
    context_length: orUndefined(z.optional(z.int().check(z.positive()))),
    max_model_len: orUndefined(z.optional(z.int().check(z.positive()))),
    max_input_tokens: orUndefined(z.optional(z.int().check(z.positive()))),
    max_output_tokens: orUndefined(z.optional(z.int().check(z.positive()))),
    input_modalities: orUndefined(z.optional(z.array(z.string()))),
    supported_parameters: orUndefined(z.optional(z.array(z.string()))),
    // OpenRouter nests some of them.
    architecture: orUndefined(z.optional(z.object({ input_modalities: orUndefined(z.optional(z.array(z.string()))) }))),
    top_provider: orUndefined(z.optional(z.object({ max_completion_tokens: orUndefined(z.nullish(z.int().check(z.positive()))) }))),
  }),
);

function limitsOf(entry: z.infer<ReturnType<typeof modelSchema>>): ModelLimits | undefined {
  const modalities = entry.input_modalities ?? entry.architecture?.input_modalities;
  const maxOutput = entry.max_output_tokens ?? entry.top_provider?.max_completion_tokens ?? undefined;
  const limits: ModelLimits = {
    ...defined('contextWindow', entry.context_length ?? entry.max_model_len),
    ...defined('maxInputTokens', entry.max_input_tokens),
    ...defined('maxOutputTokens', maxOutput),
    ...defined('vision', modalities ? modalities.some((modality) => /image/i.test(modality)) : undefined),
    ...defined('tools', entry.supported_parameters ? entry.supported_parameters.includes('tools') : undefined),
  };
  return Object.keys(limits).length ? limits : undefined;
}

function defined<K extends keyof ModelLimits>(key: K, value: ModelLimits[K] | undefined): Partial<ModelLimits> {
  return value === undefined ? {} : { [key]: value };
}

const listSchema = lazy(() => z.union([z.object({ data: z.array(z.unknown()) }), z.array(z.unknown())]));

/** Parses `/v1/models`; entries that are not models are skipped rather than failing the whole list. */
export function parseModelList(raw: unknown): ModelInfo[] | undefined {
  const list = listSchema().safeParse(raw);
  if (!list.success) return undefined;
  const entries = Array.isArray(list.data) ? list.data : list.data.data;
  const models: ModelInfo[] = [];
  for (const entry of entries) {
    const model = modelSchema().safeParse(entry);
    if (!model.success) continue;
    models.push({
      id: model.data.id,
      ...(model.data.owned_by ? { ownedBy: model.data.owned_by } : {}),
      ...(typeof model.data.created === 'number' ? { created: model.data.created } : {}),
      ...(model.data.supported_endpoint_types ? { endpointTypes: model.data.supported_endpoint_types } : {}),
    });
    const limits = limitsOf(model.data);
    if (limits) models[models.length - 1].limits = limits;
  }
  return models;
}

const VIDEO_ENDPOINT = /video/i;

/** A model is for video when every endpoint type it declares is a video one. */
export function isVideoModel(model: ModelInfo): boolean {
  return !!model.endpointTypes && model.endpointTypes.length > 0 && model.endpointTypes.every((type) => VIDEO_ENDPOINT.test(type));
}
