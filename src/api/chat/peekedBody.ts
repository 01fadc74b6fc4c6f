// Pinned by `npm run bench -- --only throughput,ttft`: throughput at least the openai SDK's, and the first token within 1 ms of a raw undici read.
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ReadableChunks } from './readableChunks';

/** How far to look (for the first character past leading blank lines, or `enough`) before giving up on telling the body apart. */
const MAX_PEEK_BYTES = 64 * 1024;

/** A response body whose first character has been seen, still whole: its chunks replay what was looked at. */
export interface PeekedBody {
  /** The first character that is not white space (a byte order mark counts as white space); '' when there is none. */
  readonly first: string;
  /** The connection failed before a first character arrived: reading `chunks` reports how. */
  readonly failed: boolean;
  /** Every chunk of the body in the order and size the socket delivered it; stopping early releases the body. */
  readonly chunks: AsyncIterable<Uint8Array>;
}

/**
 * Reads the first chunks of a body until one holds a character that is not white space, or, with `enough`, until
 * that says it has seen enough of the text (it is given each chunk's text in turn). The body flows as it will for the
 * reader that follows (chunks keep their boundaries, nothing is pushed back into the stream), so a body that ends or
 * fails while being looked at behaves exactly as it would have without the look.
 */
export async function peekBody(body: Readable, enough?: (text: string) => boolean): Promise<PeekedBody> {
  const reader = new ReadableChunks(body);
  const decoder = new StringDecoder('utf8');
  const held: Uint8Array[] = [];
  let size = 0;
  let first = '';
  let seen = false;
  let failure: { error: unknown } | undefined;
  let ended = false;
  while (!seen && size < MAX_PEEK_BYTES) {
    let step: IteratorResult<Uint8Array, void>;
    try {
      step = await reader.next();
    } catch (error) {
      failure = { error };
      break;
    }
    if (step.done) {
      ended = true;
      break;
    }
    held.push(step.value);
    size += step.value.length;
    first ||= firstNonSpace(step.value);
    seen = enough ? enough(decoder.write(Buffer.from(step.value.buffer, step.value.byteOffset, step.value.byteLength))) : first !== '';
  }
  return { first, failed: failure !== undefined, chunks: replay(held, reader, failure, ended) };
}

function replay(held: Uint8Array[], reader: ReadableChunks, failure: { error: unknown } | undefined, ended: boolean): AsyncIterable<Uint8Array> {
  let index = 0;
  const iterator: AsyncIterator<Uint8Array, void> = {
    next: () => {
      if (index < held.length) return Promise.resolve({ value: held[index++], done: false });
      if (failure) return Promise.reject(failure.error);
      if (ended) return Promise.resolve({ value: undefined, done: true });
      return reader.next();
    },
    return: () => {
      held.length = 0;
      return reader.return();
    },
  };
  return { [Symbol.asyncIterator]: () => iterator };
}

function firstNonSpace(chunk: Uint8Array): string {
  const text = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
  const match = /[^\s\uFEFF]/.exec(text);
  return match ? match[0] : '';
}
