import * as assert from 'node:assert/strict';
import { describeBaseUrlInput, normalizeBaseUrl, withoutCredentials } from '../../../src/api/baseUrl';
import type { ChatStreamEvent } from '../../../src/api/chat/events';
import { ApiError } from '../../../src/api/errors';
import { SecretRedactor } from '../../../src/common/redactor';
import { ConnectionDoctor } from '../../../src/doctor/core/connectionDoctor';
import { clientFor, collect, MemoryLogger, useLocalService } from '../support/localService';

// Where outside text and bytes enter the extension: bounded reads, redacted server text, base URLs, odd 200s.

const ask = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'hello there' }] };
const MB = 1024 * 1024;

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ApiError, `an ApiError, not ${String(error)}`);
    return error;
  }
  assert.fail('expected a rejection');
}

const textOf = (events: ChatStreamEvent[]) => events.map((event) => (event.type === 'text' ? event.text : '')).join('');
const allText = (error: ApiError) => [error.message, error.hint, error.serverMessage ?? ''].join(' | ');

describe('boundaries of the API layer', () => {
  const ctx = useLocalService();

  describe('issue 11.8: every body read is bounded', () => {
    it('issue 11.8: a model list of 64 MB fails with "the service sent … MB", without reading it to its end', async () => {
      ctx.service.setScenario({ modelsPaddingBytes: 64 * MB });
      const error = await rejection(clientFor(ctx.service, { retry: { retries: 0 } }).listModels());
      assert.equal(error.kind, 'invalid-response');
      assert.match(error.message, /Listing models: the service sent 16\.\d MB, more than the 16\.0 MB/);
      await ctx.service.waitForSocketsClosed(5_000);
      assert.ok(ctx.service.runawayBytesWritten() < 32 * MB, `the service wrote ${ctx.service.runawayBytesWritten()} bytes before the client hung up`);
    });

    it('issue 11.8: an SSE event that never ends fails once it passes the per-event limit', async () => {
      ctx.service.setScenario({ chat: { endlessEventBytes: 64 * MB } });
      const error = await rejection(collect(clientFor(ctx.service).streamChatCompletion(ask)));
      assert.equal(error.kind, 'invalid-response');
      assert.match(error.message, /without ending an event \(Promptreel reads at most 8 MB per event\)/);
      await ctx.service.waitForSocketsClosed(5_000);
      assert.ok(ctx.service.runawayBytesWritten() < 24 * MB, `the service wrote ${ctx.service.runawayBytesWritten()} bytes`);
    });

    it('issue 11.8: an answer below the limit is read whole', async () => {
      ctx.service.setScenario({ modelsPaddingBytes: 2 * MB });
      const models = await clientFor(ctx.service).listModels();
      assert.ok(models.some((model) => model.id === 'promptreel-chat'));
    });
  });

  describe('issue 11.12: a key echoed by the server is redacted where the text enters', () => {
    it('issue 11.12: an HTTP error that repeats the key carries no key in message, hint or server message', async () => {
      ctx.service.setScenario({ fault: { status: 401, echoKey: true } });
      const error = await rejection(clientFor(ctx.service).listModels());
      assert.ok(!allText(error).includes(ctx.service.demoKey), allText(error));
      assert.match(error.serverMessage ?? '', /\(token: \*\*\*\)/);
    });

    it('issue 11.12: a key registered with the redactor (another key of the user) is hidden too', async () => {
      const redactor = new SecretRedactor();
      redactor.register('other-secret-of-the-user');
      ctx.service.setScenario({ fault: { status: 400, message: 'bad request for other-secret-of-the-user' } });
      const error = await rejection(clientFor(ctx.service, { redact: (text) => redactor.redact(text) }).listModels());
      assert.ok(!allText(error).includes('other-secret-of-the-user'), allText(error));
    });

    it('issue 11.12: a mid-stream error that repeats the key is redacted', async () => {
      const key = ctx.service.demoKey;
      ctx.service.setScenario({
        chat: { midStreamError: { afterChunks: 1, message: `quota of ${key} exhausted`, code: 'insufficient_user_quota', type: 'new_api_error' } },
      });
      const error = await rejection(collect(clientFor(ctx.service).streamChatCompletion(ask)));
      assert.equal(error.kind, 'stream');
      assert.ok(!allText(error).includes(key), allText(error));
    });
  });

  describe('issue 11.13: credentials in the base URL are refused and never echoed', () => {
    it('issue 11.13: a valid URL with user:pass@ is refused with a message that names the API key', () => {
      assert.throws(
        () => normalizeBaseUrl('https://alice:s3cret-pass@api.example.com/v1'),
        (error: unknown) =>
          error instanceof ApiError &&
          /user name or password/.test(error.message) &&
          /Set API Key/.test(error.hint) &&
          !error.message.includes('s3cret-pass') &&
          !error.message.includes('alice'),
      );
    });

    it('issue 11.13: an invalid URL with credentials is refused without echoing them', () => {
      for (const input of ['https://alice:s3cret pass@api example.com', 'alice:s3cret-pass@api.example.com']) {
        assert.throws(
          () => normalizeBaseUrl(input),
          (error: unknown) => error instanceof ApiError && !error.message.includes('s3cret') && !error.message.includes('alice'),
        );
      }
      assert.throws(
        () => describeBaseUrlInput('https://bob:pw-123456@host'),
        (error: unknown) => error instanceof ApiError && !error.message.includes('pw-123456'),
      );
    });

    it('issue 11.13: withoutCredentials keeps the rest of the address', () => {
      assert.equal(withoutCredentials('https://u:p@host:8080/api/v1'), 'https://***@host:8080/api/v1');
      assert.equal(withoutCredentials('https://host:8080/api/v1?x=a'), 'https://host:8080/api/v1?x=a');
    });
  });

  describe('issue 11.15: a 200 to a streamed request that is not an event stream', () => {
    it('issue 11.15: a whole chat.completion JSON is used as the reply', async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'completion-json' } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask));
      assert.equal(textOf(events), 'You said: hello there');
      assert.ok(events.some((event) => event.type === 'finish'));
    });

    it('issue 11.15: the same JSON labelled text/event-stream is still the reply', async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'completion-json', streamContentType: 'text/event-stream' } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask));
      assert.equal(textOf(events), 'You said: hello there');
    });

    it("issue 11.15: a JSON error with 200 keeps the server's message and code", async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'error-json', streamContentType: 'text/plain' } });
      const error = await rejection(collect(clientFor(ctx.service).streamChatCompletion(ask)));
      assert.equal(error.code, 'model_overloaded');
      assert.match(error.serverMessage ?? '', /upstream refused: model overloaded/);
      assert.ok(!/SyntaxError|cut off/i.test(error.message), error.message);
    });

    for (const [answer, quoted] of [
      ['html', /text\/html, starting "<!DOCTYPE html><html><head><title>Sign in - Corporate Proxy/],
      ['text', /text\/plain, starting "Service temporarily unavailable/],
      ['empty', /text\/event-stream, empty/],
    ] as const) {
      it(`issue 11.15: a 200 ${answer} answer is a clear error quoting what arrived`, async () => {
        ctx.service.setScenario({ chat: { streamAnswer: answer } });
        const log = new MemoryLogger();
        const error = await rejection(collect(clientFor(ctx.service, { log }).streamChatCompletion(ask)));
        assert.equal(error.kind, 'invalid-response');
        assert.match(error.message, /answered without an event stream/);
        assert.match(error.message, quoted);
      });
    }

    it('issue 11.15: a real event stream still streams (the first bytes are put back)', async () => {
      ctx.service.setScenario({ chat: { comments: true, chunkChars: 2 } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask));
      assert.equal(textOf(events), 'You said: hello there');
    });

    it('issue 11.15: telling the stream apart changes nothing in it: one text event per character sent (#long, chunkChars 1)', async () => {
      ctx.service.setScenario({ chat: { chunkChars: 1 } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion({ ...ask, messages: [{ role: 'user', content: '#long' }] }));
      const texts = events.filter((event) => event.type === 'text');
      assert.ok(texts.length > 10_000, `${texts.length} text events`);
      assert.equal(textOf(events).length, texts.length, 'no event merged into another');
    });
  });
  describe('nothing between scheme:// (or //) and the last @ is ever echoed', () => {
    const typed = [
      'https://alice:pa/ss-4u7z@api.example.com/v1',
      'https://alice:pa?ss-4u7z@api.example.com',
      'https://alice:pa#ss-4u7z@api.example.com/v1',
      '//alice:pass-4u7z@api.example.com',
      'https://alice#pass-4u7z@api.example.com',
      'https://alice:1234/pass-4u7z@api.example.com/v1',
    ];
    const leaks = (text: string) => /alice|pa.?ss-4u7z|1234/.test(text);

    it('review 2.13: a base URL whose password holds /, ? or #, or that starts with //, is refused without echoing it', () => {
      for (const input of typed) {
        assert.throws(
          () => normalizeBaseUrl(input),
          (error: unknown) => error instanceof ApiError && !leaks(`${error.message} ${error.hint}`),
          input,
        );
        assert.equal(withoutCredentials(input).includes('***@api.example.com'), true, withoutCredentials(input));
        assert.ok(!leaks(withoutCredentials(input)), withoutCredentials(input));
      }
    });

    it('review 2.13: Test Connection names such a base URL without what precedes its last @', async () => {
      for (const input of typed) {
        const result = await new ConnectionDoctor({
          baseUrlInput: () => input,
          apiKey: () => Promise.resolve({ key: 'k', source: 'secret-storage' }),
          // Never connects: such a base URL could name another host than the one meant.
          createClient: () => {
            throw new Error('not connected in this test');
          },
          chatModel: () => '',
          videoModel: () => '',
        }).run();
        assert.equal(result.ok, false, input);
        assert.ok(!leaks(`${result.message} ${JSON.stringify(result.steps)}`), `${input}: ${result.message}`);
      }
    });
  });

  describe('a 200 not labelled as an event stream is one only if it parses as one', () => {
    it('review 2.14: a text/plain "rate limit exceeded" is quoted as what arrived, not taken for a cut stream', async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'rate-limit-text' } });
      const error = await rejection(collect(clientFor(ctx.service).streamChatCompletion(ask)));
      assert.equal(error.kind, 'invalid-response');
      assert.equal(error.message, 'The chat request: the service answered without an event stream (text/plain, starting "rate limit exceeded").');
    });

    it('review 2.14: what the text is quoted with passes the redactor', async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'rate-limit-text' } });
      const redactor = new SecretRedactor();
      redactor.register('exceeded');
      const error = await rejection(collect(clientFor(ctx.service, { redact: (text) => redactor.redact(text) }).streamChatCompletion(ask)));
      assert.match(error.message, /starting "rate limit \*\*\*"/);
    });

    for (const contentType of ['text/plain', 'application/octet-stream']) {
      it(`an event stream labelled ${contentType} still streams`, async () => {
        ctx.service.setScenario({ chat: { streamContentType: contentType, comments: true, eventFields: true, framing: 'crlf' } });
        const events = await collect(clientFor(ctx.service).streamChatCompletion(ask));
        assert.equal(textOf(events), 'You said: hello there');
      });
    }
  });

  describe('one reply is bounded in size and in tool calls', () => {
    it('review 2.15: a stream that never ends stops at the size bound with a clear error, and its socket is closed', async () => {
      ctx.service.setScenario({ chat: { endlessChunkChars: 64 * 1024 } });
      let received = 0;
      const controller = new AbortController();
      const error = await rejection(
        (async () => {
          for await (const event of clientFor(ctx.service).streamChatCompletion(ask, controller.signal)) {
            if (event.type === 'text') received += event.text.length;
            if (received > 64 * MB) controller.abort();
          }
        })(),
      );
      assert.notEqual(error.kind, 'aborted', `read ${(received / MB).toFixed(0)} MB of an endless reply without an error`);
      assert.equal(error.kind, 'invalid-response');
      assert.equal(error.message, 'The reply was stopped: it passed 16 million characters, the most Promptreel reads of one reply.');
      assert.ok(received <= 16 * MB, `${received} characters handed out`);
      await ctx.service.waitForSocketsClosed(5_000);
    });

    const manyCalls = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ name: 'promptreel_readFile', arguments: { path: `file-${index}.ts` } }));

    for (const streams of [true, false]) {
      it(`review 2.15: a reply with 500 tool calls fails naming the bound (${streams ? 'streamed' : 'whole answer'})`, async () => {
        ctx.service.setScenario({ chat: { toolScript: [manyCalls(500)] } });
        const client = clientFor(ctx.service, { streams: () => streams });
        const error = await rejection(collect(client.streamChatCompletion(ask)));
        assert.equal(error.kind, 'invalid-response');
        assert.equal(error.message, 'The reply calls more than 128 tools, the most Promptreel takes from one reply: none of them was run.');
      });
    }

    it('a reply with 128 tool calls is read whole', async () => {
      ctx.service.setScenario({ chat: { toolScript: [manyCalls(128)] } });
      const events = await collect(clientFor(ctx.service).streamChatCompletion(ask));
      const calls = events.find((event) => event.type === 'tool-calls');
      assert.equal(calls?.type === 'tool-calls' ? calls.calls.length : 0, 128);
    });
  });
});
