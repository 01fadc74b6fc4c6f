import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import type { ChatRequest, ChatStreamEvent } from '../../../../src/api';
import { runStream } from '../../../../src/editorStream/core/streamRunner';
import type { SinkStopReason, StreamSink } from '../../../../src/editorStream/streamSink';
import { clientFor, useLocalService } from '../../support/localService';

type Listener = (reason: SinkStopReason) => unknown;

/** Records every write, like a document would; can play the user editing the text being written. */
class RecordingSink implements StreamSink {
  readonly writes: string[] = [];
  finished = 0;
  /** The text `finish` was given (written with it, like the document writes it in the edit that closes the undo step). */
  finishedWith: string | undefined;
  private listeners: Listener[] = [];
  private reason: SinkStopReason | undefined;
  /** Called after each write, e.g. to stop the sink at some point. */
  afterWrite: (sink: RecordingSink) => void = () => undefined;

  readonly onDidStop = (listener: Listener) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((candidate) => candidate !== listener)) };
  };

  get stopReason(): SinkStopReason | undefined {
    return this.reason;
  }
  get text(): string {
    return this.writes.join('');
  }
  get edits(): number {
    return this.writes.length;
  }
  async append(text: string): Promise<void> {
    assert.ok(!this.reason, 'no write after the sink stopped');
    this.writes.push(text);
    this.afterWrite(this);
  }
  async finish(rest: string): Promise<void> {
    this.finished++;
    this.finishedWith = rest;
    if (rest && !this.reason) this.writes.push(rest);
  }
  stop(reason: SinkStopReason): void {
    this.reason = reason;
    for (const listener of this.listeners) listener(reason);
  }
}

const request = (text: string): ChatRequest => ({ model: 'promptreel-chat', messages: [{ role: 'user', content: text }] });

