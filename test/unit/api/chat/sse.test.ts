import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeChatStream } from '../../../../src/api/chat/sse';
import type { ChatStreamEvent } from '../../../../src/api/chat/events';
import { ApiError } from '../../../../src/api/errors';

type Framing = '\n' | '\r\n' | '\r';

function chunk(delta: object, finish: string | null = null, usage: object | null = null): string {
  return JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], usage });
}

/** An SSE byte stream exercising every framing feature SERVICE.md lists. */
function sseStream(eol: Framing, options: { multiLine?: boolean; done?: boolean } = {}): Buffer {
  const payloads = [
    chunk({ role: 'assistant', content: '' }),
    chunk({ reasoning_content: '思考中 🤔' }),
    chunk({ content: '<think>hidden</think>Héllo, ' }),
    chunk({ content: 'wörld 🎬' }),
    chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":' } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: '"cats"}' } }] }),
    chunk({}, 'tool_calls'),
    JSON.stringify({ id: 'c', choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } }),
  ];
  let text = `: PING${eol}${eol}`;
  payloads.forEach((payload, index) => {
    text += `event: message${eol}id: ${index}${eol}`;
    if (options.multiLine) {
      const middle = payload.indexOf(',');
      text += `data: ${payload.slice(0, middle + 1)}${eol}data: ${payload.slice(middle + 1)}${eol}`;
    } else {
      text += `data: ${payload}${eol}`;
    }
    text += `${eol}: keep-alive${eol}`;
  });
  if (options.done !== false) text += `retry: 3000${eol}data: [DONE]${eol}${eol}`;
  return Buffer.from(text, 'utf8');
}

async function* pieces(bytes: Buffer, cuts: number[]): AsyncGenerator<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  let last = 0;
  for (const point of points) {
    yield bytes.subarray(last, point);
    last = point;
  }
  yield bytes.subarray(last);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const event of decodeChatStream(source)) events.push(event);
  return events;
}

const EXPECTED: ChatStreamEvent[] = [
  { type: 'role', role: 'assistant' },
  { type: 'reasoning', text: '思考中 🤔' },
  { type: 'reasoning', text: 'hidden' },
  { type: 'text', text: 'Héllo, ' },
  { type: 'text', text: 'wörld 🎬' },
  { type: 'tool-call', index: 0, id: 'call_1', name: 'search', argumentsDelta: '{"q":' },
  { type: 'tool-call', index: 0, id: undefined, name: undefined, argumentsDelta: '"cats"}' },
  { type: 'tool-calls', calls: [{ id: 'call_1', name: 'search', arguments: '{"q":"cats"}' }] },
  { type: 'finish', reason: 'tool_calls' },
  { type: 'usage', usage: { promptTokens: 3, completionTokens: 4, totalTokens: 7 } },
];

/** Consecutive text (or reasoning) deltas joined: the reply as it reads whatever the network reads were. */
function merged(events: ChatStreamEvent[]): ChatStreamEvent[] {
  const out: ChatStreamEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if ((event.type === 'text' || event.type === 'reasoning') && last?.type === event.type)
      out[out.length - 1] = { type: event.type, text: last.text + event.text };
    else out.push(event);
  }
  return out;
}

const EXPECTED_IN_ONE_READ = merged(EXPECTED);

describe('SSE decoding of chat streams', () => {
  for (const [name, eol] of [
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ] as Array<[string, Framing]>) {
    it(`decodes ${name} framing with comments, event/id/retry lines and multi-line data`, async () => {
      assert.deepEqual(await collect(pieces(sseStream(eol), [])), EXPECTED_IN_ONE_READ);
      assert.deepEqual(await collect(pieces(sseStream(eol, { multiLine: true }), [])), EXPECTED_IN_ONE_READ);
    });
  }

  it('any split of the byte stream yields the same events, deltas of one read joined (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Framing>('\n', '\r\n', '\r'),
        fc.boolean(),
        fc.array(fc.nat({ max: 4000 }), { maxLength: 40 }),
        async (eol, multiLine, cuts) => {
          assert.deepEqual(merged(await collect(pieces(sseStream(eol, { multiLine }), cuts))), EXPECTED_IN_ONE_READ);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('one byte at a time: each delta its own event, as each arrives in its own read', async () => {
    const bytes = sseStream('\r\n', { multiLine: true });
    assert.deepEqual(
      await collect(
        pieces(
          bytes,
          Array.from({ length: bytes.length }, (_, i) => i),
        ),
      ),
      EXPECTED,
    );
  });

  it('a stream without [DONE] is cut off, carrying the text so far', async () => {
    await assert.rejects(collect(pieces(sseStream('\n', { done: false }), [7, 300])), (error: unknown) => {
      return error instanceof ApiError && error.kind === 'cut-off' && error.receivedChars === 'Héllo, wörld 🎬'.length;
    });
  });

  it('[DONE] without a finish reason is cut off too', async () => {
    const bytes = Buffer.from(`data: ${chunk({ content: 'half' })}\n\ndata: [DONE]\n\n`);
    await assert.rejects(
      collect(pieces(bytes, [])),
      (error: unknown) => error instanceof ApiError && error.kind === 'cut-off' && error.receivedChars === 'half'.length,
    );
  });

  it('a mid-stream error ends the stream with an ApiError after the text before it', async () => {
    const bytes = Buffer.from(
      `data: ${chunk({ content: 'Hi' })}\n\ndata: {"error":{"message":"upstream overloaded (request id: r1)","type":"server_error","code":"503"}}\n\n`,
    );
    const seen: ChatStreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of decodeChatStream(pieces(bytes, []))) seen.push(event);
      })(),
      (error: unknown) =>
        error instanceof ApiError && error.kind === 'stream' && error.status === 503 && error.requestId === 'r1' && error.receivedChars === 'Hi'.length,
    );
    assert.deepEqual(seen, [{ type: 'text', text: 'Hi' }]);
  });

  it('drops payloads that are not JSON or not chunks, and keeps going', async () => {
    const bytes = Buffer.from(`data: nonsense\n\ndata: {"choices":"wrong"}\n\ndata: ${chunk({ content: 'ok' }, 'stop')}\n\ndata: [DONE]\n\n`);
    assert.deepEqual(await collect(pieces(bytes, [])), [
      { type: 'text', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it("passes a provider's own finish reason through", async () => {
    const bytes = Buffer.from(`data: ${chunk({ content: 'x' }, 'MAX_TOKENS_REACHED')}\n\ndata: [DONE]\n\n`);
    assert.deepEqual((await collect(pieces(bytes, []))).at(-1), { type: 'finish', reason: 'MAX_TOKENS_REACHED' });
  });
});
