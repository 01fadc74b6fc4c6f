import { isVideoModel, type ModelInfo } from '../../api/models';

/** Models that can chat: video-only ones (by endpoint types) and the configured video model are left out. */
export function chatModelsOf(models: readonly ModelInfo[], videoModel: string): ModelInfo[] {
  return models.filter((model) => !isVideoModel(model) && model.id !== videoModel);
}
