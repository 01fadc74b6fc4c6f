import { ApiError } from '../errors';
import { t } from '../l10n';

/** The code of the ApiError for an answer that is not a video (the downloader then tries `/content`). */
export const NOT_A_VIDEO = 'not_a_video';

/** Writing the file failed on this machine (disk full, no permission): not the service's fault, not the network's. */
export class SaveError extends Error {
  constructor(
    message: string,
    readonly hint: string,
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SaveError';
  }
}

const LOCAL_FILE_CODES = new Set([
  'ENOSPC',
  'EDQUOT',
  'EFBIG',
  'EACCES',
  'EPERM',
  'EROFS',
  'EISDIR',
  'ENOTDIR',
  'ENAMETOOLONG',
  'EMFILE',
  'ENFILE',
  'EIO',
  'ENOENT',
]);

export function isLocalFileError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const syscall = (error as NodeJS.ErrnoException | null)?.syscall;
  return typeof code === 'string' && LOCAL_FILE_CODES.has(code) && typeof syscall === 'string';
}

/** What a failed write means, in the user's words, with the folder it happened in. */
export function saveError(error: unknown, folder: string, written: number): SaveError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const sofar = written > 0 ? formatBytes(written) : undefined;
  const failed = (message: string, hint: string) => new SaveError(message, hint, code, { cause: error });
  switch (code) {
    case 'ENOSPC':
      return failed(
        sofar === undefined
          ? t('The disk is full at {0}: the video could not be saved, and nothing was kept.', folder)
          : t('The disk is full at {0}: the video could not be saved after {1}, and nothing was kept.', folder, sofar),
        t('Free some space (or set promptreel.video.downloadFolder to another disk), then retry.'),
      );
    case 'EDQUOT':
      return failed(
        sofar === undefined
          ? t('Your disk quota is used up at {0}: the video could not be saved.', folder)
          : t('Your disk quota is used up at {0}: the video could not be saved after {1}.', folder, sofar),
        t('Free some space, then retry.'),
      );
    case 'EFBIG':
      return failed(
        t('The video is larger than this file system allows at {0}.', folder),
        t('Set promptreel.video.downloadFolder to another disk, then retry.'),
      );
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return failed(
        code === 'EROFS'
          ? t('Promptreel may not write to {0} (read-only file system).', folder)
          : t('Promptreel may not write to {0} (permission denied).', folder),
        t('Set promptreel.video.downloadFolder to a folder you can write to, then retry.'),
      );
    default:
      return failed(
        t('Saving the video in {0} failed: {1}', folder, (error as Error | null)?.message ?? String(error)),
        t('Check the download folder, then retry.'),
      );
  }
}

/** The body ended (or the connection closed) before the bytes the headers announced. */
export function cutShort(received: number, total: number | undefined, cause?: unknown): ApiError {
  return new ApiError({
    kind: 'network',
    message:
      total !== undefined
        ? t('The video host sent {0} of {1}, then the connection closed: nothing was saved.', formatBytes(received), formatBytes(total))
        : t('The video host sent {0}, then the connection closed: nothing was saved.', formatBytes(received)),
    hint: t('The transfer was interrupted: retry the download.'),
    retryable: true,
    mayHaveReachedServer: true,
    cause,
  });
}

export function notAVideo(what: string): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    code: NOT_A_VIDEO,
    message: t('The video download answered with {0}, not a video: nothing was saved.', what),
    hint: t('The address may need a sign-in, or the file is not ready yet: try again later, or open the task on the service.'),
    retryable: false,
  });
}

/** A content type a video can come with; a page, JSON or text cannot be one. */
export function mayBeVideo(contentType: string): boolean {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === '' || type.startsWith('video/')) return true;
  return ['application/octet-stream', 'binary/octet-stream', 'application/mp4', 'application/x-mpegurl', 'application/vnd.apple.mpegurl'].includes(type);
}

/** MP4/QuickTime boxes, Matroska/WebM, AVI, Ogg, FLV, MPEG-TS: the containers a text-to-video service returns. */
export function looksLikeVideo(head: Buffer, contentType: string | undefined): boolean {
  if (head.length === 0) return false;
  const box = head.length >= 8 ? head.toString('latin1', 4, 8) : '';
  if (['ftyp', 'moov', 'mdat', 'free', 'wide', 'skip', 'pnot'].includes(box)) return true;
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return true;
  const start = head.toString('latin1', 0, 4);
  if (start === 'RIFF' || start === 'OggS' || (start.startsWith('FLV') && head[3] === 1)) return true;
  // Another container: believed when it is binary, or labelled video/* and not plainly a page or JSON.
  if (!isText(head)) return true;
  const text = head
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  if (/^[<{[]/.test(text)) return false;
  return (contentType ?? '').trim().toLowerCase().startsWith('video/');
}

/** Printable ASCII, white space and UTF-8 lead/continuation bytes only: what pages, JSON and messages are made of. */
function isText(head: Buffer): boolean {
  return head.every((byte) => byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte !== 0x7f));
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return t('{0} bytes', bytes);
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
