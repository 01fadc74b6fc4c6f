import { createHash } from 'node:crypto';
import * as path from 'node:path';

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

/** True when `target` is `folder` itself or below it (after resolving `..`). */
export function isInside(folder: string, target: string): boolean {
  const relative = path.relative(path.resolve(folder), path.resolve(target));
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The file `name` directly in `folder`; throws when the name is not a plain file name. */
export function fileInFolder(folder: string, name: string): string {
  const target = path.resolve(folder, name);
  if (path.dirname(target) !== path.resolve(folder) || name !== path.basename(name) || name.startsWith('.')) {
    throw new Error(`refusing the file name "${name}": it is not a plain file name`);
  }
  return target;
}

export type DownloadFolder = { folder: string } | { problem: string };

/**
 * `promptreel.video.downloadFolder`: relative to the workspace folder (and then never outside it), or an absolute
 * path the user chose on purpose.
 */
export function resolveDownloadFolder(setting: string, workspaceRoot: string): DownloadFolder {
  const trimmed = setting.trim() || 'videos';
  if (path.isAbsolute(trimmed)) return { folder: path.normalize(trimmed) };
  const folder = path.resolve(workspaceRoot, trimmed);
  if (!isInside(workspaceRoot, folder)) {
    return { problem: `promptreel.video.downloadFolder ("${setting}") points outside the workspace folder.` };
  }
  return { folder };
}
