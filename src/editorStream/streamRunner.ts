import type { ChatRequest, ChatStreamEvent } from '../api';
import { FenceStripper } from './fenceStripper';
import { FrameBatcher, systemClock, type Clock } from './frameBatcher';
import type { SinkStopReason, StreamSink } from './streamSink';

export type StreamStatus = 'completed' | 'cancelled' | 'failed' | 'interrupted';

export interface StreamRunOptions {
  stream: (request: ChatRequest, signal: AbortSignal) => AsyncIterable<ChatStreamEvent>;
  request: ChatRequest;
  sink: StreamSink;
  /** The user's cancellation. */
  signal: AbortSignal;
  stripFences: boolean;
  /** Text to add after a complete reply, given what was written (e.g. the line break a rewritten selection ended with). */
  ending?: (written: string) => string;
  onProgress?: (writtenChars: number) => void;
  clock?: Clock;
  frameMs?: number;
}

export interface StreamRunOutcome {
  status: StreamStatus;
  /** What was written into the sink. */
  text: string;
  /** How many times the sink was changed. */
  edits: number;
  /** How many text deltas arrived. */
  chunks: number;
  durationMs: number;
  finishReason?: string;
  error?: unknown;
  stopReason?: SinkStopReason;
}

/**
 * Streams a chat completion into a sink: text deltas (never reasoning) go through the fence stripper and the frame
 * batcher, so the sink sees at most one write per frame. Whatever the end (done, cancelled, cut off, refused, the
 * sink stopped), the text that arrived is written and the sink finished; the request is aborted (its socket closed)
 * as soon as the user cancels or the sink stops.
 */
export async function runStream(options: StreamRunOptions): Promise<StreamRunOutcome> {
  const { sink, signal } = options;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const controller = new AbortController();
  const abort = () => controller.abort(signal.reason);
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });

  const stripper = options.stripFences ? new FenceStripper() : undefined;
  const batcher = new FrameBatcher(
    async (text) => {
      await sink.append(text);
      options.onProgress?.(sink.text.length);
    },
    clock,
    options.frameMs,
  );
  const sinkStopped = sink.onDidStop(() => {
    batcher.stop();
    controller.abort(new Error('the text being written was edited or closed'));
  });

  let chunks = 0;
  let finishReason: string | undefined;
  let error: unknown;
  try {
    for await (const event of options.stream(options.request, controller.signal)) {
      if (event.type === 'text') {
        chunks++;
        batcher.push(stripper ? stripper.push(event.text) : event.text);
      } else if (event.type === 'finish') {
        finishReason = event.reason;
      }
    }
  } catch (caught) {
    error = caught;
  } finally {
    signal.removeEventListener('abort', abort);
  }

  // What arrived is kept, whatever the end.
  batcher.push(stripper?.flush() ?? '');
  if (error === undefined && !signal.aborted && options.ending) batcher.push(options.ending(sink.text + batcher.pendingText));
  try {
    await batcher.drain();
  } catch (caught) {
    error ??= caught;
  }
  sinkStopped.dispose();
  try {
    await sink.finish();
  } catch (caught) {
    error ??= caught;
  }

  const status: StreamStatus = sink.stopReason ? 'interrupted' : signal.aborted ? 'cancelled' : error !== undefined ? 'failed' : 'completed';
  return {
    status,
    text: sink.text,
    edits: sink.edits,
    chunks,
    durationMs: Math.round(clock.now() - started),
    ...(finishReason ? { finishReason } : {}),
    ...(error !== undefined && status === 'failed' ? { error } : {}),
    ...(sink.stopReason ? { stopReason: sink.stopReason } : {}),
  };
}
