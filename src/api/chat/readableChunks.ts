import type { Readable } from 'node:stream';

type Step = IteratorResult<Uint8Array, void>;

/** Chunks held before the body is paused: enough to keep the socket busy while the reader works. */
const HIGH_WATER = 16;

/**
 * The chunks of a Node Readable one by one, as the socket delivered them. A Readable's own async iterator calls
 * `read()`, which joins every chunk buffered meanwhile into one new Buffer: a copy of each byte whenever the reader
 * falls behind. Here the body flows, and is paused only while HIGH_WATER chunks wait to be read.
 */
export class ReadableChunks implements AsyncIterator<Uint8Array, void> {
  private readonly chunks: Uint8Array[] = [];
  private head = 0;
  private ended = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private started = false;

  constructor(private readonly body: Readable) {}

  next(): Promise<Step> {
    if (!this.started) this.start();
    if (this.head < this.chunks.length) return Promise.resolve(this.take());
    if (this.failure) return Promise.reject(this.failure.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise<void>((resolve) => (this.wake = resolve)).then(() => this.next());
  }

  /** Stops reading: the body is destroyed, which closes (or frees) its connection. */
  async return(): Promise<Step> {
    this.ended = true;
    this.chunks.length = 0;
    this.head = 0;
    if (!this.body.destroyed) this.body.destroy();
    return { value: undefined, done: true };
  }

  private take(): Step {
    const value = this.chunks[this.head++];
    if (this.head === this.chunks.length) {
      this.chunks.length = 0;
      this.head = 0;
    }
    if (this.body.isPaused() && !this.ended) this.body.resume();
    return { value, done: false };
  }

  private start(): void {
    this.started = true;
    this.body.on('data', (chunk: Uint8Array) => {
      this.chunks.push(chunk);
      if (this.chunks.length - this.head >= HIGH_WATER) this.body.pause();
      this.notify();
    });
    this.body.once('end', () => {
      this.ended = true;
      this.notify();
    });
    this.body.once('error', (error: unknown) => {
      this.failure ??= { error };
      this.notify();
    });
    this.body.once('close', () => {
      // Closed without 'end' (destroyed, connection lost without an error event): nothing more will come.
      if (!this.ended && !this.failure) this.failure = { error: new Error('the response body was closed before its end') };
      this.notify();
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}