describe('runStream: a chat stream into a sink (local service, real sockets)', () => {
  const ctx = useLocalService();

  function run(sink: StreamSink, text: string, options: { signal?: AbortSignal; stripFences?: boolean; ending?: (written: string) => string } = {}) {
    const client = clientFor(ctx.service);
    return runStream({
      stream: (body, signal) => client.streamChatCompletion(body, signal),
      request: request(text),
      sink,
      signal: options.signal ?? new AbortController().signal,
      stripFences: options.stripFences ?? true,
      ...(options.ending ? { ending: options.ending } : {}),
    });
  }

  it('writes the reply, unwrapped from its code fence, and finishes the sink once', async () => {
    ctx.service.setScenario({ chat: { reply: '```ts\nconst answer = 42;\n```', chunkChars: 3 } });
    const sink = new RecordingSink();
    const outcome = await run(sink, 'complete this');
    assert.equal(outcome.status, 'completed');
    assert.equal(sink.text, 'const answer = 42;');
    assert.equal(outcome.text, 'const answer = 42;');
    assert.equal(outcome.finishReason, 'stop');
    // Text deltas of one network read come as one event: at most one per chunk sent.
    assert.ok(outcome.chunks >= 1 && outcome.chunks <= Math.ceil('```ts\nconst answer = 42;\n```'.length / 3), `${outcome.chunks} text events`);
    assert.equal(sink.finished, 1);
  });

  it('keeps fences when told not to strip (e.g. Markdown files)', async () => {
    ctx.service.setScenario({ chat: { reply: '```\nx\n```' } });
    const sink = new RecordingSink();
    await run(sink, 'go', { stripFences: false });
    assert.equal(sink.text, '```\nx\n```');
  });

  it('never writes reasoning (reasoning_content, reasoning, <think>)', async () => {
    for (const reasoning of ['reasoning_content', 'reasoning', 'think'] as const) {
      ctx.service.setScenario({ chat: { reply: 'only this', reasoning } });
      const sink = new RecordingSink();
      const outcome = await run(sink, 'think first');
      assert.equal(outcome.status, 'completed', reasoning);
      assert.equal(sink.text, 'only this', reasoning);
    }
  });

  it('batches a fast stream: far fewer writes than chunks', async () => {
    ctx.service.setScenario({ chat: { chunkChars: 1 } });
    const sink = new RecordingSink();
    const outcome = await run(sink, 'write a lot #long');
    assert.equal(outcome.status, 'completed');
    // One character per chunk sent: the text's length is the number of chunks.
    const sent = sink.text.length;
    assert.ok(sent > 10_000, `${sent} chunks`);
    assert.equal(sink.text, outcome.text, 'none lost');
    assert.ok(outcome.edits * 20 < sent, `${outcome.edits} writes for ${sent} chunks`);
  });

  it('adds the ending to a complete reply only', async () => {
    ctx.service.setScenario({ chat: { reply: 'line' } });
    const sink = new RecordingSink();
    await run(sink, 'x', { ending: (written) => (written.endsWith('\n') ? '' : '\n') });
    assert.equal(sink.text, 'line\n');

    ctx.service.setScenario({ chat: { reply: 'partial line', cut: 'no-finish', cutAfterChunks: 1 } });
    const cut = new RecordingSink();
    await run(cut, 'x', { ending: () => '\n' });
    assert.equal(cut.text, 'partial ', 'no ending after a cut-off');
  });

  it('keeps what arrived when the stream is cut off, and reports the cut', async () => {
    ctx.service.setScenario({ chat: { reply: 'abcdefghijklmnop', chunkChars: 4, cut: 'no-finish', cutAfterChunks: 2 } });
    const sink = new RecordingSink();
    const outcome = await run(sink, 'cut');
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'cut-off');
    assert.equal(sink.text, 'abcdefgh');
    assert.equal(sink.finished, 1);
  });

  it('keeps what arrived before a mid-stream error', async () => {
    ctx.service.setScenario({
      chat: {
        reply: 'abcdefghijklmnop',
        chunkChars: 4,
        midStreamError: { afterChunks: 3, message: 'upstream broke', code: 'upstream_error', type: 'server_error' },
      },
    });
    const sink = new RecordingSink();
    const outcome = await run(sink, 'go');
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.error instanceof ApiError && outcome.error.kind === 'stream');
    assert.equal(sink.text, 'abcdefghijkl');
  });

  it('writes nothing on 401', async () => {
    ctx.service.setScenario({ fault: { status: 401, body: 'openai', code: 'invalid_api_key', message: 'Invalid token' } });
    const sink = new RecordingSink();
    const outcome = await run(sink, 'go');
    assert.equal(outcome.status, 'failed');
    assert.ok(outcome.error instanceof ApiError && outcome.error.status === 401);
    assert.equal(sink.edits, 0);
    assert.equal(sink.finished, 1);
  });

  it('cancelling mid-stream closes the socket and keeps the text so far', async () => {
    ctx.service.setScenario({ chat: { reply: 'x'.repeat(200), chunkChars: 2, delayMs: 20 } });
    const sink = new RecordingSink();
    const controller = new AbortController();
    sink.afterWrite = (self) => {
      if (self.text.length >= 10) controller.abort();
    };
    const outcome = await run(sink, 'go', { signal: controller.signal });
    assert.equal(outcome.status, 'cancelled');
    assert.ok(sink.text.length >= 10 && sink.text.length < 200, `${sink.text.length} characters kept`);
    assert.equal(outcome.text, sink.text);
    await ctx.service.waitForSocketsClosed(5000);
  });

  it('stops (and closes the socket) when the sink stops, writing nothing more', async () => {
    ctx.service.setScenario({ chat: { reply: 'y'.repeat(200), chunkChars: 2, delayMs: 20 } });
    const sink = new RecordingSink();
    sink.afterWrite = (self) => {
      if (self.text.length >= 6) self.stop('edited');
    };
    const outcome = await run(sink, 'go');
    assert.equal(outcome.status, 'interrupted');
    assert.equal(outcome.stopReason, 'edited');
    const kept = sink.text.length;
    assert.ok(kept >= 6 && kept < 200);
    await ctx.service.waitForSocketsClosed(5000);
    assert.equal(sink.text.length, kept);
  });

  it('hands the text that arrived during the last write to finish: the end costs one write, not two', async () => {
    let appendStarted: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (appendStarted = resolve));
    let release: () => void = () => undefined;
    const sink = new RecordingSink();
    const appends: string[] = [];
    sink.append = async (text: string) => {
      appends.push(text);
      sink.writes.push(text);
      appendStarted();
      await new Promise<void>((resolve) => (release = resolve));
    };
    async function* stream(): AsyncIterable<ChatStreamEvent> {
      yield { type: 'text', text: 'a' };
      await started;
      yield { type: 'text', text: 'b' };
      yield { type: 'text', text: 'c' };
      yield { type: 'finish', reason: 'stop' };
      // The write in flight comes back only after the stream ended (a macrotask: the runner has closed the batcher).
      setTimeout(() => release(), 0);
    }
    const outcome = await runStream({ stream: () => stream(), request: request('x'), sink, signal: new AbortController().signal, stripFences: false });
    assert.equal(outcome.status, 'completed');
    assert.deepEqual(appends, ['a'], 'one write while streaming');
    assert.equal(sink.finishedWith, 'bc', 'the rest goes with finish');
    assert.equal(sink.text, 'abc');
    assert.equal(outcome.edits, 2);
    const { request: sent, firstText, streamEnd, drained, finished } = outcome.timing;
    assert.ok(firstText !== undefined && sent <= firstText && firstText <= streamEnd, JSON.stringify(outcome.timing));
    assert.ok(streamEnd <= drained && drained <= finished, JSON.stringify(outcome.timing));
  });
});
