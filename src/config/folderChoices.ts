import type { VideoCreateRequest } from '../api/video/task';
import { t } from '../api/l10n';
import type { SettingKey } from './schema';
import type { Settings } from './settings';

type VideoRequest = Omit<VideoCreateRequest, 'inputReference'>;

/** Each video setting that a request carries, and how to read it off the request. */
const VIDEO_REQUEST_SETTINGS: readonly { key: SettingKey; name: () => string; value: (request: VideoRequest) => unknown }[] = [
  { key: 'video.model', name: () => t('the model'), value: (request) => request.model },
  { key: 'video.seconds', name: () => t('the duration'), value: (request) => (request.seconds === undefined ? undefined : String(request.seconds)) },
  { key: 'video.resolution', name: () => t('the resolution'), value: (request) => request.metadata?.resolution },
  { key: 'video.ratio', name: () => t('the aspect ratio'), value: (request) => request.metadata?.ratio },
  { key: 'video.generateAudio', name: () => t('audio'), value: (request) => request.metadata?.generate_audio },
  { key: 'video.watermark', name: () => t('the watermark'), value: (request) => request.metadata?.watermark },
  { key: 'video.moderator', name: () => t('content review'), value: (request) => request.moderator },
  { key: 'video.seed', name: () => t('the seed'), value: (request) => request.metadata?.seed ?? null },
];

/**
 * What the open folder's settings (not the user's) chose in these video requests, in the user's words: the charge
 * confirmation names them, so a repository cannot pick an expensive model or a long duration unseen.
 */
export function videoFolderChoices(settings: Settings, requests: readonly VideoRequest[]): string[] {
  const chosen: string[] = [];
  for (const setting of VIDEO_REQUEST_SETTINGS) {
    if (!settings.isFromFolder(setting.key)) continue;
    const value = JSON.stringify(settings.get(setting.key));
    if (requests.some((request) => JSON.stringify(setting.value(request)) === value)) chosen.push(setting.name());
  }
  if (requests.length > 1 && settings.isFromFolder('video.maxVariants')) chosen.push(t('the number of variants allowed'));
  return chosen;
}
