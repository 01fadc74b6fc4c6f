// Pinned by `npm run bench -- --only download`: a 256 MB download against curl and Node's plain pipeline, and its memory growth.
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { apiUrl } from '../baseUrl';
import { ApiError, abortedError, isApiError } from '../errors';
import { errorFromNetwork, headerValue } from '../httpErrors';
import { t } from '../l10n';
import { describeType } from '../bodyText';
import { PRIVATE_ADDRESS } from '../privateAddresses';
import { readText, redactUrl, type RawResponse, type Transport } from '../transport';
import { cutShort, isLocalFileError, looksLikeVideo, mayBeVideo, NOT_A_VIDEO, notAVideo, saveError, SaveError } from './savedFile';

export interface DownloadProgress {
  received: number;
  total?: number;
}

export interface DownloadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: DownloadProgress) => void;
  /** The user chose this exact file (a save dialog that asked about replacing it): no reservation, it is replaced. */
  replaceExisting?: boolean;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  /** `url`: the task's signed address; `content`: the `/v1/videos/<id>/content` fallback. */
  source: 'url' | 'content';
}

const MAX_REDIRECTS = 5;
const PART_SUFFIX = '.part';
/** `.<final name>.<8 hex>.part`, as writeAtomically names its temporary file. */
const STALE_PART = /^\.(.+)\.[0-9a-f]{8}\.part$/;
/** Enough of the start of a file to tell a video container from a page or a JSON error. */
const SNIFF_BYTES = 16;
/**
 * How much the file stream buffers before it pushes back (default 16 KB). With a few MB, the 64 KB reads of the
 * socket are written in batches (writev) while the next ones arrive, instead of one write at a time with the socket
 * paused in between: on a 256 MB local download, 16 KB gave about half of curl's throughput, 1 MB ~85%, 2–8 MB par.
 */
const WRITE_BUFFER_BYTES = 4 * 1024 * 1024;
/** Signed addresses that expired answer one of these; the bytes are then fetched from the service itself. */
const EXPIRED_STATUSES = new Set([401, 403, 404, 410]);

/**
 * Streams a task's video into a file next to `destination`. The final name is reserved exclusively before anything
 * is written (`name.mp4`, else `name-2.mp4`…; an existing file is never replaced unless `replaceExisting`), the bytes
 * go to a temporary file renamed onto it only when complete and checked to be a video: whatever happens, no partial
 * file, web page or error text is ever left under a video's name.
 */
export async function downloadVideo(
  transport: Transport,
  task: { id: string; videoUrl?: string },
  destination: string,
  options: DownloadOptions = {},
): Promise<DownloadResult> {
  await mkdir(path.dirname(destination), { recursive: true }).catch((error: unknown) => {
    throw saveError(error, path.dirname(destination), 0);
  });
  const target = options.replaceExisting ? destination : await reserveFile(destination);
  try {
    let saved: { bytes: number; source: DownloadResult['source'] } | undefined;
    if (task.videoUrl) {
      try {
        saved = { bytes: await save(transport, await getFollowingRedirects(transport, task.videoUrl, false, options.signal), target, options), source: 'url' };
      } catch (error) {
        const why = fallbackReason(error);
        if (!why) throw error;
        transport.log.warn(`[video] the address of ${task.id} ${why}: falling back to /content`);
      }
    }
    if (!saved) {
      const contentUrl = apiUrl(transport.baseUrl, `videos/${encodeURIComponent(task.id)}/content`);
      saved = { bytes: await save(transport, await getFollowingRedirects(transport, contentUrl, true, options.signal), target, options), source: 'content' };
    }
    transport.log.info(`[video] downloaded ${saved.bytes} bytes of ${task.id} from ${saved.source === 'url' ? 'its address' : '/content'}`);
    return { path: target, ...saved };
  } catch (error) {
    // The reservation is released: the name is free again (the placeholder is empty, nothing of ours is lost).
    if (!options.replaceExisting) await rm(target, { force: true });
    throw error;
  }
}

/** Why the address's answer should be replaced by `/content`'s, or undefined when it should not. */
function fallbackReason(error: unknown): string | undefined {
  if (!isApiError(error)) return undefined;
  if (error.kind === 'http' && error.status !== undefined && EXPIRED_STATUSES.has(error.status)) return `answered ${error.status} (expired?)`;
  if (error.code === NOT_A_VIDEO) return 'did not answer with a video';
  if (error.code === PRIVATE_ADDRESS) return `leads to a private address (${error.message})`;
  return undefined;
}

/** Creates `name.ext` (else `name-2.ext`, `name-3.ext`…) exclusively and empty: the name is ours, nobody else's file is touched. */
export async function reserveFile(destination: string): Promise<string> {
  const folder = path.dirname(destination);
  const extension = path.extname(destination);
  const stem = path.basename(destination, extension);
  for (let counter = 1; counter < 10_000; counter++) {
    const candidate = path.join(folder, counter === 1 ? `${stem}${extension}` : `${stem}-${counter}${extension}`);
    try {
      await (await open(candidate, 'wx')).close();
      return candidate;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw saveError(error, folder, 0);
    }
  }
  throw new SaveError(
    t('There is no free file name for {0} in {1}.', path.basename(destination), folder),
    t('Remove old videos from the folder, then retry.'),
    'EEXIST',
  );
}

