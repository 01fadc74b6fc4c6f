import * as z from 'zod/mini';

export interface ModelInfo {
  id: string;
  ownedBy?: string;
  created?: number;
  /** e.g. `openai`, `openai-video`; absent on many gateways. */
  endpointTypes?: string[];
}

const modelSchema = z.object({
  id: z.string().check(z.minLength(1)),
  owned_by: z.catch(z.nullish(z.string()), undefined),
  created: z.catch(z.nullish(z.number()), undefined),
  supported_endpoint_types: z.catch(z.nullish(z.array(z.string())), undefined),
});

const listSchema = z.union([z.object({ data: z.array(z.unknown()) }), z.array(z.unknown())]);

/** Parses `/v1/models`; entries that are not models are skipped rather than failing the whole list. */
export function parseModelList(raw: unknown): ModelInfo[] | undefined {
  const list = listSchema.safeParse(raw);
  if (!list.success) return undefined;
  const entries = Array.isArray(list.data) ? list.data : list.data.data;
  const models: ModelInfo[] = [];
  for (const entry of entries) {
    const model = modelSchema.safeParse(entry);
    if (!model.success) continue;
    models.push({
      id: model.data.id,
      ...(model.data.owned_by ? { ownedBy: model.data.owned_by } : {}),
      ...(typeof model.data.created === 'number' ? { created: model.data.created } : {}),
      ...(model.data.supported_endpoint_types ? { endpointTypes: model.data.supported_endpoint_types } : {}),
    });
  }
  return models;
}

const VIDEO_ENDPOINT = /video/i;

/** A model is for video when every endpoint type it declares is a video one. */
export function isVideoModel(model: ModelInfo): boolean {
  return !!model.endpointTypes && model.endpointTypes.length > 0 && model.endpointTypes.every((type) => VIDEO_ENDPOINT.test(type));
}
