import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { t } from '../../api/l10n';

// Where a downloaded video goes. Task ids and prompts come from the service and the user: whatever they contain
// (`../`, slashes, drive letters, control characters, emoji), the file name is made of safe characters only and
// the file lands directly inside the download folder.

const MAX_SLUG = 40;
const MAX_ID = 48;

function safePart(text: string, max: number): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, max)
    .replace(/[-_]+$/g, '');
}

/**
 * `<prompt-slug>-<task-id>.mp4`, e.g. `a-paper-boat-on-a-rainy-street-task_abc123.mp4`. When making the id safe
 * loses something (non-ASCII ids all become `task`, long ids are cut), a short hash of the raw id keeps names of
 * different tasks apart: `video-task-3f9a1c2b.mp4`.
 */
export function videoFileName(prompt: string | undefined, taskId: string): string {
  const slug = safePart(prompt ?? '', MAX_SLUG).toLowerCase() || 'video';
  const safe = safePart(taskId, MAX_ID);
  const id = safe === taskId ? safe : `${safe || 'task'}-${createHash('sha256').update(taskId).digest('hex').slice(0, 8)}`;
  return `${slug}-${id}.mp4`;
}

export type DownloadFolder = { path: string } | { absolute: string } | { problem: string };

/**
 * `promptreel.video.downloadFolder` over the `/`-separated path of a workspace folder's URI (any file system: a
 * remote or virtual workspace too): relative to the workspace folder (and then never outside it), or an absolute
 * path on this machine's disk the user chose on purpose (the caller makes it a `file:` URI).
 */
export function resolveDownloadFolder(setting: string, rootPath: string): DownloadFolder {
  const trimmed = setting.trim() || 'videos';
  if (path.isAbsolute(trimmed)) return { absolute: path.normalize(trimmed) };
  const root = path.posix.normalize(rootPath.replace(/\/+$/, '') || '/');
  const folder = path.posix.join(root, trimmed.replace(/\\/g, '/')).replace(/(.)\/+$/, '$1');
  const relative = path.posix.relative(root, folder);
  if (relative.startsWith('..') || path.posix.isAbsolute(relative)) {
    return { problem: t('promptreel.video.downloadFolder ("{0}") points outside the workspace folder.', setting) };
  }
  return { path: folder };
}
