// Pinned by `npm run bench -- --only editor`: time over the stream alone, and one undo step.
import type { ChatRequest } from '../../api/chat/request';
import type { ChatStreamEvent } from '../../api/chat/events';
import { FenceStripper } from './fenceStripper';
import { systemClock, type Clock } from '../../common/clock';
import { FrameBatcher } from './frameBatcher';
import type { SinkStopReason, StreamSink } from '../streamSink';

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
  /** The clock time `timing` counts from, e.g. when the command started (default: the start of the run). */
  origin?: number;
}

export interface StreamTiming {
  /** The run started (the request is sent next). */
  request: number;
  /** The first text delta arrived (absent when none did). */
  firstText?: number;
  /** The stream ended (its last event, an error, or the cancellation). */
  streamEnd: number;
  /** The write in flight when the stream ended came back. */
  drained: number;
  /** The rest was written and the sink finished (for a document: all the text in it, the undo step closed). */
  finished: number;
}

export interface StreamRunOutcome {
  status: StreamStatus;
  /** What was written into the sink. */
  text: string;
  /** How many times the sink was changed. */
  edits: number;
  /** How many text events arrived (the client joins the deltas of one network read into one event). */
  chunks: number;
  durationMs: number;
  /** When each phase ended, in ms from `origin` (logs and benchmarks show where the time went). */
  timing: StreamTiming;
  finishReason?: string;
  error?: unknown;
  stopReason?: SinkStopReason;
}

/**
 * Streams a chat completion into a sink: text deltas (never reasoning) go through the fence stripper and the frame
 * batcher, so the sink sees at most one write per frame, and its last text with `finish`. Whatever the end (done, cancelled, cut off, refused, the
 * sink stopped), the text that arrived is written and the sink finished; the request is aborted (its socket closed)
 * as soon as the user cancels or the sink stops.
 */
export async function runStream(options: StreamRunOptions): Promise<StreamRunOutcome> {
  const { sink, signal } = options;
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const origin = options.origin ?? started;
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
  let firstText: number | undefined;
  let finishReason: string | undefined;
  let error: unknown;
  try {
    for await (const event of options.stream(options.request, controller.signal)) {
      if (event.type === 'text') {
        if (chunks === 0) firstText = clock.now() - origin;
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
  const streamEnd = clock.now() - origin;

  // What arrived is kept, whatever the end. The last text is written together with the end of the writing (for the
  // document: in the edit that closes the undo step), so the end costs one round trip to the editor, not two.
  batcher.push(stripper?.flush() ?? '');
  if (error === undefined && !signal.aborted && options.ending) batcher.push(options.ending(sink.text + batcher.pendingText));
  let rest = '';
  try {
    rest = await batcher.close();
  } catch (caught) {
    error ??= caught;
  }
  sinkStopped.dispose();
  const drained = clock.now() - origin;
  try {
    await sink.finish(rest);
  } catch (caught) {
    error ??= caught;
  }
  const finished = clock.now() - origin;

  const status: StreamStatus = sink.stopReason ? 'interrupted' : signal.aborted ? 'cancelled' : error !== undefined ? 'failed' : 'completed';
  return {
    status,
    text: sink.text,
    edits: sink.edits,
    chunks,
    durationMs: Math.round(finished - (started - origin)),
    timing: { request: started - origin, ...(firstText !== undefined ? { firstText } : {}), streamEnd, drained, finished },
    ...(finishReason ? { finishReason } : {}),
    ...(error !== undefined && status === 'failed' ? { error } : {}),
    ...(sink.stopReason ? { stopReason: sink.stopReason } : {}),
  };
}
