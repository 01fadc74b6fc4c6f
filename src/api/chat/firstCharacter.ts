import type { Readable } from 'node:stream';

/** How far to look for the first character past leading blank lines before giving up on telling the body apart. */
const MAX_LEADING_WHITESPACE = 64 * 1024;

/**
 * Waits for the first bytes of a body, puts them back, and returns the first character that is not white space
 * (a byte order mark counts as white space), or '' when the body ended before one. Nothing is consumed: a reader
 * that starts afterwards sees the whole body.
 */
export async function firstCharacter(body: Readable): Promise<string> {
  const held: Buffer[] = [];
  let size = 0;
  let found = '';
  try {
    while (!found && size < MAX_LEADING_WHITESPACE) {
      const chunk = await nextChunk(body);
      if (chunk === null) break;
      held.push(chunk);
      size += chunk.length;
      found = firstNonSpace(chunk);
    }
  } finally {
    if (held.length > 0 && !body.destroyed) body.unshift(held.length === 1 ? held[0] : Buffer.concat(held));
  }
  return found;
}

function firstNonSpace(chunk: Buffer): string {
  const text = chunk.toString('utf8');
  const match = /[^\s\uFEFF]/.exec(text);
  return match ? match[0] : '';
}

function nextChunk(body: Readable): Promise<Buffer | null> {
  const ready = body.read() as Buffer | null;
  if (ready !== null) return Promise.resolve(ready);
  if (body.readableEnded || body.destroyed) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('close', onEnd);
      body.off('error', onError);
    };
    const onReadable = () => {
      const chunk = body.read() as Buffer | null;
      if (chunk === null) return;
      cleanup();
      resolve(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    body.on('readable', onReadable);
    body.once('end', onEnd);
    body.once('close', onEnd);
    body.once('error', onError);
  });
}