/** The key goes only to the service's own origin, never to a signed address or wherever a redirect leads. */
async function getFollowingRedirects(transport: Transport, startUrl: string, withKey: boolean, signal?: AbortSignal) {
  const keyOrigin = withKey ? new URL(startUrl).origin : undefined;
  let url = startUrl;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const response = await transport.send({
      method: 'GET',
      path: url,
      absolute: true,
      auth: keyOrigin !== undefined && new URL(url).origin === keyOrigin,
      accept: '*/*',
      signal,
      what: t('Downloading the video'),
    });
    if (response.status < 300 || response.status >= 400) return response;
    const location = headerValue(response.headers, 'location');
    response.body.resume();
    if (!location) break;
    url = new URL(location, url).toString();
    transport.log.debug(`[video] redirected to ${redactUrl(url)}`);
  }
  throw new ApiError({
    kind: 'invalid-response',
    message: t('Downloading the video: too many redirects (or a redirect without a location).'),
    hint: t('The video address keeps redirecting: try again later.'),
  });
}

function contentLength(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = Number(headerValue(headers, 'content-length'));
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** Saves a response; what is not a video is described as its transport quotes it (never another host's words). */
async function save(transport: Transport, response: RawResponse, target: string, options: DownloadOptions): Promise<number> {
  const contentType = headerValue(response.headers, 'content-type');
  const quote = (start: string) => transport.quote(response, start);
  if (contentType && !mayBeVideo(contentType)) {
    // Read a little of it to say what it was; the rest is not wanted.
    const start = await readText(response.body, options.signal, { limit: 2048, truncate: true }).catch(() => '');
    throw notAVideo(quote(start));
  }
  return writeAtomically(response.body, target, contentLength(response.headers), contentType, options, quote);
}

async function writeAtomically(
  body: Readable,
  destination: string,
  total: number | undefined,
  contentType: string | undefined,
  options: DownloadOptions,
  quote: (start: string) => string,
): Promise<number> {
  const temporary = path.join(path.dirname(destination), `.${path.basename(destination)}.${randomBytes(4).toString('hex')}${PART_SUFFIX}`);
  try {
    const received = await writeBody(body, temporary, total, contentType, options, quote);
    await rename(temporary, destination).catch((error: unknown) => {
      throw saveError(error, path.dirname(destination), received);
    });
    return received;
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * Streams a response body into `file`, checking on the way that it starts like a video and that all the announced
 * bytes arrived. Failures say what happened: cancelled, not a video, cut short by the host, or the disk (full, no
 * permission), never "could not reach" for bytes that did arrive. What is not a video is described by `quote` (the
 * transport's, which hides keys and another host's words), else by its type alone.
 */
export async function writeBody(
  body: Readable,
  file: string,
  total: number | undefined,
  contentType: string | undefined,
  options: DownloadOptions,
  quote: (start: string) => string = () => describeType(contentType),
): Promise<number> {
  let received = 0;
  const head: Buffer[] = [];
  let headBytes = 0;
  let checked = false;
  const onProgress = options.onProgress;
  const output = createWriteStream(file, { highWaterMark: WRITE_BUFFER_BYTES });
  try {
    // Progress and the check of the first bytes run in a listener beside the pipe rather than in a Transform: one
    // stream less for every chunk to cross (a 256 MB local download: from about 55% to 60–75% of curl's speed).
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (!checked) {
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes >= SNIFF_BYTES) {
          checked = true;
          const first = Buffer.concat(head);
          if (!looksLikeVideo(first, contentType)) body.destroy(notAVideo(quote(first.subarray(0, 2048).toString('utf8'))));
        }
      }
      try {
        onProgress?.({ received, total });
      } catch {
        // A progress listener's failure is not the download's.
      }
    });
    await pipeline(body, output, { signal: options.signal });
    if (!checked && !looksLikeVideo(Buffer.concat(head), contentType)) throw notAVideo(quote(Buffer.concat(head).toString('utf8')));
    if (total !== undefined && received !== total) throw cutShort(received, total);
    return received;
  } catch (error) {
    // A file still being opened when the body failed is created after the failure: wait until it is closed, so
    // that whoever removes it afterwards removes it for good.
    if (!output.closed) await once(output, 'close').catch(() => undefined);
    if (options.signal?.aborted) throw abortedError(options.signal.reason);
    if (isApiError(error) || error instanceof SaveError) throw error;
    if (isLocalFileError(error)) throw saveError(error, path.dirname(file), received);
    if (received > 0) throw cutShort(received, total, error);
    throw errorFromNetwork(error, t('the video download'));
  }
}

/**
 * Removes what a window that stopped mid-download left in `folder`: temporary `.part` files not written to for
 * `olderThanMs`, and the empty file each had reserved under the final name. Returns the names removed.
 */
export async function removeStaleDownloads(folder: string, olderThanMs: number, now = Date.now()): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const match = STALE_PART.exec(name);
    if (!match) continue;
    const part = path.join(folder, name);
    const info = await stat(part).catch(() => undefined);
    if (!info?.isFile() || now - info.mtimeMs < olderThanMs) continue;
    await rm(part, { force: true });
    removed.push(name);
    const reserved = path.join(folder, match[1]);
    const placeholder = await stat(reserved).catch(() => undefined);
    if (placeholder?.isFile() && placeholder.size === 0) {
      await rm(reserved, { force: true });
      removed.push(match[1]);
    }
  }
  return removed;
}
