import { ApiError } from '../errors';

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
  const sofar = written > 0 ? ` after ${formatBytes(written)}` : '';
  switch (code) {
    case 'ENOSPC':
      return new SaveError(
        `The disk is full at ${folder}: the video could not be saved${sofar}, and nothing was kept.`,
        'Free some space (or set promptreel.video.downloadFolder to another disk), then retry.',
        code,
        { cause: error },
      );
    case 'EDQUOT':
      return new SaveError(`Your disk quota is used up at ${folder}: the video could not be saved${sofar}.`, 'Free some space, then retry.', code, {
        cause: error,
      });
    case 'EFBIG':
      return new SaveError(
        `The video is larger than this file system allows at ${folder}.`,
        'Set promptreel.video.downloadFolder to another disk, then retry.',
        code,
        { cause: error },
      );
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new SaveError(
        `Promptreel may not write to ${folder} (${code === 'EROFS' ? 'read-only file system' : 'permission denied'}).`,
        'Set promptreel.video.downloadFolder to a folder you can write to, then retry.',
        code,
        { cause: error },
      );
    default:
      return new SaveError(
        `Saving the video in ${folder} failed: ${(error as Error | null)?.message ?? String(error)}`,
        'Check the download folder, then retry.',
        code,
        { cause: error },
      );
  }
}

/** The body ended (or the connection closed) before the bytes the headers announced. */
export function cutShort(received: number, total: number | undefined, cause?: unknown): ApiError {
  const of = total !== undefined ? `${formatBytes(received)} of ${formatBytes(total)}` : formatBytes(received);
  return new ApiError({
    kind: 'network',
    message: `The video host sent ${of}, then the connection closed: nothing was saved.`,
    hint: 'The transfer was interrupted: retry the download.',
    retryable: true,
    mayHaveReachedServer: true,
    cause,
  });
}

export function notAVideo(what: string): ApiError {
  return new ApiError({
    kind: 'invalid-response',
    code: NOT_A_VIDEO,
    message: `The video download answered with ${what}, not a video: nothing was saved.`,
    hint: 'The address may need a sign-in, or the file is not ready yet: try again later, or open the task on the service.',
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
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
