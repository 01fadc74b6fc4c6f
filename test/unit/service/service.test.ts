import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { DEMO_KEY, filmClipBytes, patternBytes, sampleBytes, startLocalService, tlsFixture, type LocalService } from '../../service/index';
import { useLocalService } from '../support/localService';

/** The local service itself, over real sockets, with Node's fetch and http only. */

type Json = Record<string, unknown>;

/** The service of the describe block below (the unit tier's fixture). */
let ctx: { readonly service: LocalService };

function url(path: string): string {
  return `${ctx.service.baseUrl}${path}`;
}

function auth(key = DEMO_KEY): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
}

async function getJson(path: string, key = DEMO_KEY): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(url(path), { headers: auth(key) });
  return { status: response.status, body: (await response.json()) as Json, headers: response.headers };
}

async function postJson(path: string, body: unknown, key = DEMO_KEY): Promise<{ status: number; body: Json; headers: Headers }> {
  const response = await fetch(url(path), { method: 'POST', headers: auth(key), body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : {}) as Json, headers: response.headers };
}

function chatBody(content: unknown, extra: Json = {}): Json {
  return { model: 'promptreel-chat', messages: [{ role: 'user', content }], ...extra };
}

async function streamText(body: Json): Promise<string> {
  const response = await fetch(url('/v1/chat/completions'), { method: 'POST', headers: auth(), body: JSON.stringify({ ...body, stream: true }) });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  return response.text();
}

/** A minimal SSE parser (LF, CRLF or CR line ends; comments; multi-line data): the data of each event. */
function sseData(text: string): string[] {
  const events: string[] = [];
  let data: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === '') {
      if (data.length) events.push(data.join('\n'));
      data = [];
    } else if (line.startsWith('data:')) {
      data.push(line.slice(5).replace(/^ /, ''));
    }
  }
  return events;
}

function chunks(events: string[]): Json[] {
  return events.filter((event) => event !== '[DONE]').map((event) => JSON.parse(event) as Json);
}

function deltas(events: string[]): Json[] {
  return chunks(events).flatMap((chunk) => (chunk['choices'] as Json[]).map((choice) => choice['delta'] as Json));
}

function joined(events: string[], field: string): string {
  return deltas(events)
    .map((delta) => delta[field])
    .filter((value): value is string => typeof value === 'string')
    .join('');
}

function finishReasons(events: string[]): unknown[] {
  return chunks(events)
    .flatMap((chunk) => (chunk['choices'] as Json[]).map((choice) => choice['finish_reason']))
    .filter((reason) => reason !== null);
}

function at(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((current, key) => (current as Json | undefined)?.[key], value);
}

async function createTask(extra: Json = {}): Promise<string> {
  const created = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'a cat', seconds: '5', ...extra });
  assert.equal(created.status, 200);
  const id = created.body['id'] ?? created.body['task_id'] ?? at(created.body, 'data.task_id');
  assert.equal(typeof id, 'string');
  return id as string;
}

async function controlTasks(): Promise<Json[]> {
  return ((await (await fetch(url('/__control/tasks'))).json()) as { tasks: Json[] }).tasks;
}

describe('local service', () => {
  ctx = useLocalService();

  describe('auth and routes', () => {
    it('needs a valid Bearer key, answering 401 invalid_api_key with a request id', async () => {
      const missing = await fetch(url('/v1/models'));
      assert.equal(missing.status, 401);
      const wrong = await getJson('/v1/models', 'sk-wrong');
      assert.equal(wrong.status, 401);
      assert.equal(at(wrong.body, 'error.code'), 'invalid_api_key');
      assert.match(String(at(wrong.body, 'error.message')), /\(request id: \d{17}\w+\)$/);
      ctx.service.addKey('sk-wrong');
      assert.equal((await getJson('/v1/models', 'sk-wrong')).status, 200);
    });

    it('lists the models with their endpoint types', async () => {
      const { body } = await getJson('/v1/models');
      assert.equal(body['object'], 'list');
      const data = body['data'] as Json[];
      assert.deepEqual(
        data.map((model) => model['id']),
        ['promptreel-chat', 'promptreel-reasoner', 'promptreel-video'],
      );
      assert.deepEqual(data[2]['supported_endpoint_types'], ['openai-video']);
    });

    it('answers 404 Invalid URL for a doubled or a missing /v1', async () => {
      const doubled = await getJson('/v1/v1/models');
      assert.equal(doubled.status, 404);
      assert.deepEqual(doubled.body, {
        error: { message: 'Invalid URL (GET /v1/v1/models)', type: 'invalid_request_error', code: 'not_found' },
      });
      assert.equal((await getJson('/models')).status, 404);
    });

    it('gives a key its own scenario on top of the default', async () => {
      ctx.service.setKeyScenario('sk-other', { models: [{ id: 'only-this' }] });
      const other = await getJson('/v1/models', 'sk-other');
      assert.deepEqual(
        (other.body['data'] as Json[]).map((model) => model['id']),
        ['only-this'],
      );
      assert.equal(((await getJson('/v1/models')).body['data'] as Json[]).length, 3);
    });

    it('records every request with lower-cased headers, parsed body and key', async () => {
      await postJson('/v1/chat/completions', chatBody('hi'));
      const [record] = ctx.service.requests;
      assert.equal(record.method, 'POST');
      assert.equal(record.path, '/v1/chat/completions');
      assert.equal(record.key, DEMO_KEY);
      assert.equal(record.headers['authorization'], `Bearer ${DEMO_KEY}`);
      assert.deepEqual(record.body, chatBody('hi'));
    });

    it('adds latencyMs before answering', async () => {
      ctx.service.setScenario({ latencyMs: 80 });
      const started = Date.now();
      await getJson('/v1/models');
      assert.ok(Date.now() - started >= 75);
    });

    it('trickles every GET answer with trickleMs, one byte at a time and without end', async () => {
      ctx.service.setScenario({ trickleMs: 10 });
      const controller = new AbortController();
      const response = await fetch(url('/v1/models'), { headers: auth(), signal: controller.signal });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const reader = response.body!.getReader();
      let received = '';
      while (received.length < 40) received += Buffer.from((await reader.read()).value ?? []).toString();
      assert.match(received, /^\{"object":"list","data":\[ +$/);
      controller.abort();
    });
  });

  describe('faults', () => {
    it('sends the openai body shape with code, param, type and a request id', async () => {
      ctx.service.setScenario({ fault: { status: 403, body: 'openai', code: 'insufficient_user_quota', param: 'model', message: '额度不足' } });
      const { status, body } = await getJson('/v1/models');
      assert.equal(status, 403);
      assert.equal(at(body, 'error.code'), 'insufficient_user_quota');
      assert.equal(at(body, 'error.param'), 'model');
      assert.equal(typeof at(body, 'error.type'), 'string');
      assert.match(String(at(body, 'error.message')), /^额度不足 \(request id: \w+\)$/);
      assert.equal(ctx.service.requests.length, 1);
    });

    it('sends the task body shape', async () => {
      ctx.service.setScenario({ fault: { status: 400, body: 'task', code: 'task_not_exist', requestId: false } });
      const { status, body } = await getJson('/v1/videos/task_x');
      assert.equal(status, 400);
      assert.deepEqual(Object.keys(body).sort(), ['code', 'data', 'message']);
      assert.equal(body['code'], 'task_not_exist');
      assert.equal(body['data'], null);
    });

    it('sends an empty body with Retry-After on 429', async () => {
      ctx.service.setScenario({ fault: { status: 429, body: 'empty', retryAfter: '2' } });
      const response = await fetch(url('/v1/models'), { headers: auth() });
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.equal(await response.text(), '');
    });

    it('sends an nginx-like HTML page', async () => {
      ctx.service.setScenario({ fault: { status: 502, body: 'html' } });
      const response = await fetch(url('/v1/models'), { headers: auth() });
      assert.equal(response.status, 502);
      assert.match(response.headers.get('content-type') ?? '', /text\/html/);
      assert.match(await response.text(), /<title>502 Bad Gateway<\/title>[\s\S]*nginx/);
    });

    it('clears itself after `times` and matches method and path', async () => {
      ctx.service.setScenario({ fault: { status: 503, times: 1, method: 'POST', path: '^/v1/videos$' } });
      assert.equal((await getJson('/v1/models')).status, 200);
      assert.equal((await postJson('/v1/videos', { model: 'm', prompt: 'p' })).status, 503);
      assert.equal((await postJson('/v1/videos', { model: 'm', prompt: 'p' })).status, 200);
      assert.equal(ctx.service.scenario().fault, null);
    });

    it('checks the key before a fault, except 401/403 faults which play key problems', async () => {
      ctx.service.setScenario({ fault: { status: 500 } });
      assert.equal((await getJson('/v1/models', 'sk-bad')).status, 401);
      ctx.service.setScenario({ fault: { status: 403, code: 'pre_consume_token_quota_failed' } });
      const { status, body } = await getJson('/v1/models', 'sk-bad');
      assert.equal(status, 403);
      assert.equal(at(body, 'error.code'), 'pre_consume_token_quota_failed');
    });
  });

  describe('chat', () => {
    it('issue 27: replies by turn: a conversation with N assistant messages gets replies[N], then the usual rules', async () => {
      ctx.service.setScenario({ chat: { replies: ['first', 'second'] } });
      const answer = async (messages: Json[]) => {
        const { body } = await postJson('/v1/chat/completions', { model: 'promptreel-chat', messages });
        return at(body, 'choices.0.message.content');
      };
      const user = { role: 'user', content: 'hello' };
      assert.equal(await answer([user]), 'first');
      assert.equal(await answer([user]), 'first', 'by turn, not by count of requests');
      assert.equal(await answer([user, { role: 'assistant', content: 'first' }, user]), 'second');
      assert.equal(await answer([user, { role: 'assistant', content: 'a' }, user, { role: 'assistant', content: 'b' }, user]), 'You said: hello');
    });

    it('issue 27: instructions that ask for a storyboard in JSON get one about the code, fenced', async () => {
      ctx.service.setScenario({ chat: { storyboardShots: 4 } });
      const { body } = await postJson('/v1/chat/completions', {
        model: 'promptreel-chat',
        messages: [
          { role: 'system', content: 'You write storyboards for films. Reply with one JSON object.' },
          { role: 'user', content: 'function parseInvoice(text) { return splitLines(text); }' },
        ],
        response_format: { type: 'json_object' },
      });
      const content = String(at(body, 'choices.0.message.content'));
      const json = /```json\n([\s\S]*)\n```/.exec(content)?.[1];
      assert.ok(json, content);
      const storyboard = JSON.parse(json) as { title: string; shots: { prompt: string; caption: string; seconds: number }[] };
      assert.equal(storyboard.title, 'How parseInvoice works');
      assert.equal(storyboard.shots.length, 4);
      assert.ok(storyboard.shots.every((shot) => shot.prompt && shot.caption && shot.seconds === 5));
    });

    it('answers non-streamed with the documented shape and usage, not echoing the system message', async () => {
      const { status, body } = await postJson('/v1/chat/completions', {
        model: 'promptreel-chat',
        messages: [
          { role: 'system', content: 'secret system text' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } },
            ],
          },
        ],
      });
      assert.equal(status, 200);
      assert.equal(body['object'], 'chat.completion');
      const choice = (body['choices'] as Json[])[0];
      assert.deepEqual(choice['message'], { role: 'assistant', content: 'You said: look [+1 image]' });
      assert.equal(choice['finish_reason'], 'stop');
      const usage = body['usage'] as Json;
      assert.equal(usage['total_tokens'], Number(usage['prompt_tokens']) + Number(usage['completion_tokens']));
    });

    it('replies deterministically: JSON mode, max_tokens 1, #xss, tool result', async () => {
      const reply = async (body: Json) => at(((await postJson('/v1/chat/completions', body)).body['choices'] as Json[])[0], 'message.content');
      assert.deepEqual(JSON.parse(String(await reply(chatBody('hi', { response_format: { type: 'json_object' } })))), { echo: 'hi', model: 'promptreel-chat' });
      const one = await postJson('/v1/chat/completions', chatBody('hi', { max_tokens: 1 }));
      assert.equal(at((one.body['choices'] as Json[])[0], 'message.content'), 'OK');
      assert.equal((one.body['choices'] as Json[])[0]['finish_reason'], 'length');
      const xss = String(await reply(chatBody('#xss')));
      assert.ok(xss.includes('<img src=x onerror="window.__xss=1">') && xss.includes('<script>window.__xss=2</script>'));
      assert.ok(xss.includes('[click](javascript:window.__xss=3)'));
      const tool = await reply({
        model: 'promptreel-chat',
        messages: [
          { role: 'user', content: 'call get_weather' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: 'c1', content: 'sunny' },
        ],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: {} } } }],
      });
      assert.equal(tool, 'Tool result received: sunny');
    });

    it('validates like a gateway: model, messages, temperature', async () => {
      const noModel = await postJson('/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] });
      assert.equal(noModel.status, 400);
      assert.equal(at(noModel.body, 'error.param'), 'model');
      assert.equal((await postJson('/v1/chat/completions', { model: 'm', messages: [] })).status, 400);
      const hot = await postJson('/v1/chat/completions', chatBody('x', { temperature: 2.5 }));
      assert.equal(hot.status, 400);
      assert.equal(at(hot.body, 'error.param'), 'temperature');
    });

    it('streams role, content, finish, usage and [DONE] with CRLF, comments, event fields and multi-line data', async () => {
      ctx.service.setScenario({ chat: { framing: 'crlf', comments: true, eventFields: true, multiLineData: true, chunkChars: 3 } });
      const text = await streamText(chatBody('hello world'));
      assert.ok(text.includes('\r\n') && !/[^\r]\n/.test(text));
      assert.ok(text.includes(': PING') && text.includes('event: message') && text.includes('retry: 3000'));
      const events = sseData(text);
      assert.equal(events.at(-1), '[DONE]');
      assert.ok(
        events.some((event) => event.includes('\n')),
        'some data spans several lines',
      );
      assert.equal(deltas(events)[0]['role'], 'assistant');
      assert.equal(joined(events, 'content'), 'You said: hello world');
      assert.deepEqual(finishReasons(events), ['stop']);
      const last = chunks(events).at(-1) as Json;
      assert.deepEqual(last['choices'], []);
      assert.ok(last['usage']);
    });

    it('streams with CR framing and reasoning deltas', async () => {
      ctx.service.setScenario({ chat: { framing: 'cr', reasoning: 'reasoning' } });
      const text = await streamText(chatBody('hi'));
      assert.ok(!text.includes('\n'));
      const events = sseData(text);
      assert.equal(events.at(-1), '[DONE]');
      assert.ok(joined(events, 'reasoning').length > 0);
      assert.equal(joined(events, 'content'), 'You said: hi');
    });

    it('streams tool-call fragments by index with finish_reason tool_calls', async () => {
      const events = sseData(
        await streamText({
          ...chatBody('use get_weather and get_time'),
          tools: ['get_weather', 'get_time'].map((name) => ({
            type: 'function',
            function: { name, parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } } } },
          })),
        }),
      );
      const fragments = deltas(events).flatMap((delta) => (delta['tool_calls'] as Json[] | undefined) ?? []);
      const byIndex = new Map<number, { name: string; args: string }>();
      for (const fragment of fragments) {
        const index = Number(fragment['index']);
        const entry = byIndex.get(index) ?? { name: '', args: '' };
        entry.name += String(at(fragment, 'function.name') ?? '');
        entry.args += String(at(fragment, 'function.arguments') ?? '');
        byIndex.set(index, entry);
      }
      assert.deepEqual(
        [...byIndex.values()].map((call) => call.name),
        ['get_weather', 'get_time'],
      );
      assert.deepEqual(JSON.parse(byIndex.get(0)?.args ?? ''), { city: 'example', days: 1 });
      assert.ok(fragments.filter((fragment) => Number(fragment['index']) === 0).length > 2, 'arguments come in pieces');
      assert.deepEqual(finishReasons(events), ['tool_calls']);
    });

    it('sends a mid-stream error and ends without [DONE]', async () => {
      ctx.service.setScenario({ chat: { midStreamError: { afterChunks: 1, message: 'upstream overloaded', code: 'upstream_error', type: 'server_error' } } });
      const events = sseData(await streamText(chatBody('hello there, friend')));
      assert.notEqual(events.at(-1), '[DONE]');
      assert.deepEqual(JSON.parse(events.at(-1) ?? ''), { error: { message: 'upstream overloaded', type: 'server_error', code: 'upstream_error' } });
    });

    it("cut 'no-done' ends after the finish chunk; 'no-finish' breaks the connection", async () => {
      ctx.service.setScenario({ chat: { cut: 'no-done' } });
      const events = sseData(await streamText(chatBody('hi')));
      assert.deepEqual(finishReasons(events), ['stop']);
      assert.ok(!events.includes('[DONE]'));

      ctx.service.setScenario({ chat: { cut: 'no-finish', cutAfterChunks: 2 } });
      const response = await fetch(url('/v1/chat/completions'), {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify(chatBody('hello world again', { stream: true })),
      });
      await assert.rejects(response.text());
    });

    it('stalls with the socket open until the client aborts', async () => {
      ctx.service.setScenario({ chat: { stallAfterChunks: 1 } });
      const controller = new AbortController();
      const response = await fetch(url('/v1/chat/completions'), {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify(chatBody('hello world', { stream: true })),
        signal: controller.signal,
      });
      const reader = response.body?.getReader();
      assert.ok(reader);
      const first = await reader.read();
      assert.ok(new TextDecoder().decode(first.value).includes('assistant'));
      const next = reader.read();
      const pending = await Promise.race([next.then(() => 'data'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 150))]);
      assert.equal(pending, 'waiting');
      assert.equal(ctx.service.activeRequests(), 1);
      controller.abort();
      await next.catch(() => undefined);
      await ctx.service.waitForSocketsClosed(2000);
      assert.equal(ctx.service.openSockets(), 0);
      assert.equal(ctx.service.activeRequests(), 0);
    });

    it("answers a streamed request with a proxy's `rate limit exceeded`, and labels an event stream as streamContentType says", async () => {
      ctx.service.setScenario({ chat: { streamAnswer: 'rate-limit-text' } });
      const limited = await fetch(url('/v1/chat/completions'), { method: 'POST', headers: auth(), body: JSON.stringify(chatBody('hi', { stream: true })) });
      assert.equal(limited.status, 200);
      assert.equal(limited.headers.get('content-type'), 'text/plain');
      assert.equal(await limited.text(), 'rate limit exceeded');
      ctx.service.setScenario({ chat: { streamAnswer: 'sse', streamContentType: 'text/plain' } });
      const labelled = await fetch(url('/v1/chat/completions'), { method: 'POST', headers: auth(), body: JSON.stringify(chatBody('hi', { stream: true })) });
      assert.equal(labelled.headers.get('content-type'), 'text/plain');
      assert.equal(joined(sseData(await labelled.text()), 'content'), 'You said: hi');
    });

    it('streams content chunks of endlessChunkChars without end', async () => {
      ctx.service.setScenario({ chat: { endlessChunkChars: 1000 } });
      const controller = new AbortController();
      const response = await fetch(url('/v1/chat/completions'), {
        method: 'POST',
        headers: auth(),
        body: JSON.stringify(chatBody('hi', { stream: true })),
        signal: controller.signal,
      });
      const reader = response.body!.getReader();
      let received = '';
      while (received.length < 200_000) received += Buffer.from((await reader.read()).value ?? []).toString();
      controller.abort();
      const contents = deltas(sseData(received.slice(0, received.lastIndexOf('\n\n') + 2))).map((delta) => delta['content']);
      assert.ok(contents.length > 150, `${contents.length} chunks`);
      assert.ok(contents.slice(1).every((content) => content === 'x'.repeat(1000)));
    });

    it('bulk mode sends exactly N chunks of the given size', async () => {
      ctx.service.setScenario({ chat: { bulk: { chunks: 1000, chunkChars: 16 } } });
      const events = sseData(await streamText(chatBody('bench')));
      const contents = deltas(events)
        .map((delta) => delta['content'])
        .filter((content): content is string => typeof content === 'string' && content.length > 0);
      assert.equal(contents.length, 1000);
      assert.ok(contents.every((content) => content.length === 16));
      assert.equal(events.at(-1), '[DONE]');
    });
  });

  describe('videos', () => {
    it('goes queued → in_progress (10, 50) → completed in lower case', async () => {
      const created = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'a cat', seconds: '5' });
      assert.equal(created.body['status'], 'queued');
      assert.equal(created.body['id'], created.body['task_id']);
      const id = String(created.body['id']);
      assert.match(id, /^task_[A-Za-z0-9]{24}$/);
      const seen: unknown[][] = [];
      for (let i = 0; i < 3; i++) {
        const { body } = await getJson(`/v1/videos/${id}`);
        seen.push([body['status'], body['progress'], at(body, 'metadata.url')]);
      }
      assert.deepEqual(seen.slice(0, 2), [
        ['in_progress', 10, ''],
        ['in_progress', 50, ''],
      ]);
      assert.equal(seen[2][0], 'completed');
      assert.equal(seen[2][2], ctx.service.task(id)?.url);
      assert.match(String(seen[2][2]), new RegExp(`^${ctx.service.cdnUrl}/files/${id}\\.mp4\\?sig=\\w+$`));
    });

    it('plays upper case, percent strings, a custom running status and the data envelope', async () => {
      ctx.service.setScenario({
        video: {
          statusCase: 'upper',
          pollsToRunning: 3,
          pollsToDone: 4,
          progress: 'percent-string',
          customRunningStatus: 'rendering',
          createShape: 'data-envelope',
        },
      });
      const created = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'p' });
      assert.equal(created.body['code'], 'success');
      const id = String(at(created.body, 'data.task_id'));
      const statuses: unknown[] = [at(created.body, 'data.status')];
      let last: Json = {};
      for (let i = 0; i < 4; i++) {
        last = (await getJson(`/v1/videos/${id}`)).body;
        statuses.push(at(last, 'data.status'));
      }
      assert.deepEqual(statuses, ['NOT_START', 'SUBMITTED', 'QUEUED', 'rendering', 'SUCCESS']);
      assert.equal(at(last, 'data.progress'), '100%');
    });

    it('answers task-id-only and reports failures in each style', async () => {
      ctx.service.setScenario({ video: { createShape: 'task-id-only', outcome: 'failed', pollsToDone: 1 } });
      const created = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'p' });
      assert.deepEqual(Object.keys(created.body).sort(), ['status', 'task_id']);
      const id = String(created.body['task_id']);
      const failed = (await getJson(`/v1/videos/${id}`)).body;
      assert.equal(failed['status'], 'failed');
      assert.equal(typeof at(failed, 'error.message'), 'string');
      ctx.service.setScenario({ video: { failureStyle: 'fail-reason' } });
      assert.equal(typeof (await getJson(`/v1/videos/${id}`)).body['fail_reason'], 'string');
      ctx.service.setScenario({ video: { failureStyle: 'none' } });
      const bare = (await getJson(`/v1/videos/${id}`)).body;
      assert.ok(!('error' in bare) && !('fail_reason' in bare));
    });

    it('puts the address in each urlField', async () => {
      const fields = ['metadata.url', 'video_url', 'url', 'content.video_url', 'result_url', 'data.result_url'] as const;
      for (const urlField of fields) {
        ctx.service.setScenario({ video: { urlField, pollsToDone: 1 } });
        const id = await createTask();
        const { body } = await getJson(`/v1/videos/${id}`);
        assert.equal(at(body, urlField), ctx.service.task(id)?.url, urlField);
      }
      ctx.service.setScenario({ video: { urlField: 'none', pollsToDone: 1 } });
      const id = await createTask();
      const { body } = await getJson(`/v1/videos/${id}`);
      assert.equal(body['status'], 'completed');
      assert.ok(!JSON.stringify(body).includes(ctx.service.cdnUrl));
    });

    it('shows completed_at while running when asked, and follows wall time with durationMs', async () => {
      ctx.service.setScenario({ video: { completedAtWhileRunning: true, durationMs: 200 } });
      const id = await createTask();
      const running = (await getJson(`/v1/videos/${id}`)).body;
      assert.notEqual(running['status'], 'completed');
      assert.equal(typeof running['completed_at'], 'number');
      const deadline = Date.now() + 5_000;
      while ((await getJson(`/v1/videos/${id}`)).body['status'] !== 'completed' && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal((await getJson(`/v1/videos/${id}`)).body['status'], 'completed');
    });

    it('answers an unknown task with task_not_exist as 404 or 400', async () => {
      const missing = await getJson('/v1/videos/task_nope');
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.body, { code: 'task_not_exist', message: 'task_not_exist', data: null });
      ctx.service.setScenario({ video: { unknownTaskStatus: 400 } });
      assert.equal((await getJson('/v1/videos/task_nope')).status, 400);
    });

    it('refuses seconds as a JSON number and a missing prompt, task-style', async () => {
      const numeric = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'p', seconds: 5 });
      assert.equal(numeric.status, 400);
      assert.deepEqual(Object.keys(numeric.body).sort(), ['code', 'data', 'message']);
      assert.equal((await postJson('/v1/videos', { model: 'promptreel-video' })).status, 400);
      assert.equal((await controlTasks()).length, 0);
    });

    it('serves /content with the key, with Range', async () => {
      ctx.service.setScenario({ video: { pollsToDone: 0 } });
      const id = await createTask();
      assert.equal((await fetch(url(`/v1/videos/${id}/content`))).status, 401);
      const whole = await fetch(url(`/v1/videos/${id}/content`), { headers: auth() });
      assert.equal(whole.status, 200);
      assert.deepEqual(Buffer.from(await whole.arrayBuffer()), sampleBytes());
      const part = await fetch(url(`/v1/videos/${id}/content`), { headers: { ...auth(), range: 'bytes=100-199' } });
      assert.equal(part.status, 206);
      assert.equal(part.headers.get('content-range'), `bytes 100-199/${sampleBytes().length}`);
      assert.deepEqual(Buffer.from(await part.arrayBuffer()), sampleBytes().subarray(100, 200));
    });

    it('drops the create connection after making the task', async () => {
      ctx.service.setScenario({ video: { dropCreateConnection: true } });
      const outcome = await new Promise<string>((resolve) => {
        const request = http.request(url('/v1/videos'), { method: 'POST', headers: auth() }, () => resolve('answered'));
        request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
        request.end(JSON.stringify({ model: 'promptreel-video', prompt: 'dropped' }));
      });
      assert.equal(outcome, 'ECONNRESET');
      assert.equal(ctx.service.requests.length, 1);
      assert.deepEqual(ctx.service.requests[0].body, { model: 'promptreel-video', prompt: 'dropped' });
      const tasks = await controlTasks();
      assert.equal(tasks.length, 1);
      assert.equal(tasks[0]['prompt'], 'dropped');
    });
  });

  describe('film clips (issue 27)', () => {
    it('issue 27: each new task takes the next clip of video.clips, served at its address and at /content, and keeps it', async () => {
      ctx.service.setScenario({ video: { pollsToDone: 0, clips: ['shot-a', 'shot-portrait'] } });
      const ids = [await createTask(), await createTask(), await createTask()];
      ctx.service.setScenario({ video: { clips: null } });
      const later = await createTask();
      const expected = [filmClipBytes('shot-a'), filmClipBytes('shot-portrait'), filmClipBytes('shot-a'), sampleBytes()];
      for (const [index, id] of [...ids, later].entries()) {
        const signed = await fetch(String(ctx.service.task(id)?.url));
        assert.deepEqual(Buffer.from(await signed.arrayBuffer()), expected[index], `task ${index + 1} at its address`);
        const content = await fetch(url(`/v1/videos/${id}/content`), { headers: auth() });
        assert.deepEqual(Buffer.from(await content.arrayBuffer()), expected[index], `task ${index + 1} at /content`);
      }
      ctx.service.setScenario({ cdn: { redirects: 2 } });
      const hopped = await fetch(String(ctx.service.task(ids[1])?.url));
      assert.deepEqual(Buffer.from(await hopped.arrayBuffer()), filmClipBytes('shot-portrait'), 'through redirects too');
      ctx.service.reset();
      ctx.service.setScenario({ video: { pollsToDone: 0, clips: ['shot-c', 'shot-b'] } });
      assert.equal(ctx.service.task(await createTask())?.clip, 'shot-c', 'reset() starts the turn again');
    });

    it('issue 27: every clip is a small MP4 (the committed fixtures)', () => {
      for (const clip of ['shot-a', 'shot-b', 'shot-c', 'shot-portrait', 'shot-high'] as const) {
        const bytes = filmClipBytes(clip);
        assert.equal(bytes.toString('latin1', 4, 8), 'ftyp', clip);
        assert.ok(bytes.length < 100_000, `${clip} is ${bytes.length} bytes`);
      }
    });
  });

  describe('CDN', () => {
    it('serves the file after a chain of redirects through a second port, recording Authorization', async () => {
      ctx.service.setScenario({ video: { pollsToDone: 0 }, cdn: { redirects: 3 } });
      const id = await createTask();
      const address = String(ctx.service.task(id)?.url);
      const response = await fetch(address, { headers: { authorization: 'Bearer leaked' } });
      assert.equal(response.status, 200);
      assert.deepEqual(Buffer.from(await response.arrayBuffer()), sampleBytes());
      assert.equal(ctx.service.cdnRequests.length, 4);
      assert.equal(ctx.service.cdnRequests[0].headers['authorization'], 'Bearer leaked');
      assert.equal(ctx.service.cdnRequests[0].key, 'leaked');
      const hosts = new Set(ctx.service.cdnRequests.map((record) => record.headers['host']));
      assert.equal(hosts.size, 2, 'one hop goes to another port');
      const manual = await fetch(address, { redirect: 'manual' });
      assert.equal(manual.status, 302);
    });

    it('answers an expired URL with an S3-like XML error', async () => {
      const task = ctx.service.createTask();
      for (const expired of [403, 404] as const) {
        ctx.service.setScenario({ cdn: { expired } });
        const response = await fetch(task.url);
        assert.equal(response.status, expired);
        assert.match(await response.text(), /^<\?xml[\s\S]*<Error><Code>(AccessDenied|NoSuchKey)<\/Code>/);
      }
    });

    it('redirects into a private network with redirectTo, /content too with answerAtContent, and plays a metadata endpoint', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://localhost:{port}/latest/meta-data/', answerAtContent: true }, video: { pollsToDone: 0 } });
      const id = await createTask();
      const address = await fetch(String(ctx.service.task(id)?.url), { redirect: 'manual' });
      assert.equal(address.status, 302);
      assert.match(address.headers.get('location') ?? '', /^http:\/\/localhost:\d+\/latest\/meta-data\/$/);
      const content = await fetch(url(`/v1/videos/${id}/content`), { headers: auth(), redirect: 'manual' });
      assert.equal(content.status, 302);
      assert.equal(content.headers.get('location'), `http://localhost:${new URL(ctx.service.cdnUrl).port}/latest/meta-data/`);
      const metadata = await fetch(`${ctx.service.cdnUrl}/latest/meta-data/iam/security-credentials/`);
      assert.match(await metadata.text(), /"SecretAccessKey":"metadata-secret-of-this-host"/);
    });

    it('answers with an error page quoting the key of the request (page-quoting-key)', async () => {
      ctx.service.setScenario({ cdn: { answer: 'page-quoting-key', answerAtContent: true }, video: { pollsToDone: 0 } });
      const id = await createTask();
      const content = await fetch(url(`/v1/videos/${id}/content`), { headers: auth() });
      assert.equal(content.status, 200);
      assert.match(await content.text(), new RegExp(`The session of ${DEMO_KEY} has expired`));
      assert.match(await (await fetch(String(ctx.service.task(id)?.url))).text(), /The session of anonymous has expired/);
    });

    it('streams deterministic bytes of sizeBytes, chunked without Content-Length', async () => {
      ctx.service.setScenario({ cdn: { sizeBytes: 300_000, contentLength: false } });
      const response = await fetch(ctx.service.createTask().url);
      assert.equal(response.headers.get('content-length'), null);
      assert.equal(response.headers.get('transfer-encoding'), 'chunked');
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(patternBytes(0, 300_000)));
    });
  });

  describe('key log', () => {
    type Entry = Record<string, unknown> & { other: string };
    const log = async (key = DEMO_KEY) => {
      const response = await fetch(url(`/api/log/token?key=${encodeURIComponent(key)}`));
      return (await response.json()) as { success: boolean; message: string; data?: Entry[] };
    };

    it('issue 26.2: logs each charged reply and task, newest first, with what it charged, public and counted', async () => {
      await postJson('/v1/chat/completions', chatBody('one'));
      await streamText(chatBody('two, streamed'));
      await createTask();
      assert.equal(ctx.service.logReads(), 0);
      const answer = await log();
      assert.equal(ctx.service.logReads(), 1);
      assert.equal(answer.success, true);
      const [video, streamed, whole] = answer.data ?? [];
      assert.equal(answer.data?.length, 3);
      assert.equal(ctx.service.requests.at(-1)?.key, undefined, 'read without Authorization');
      for (const entry of [video, streamed, whole]) {
        assert.equal(entry['type'], 2);
        assert.equal(entry['token_name'], 'promptreel-demo');
        assert.equal(entry['group'], 'default');
        assert.equal(typeof entry['created_at'], 'number');
        assert.equal(entry['request_id'], undefined, 'no request id unless the scenario sends one');
      }
      assert.equal(video['model_name'], 'promptreel-video');
      assert.equal(video['quota'], 200_000, '$0.40 per call at 500000 units a dollar');
      assert.equal(JSON.parse(video.other)['model_price'], 0.4);
      assert.equal(streamed['is_stream'], true);
      assert.equal(whole['is_stream'], false);
      // promptreel-chat: model_ratio 1.5 (3 $/M prompt), completion_ratio 4: quota = (prompt + 4 × completion) × 1.5.
      for (const entry of [streamed, whole]) {
        const expected = Math.round((Number(entry['prompt_tokens']) + 4 * Number(entry['completion_tokens'])) * 1.5);
        assert.ok(Number(entry['completion_tokens']) > 0);
        assert.equal(entry['quota'], expected);
        assert.deepEqual(
          { ...JSON.parse(entry.other), frt: undefined },
          { group_ratio: 1, model_ratio: 1.5, completion_ratio: 4, model_price: -1, request_path: '/v1/chat/completions', frt: undefined },
        );
      }
      assert.deepEqual(ctx.service.keyLog(), answer.data);
    });

    it('issue 26.2: sends X-Oneapi-Request-Id on /v1 answers when asked, and the entry carries it', async () => {
      ctx.service.setScenario({ account: { requestIdHeader: true } });
      const chat = await postJson('/v1/chat/completions', chatBody('hi'));
      const id = chat.headers.get('x-oneapi-request-id');
      assert.match(id ?? '', /^\d{17}[A-Za-z0-9]{8}$/);
      const created = await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'a kite', seconds: '5' });
      const taskId = created.headers.get('x-oneapi-request-id');
      assert.ok(taskId && taskId !== id);
      assert.deepEqual(
        ctx.service.keyLog().map((entry) => entry.request_id),
        [taskId, id],
      );
      assert.ok((await getJson('/v1/models')).headers.get('x-oneapi-request-id'));
    });

    it('issue 26.2: charges cached prompt tokens at the cache ratio and the key group ratio, and publishes cache_ratio', async () => {
      ctx.service.setScenario({ account: { keyGroup: 'vip', cacheRatio: 0.1 }, chat: { cachedTokens: 4 } });
      const { body } = await postJson('/v1/chat/completions', chatBody('a prompt long enough to have a few tokens'));
      const usage = body['usage'] as Json;
      assert.deepEqual(usage['prompt_tokens_details'], { cached_tokens: 4 });
      const [entry] = ctx.service.keyLog();
      const prompt = Number(usage['prompt_tokens']);
      const completion = Number(usage['completion_tokens']);
      assert.equal(entry.quota, Math.round((prompt - 4 + 4 * 0.1 + 4 * completion) * 1.5 * 0.8));
      assert.equal(entry.group, 'vip');
      assert.deepEqual(JSON.parse(entry.other), {
        group_ratio: 0.8,
        request_path: '/v1/chat/completions',
        frt: -1000,
        model_ratio: 1.5,
        completion_ratio: 4,
        model_price: -1,
        cache_tokens: 4,
        cache_ratio: 0.1,
      });
      const pricing = await (await fetch(url('/api/pricing'))).json();
      const chatPrice = (pricing as { data: Json[] }).data.find((price) => price['model_name'] === 'promptreel-chat');
      assert.equal(chatPrice?.['cache_ratio'], 0.1);
    });

    it('issue 26.2: logs nothing for a refused task or a cut stream, and a refused charge only as an error entry (type 4)', async () => {
      await postJson('/v1/videos', { model: 'promptreel-video', prompt: '' });
      ctx.service.setScenario({ chat: { midStreamError: { afterChunks: 1, message: 'boom', code: 'x', type: 'y' } } });
      await streamText(chatBody('cut'));
      assert.deepEqual(ctx.service.keyLog(), []);
      ctx.service.setScenario({ fault: { status: 503, code: 'model_not_found', message: 'no channel', times: 1, path: 'videos' } });
      assert.equal((await postJson('/v1/videos', { model: 'promptreel-video', prompt: 'a kite' })).status, 503);
      const [error] = ctx.service.keyLog();
      assert.equal(error.type, 4);
      assert.equal(error.quota, 0);
      assert.equal(error.model_name, 'promptreel-video');
      assert.equal(ctx.service.keyLog().length, 1);
    });

    it('issue 26.2: answers an unknown key with success false, and plays a log that is not offered', async () => {
      assert.deepEqual(await log('sk-nobody-knows'), { success: false, message: '无效的令牌' });
      ctx.service.setScenario({ account: { log: 'unsuccessful' } });
      assert.equal((await log()).success, false);
      ctx.service.setScenario({ account: { log: 'absent' } });
      assert.equal((await fetch(url(`/api/log/token?key=${DEMO_KEY}`))).status, 404);
      ctx.service.setScenario({ account: { log: 'html' } });
      assert.match((await fetch(url(`/api/log/token?key=${DEMO_KEY}`))).headers.get('content-type') ?? '', /^text\/html/);
      assert.equal(ctx.service.logReads(), 4);
    });

    it('issue 26.2: takes entries from a test, over the control API too', async () => {
      const added = ctx.service.addLogEntry({ model_name: 'elsewhere', quota: 1000, created_at: 1_700_000_000 });
      assert.equal(added.type, 2);
      const posted = await fetch(url('/__control/log'), {
        method: 'POST',
        body: JSON.stringify({ key: DEMO_KEY, entry: { model_name: 'later', quota: 5, created_at: 1_800_000_000 } }),
      });
      assert.equal(posted.status, 200);
      const listed = (await (await fetch(url(`/__control/log?key=${DEMO_KEY}`))).json()) as { entries: Entry[]; reads: number };
      assert.deepEqual(
        listed.entries.map((entry) => entry['model_name']),
        ['later', 'elsewhere'],
      );
      assert.equal(listed.reads, 0, 'the control API is not a read of the log');
    });
  });

  describe('control API', () => {
    it('sets scenarios, lists requests and tasks, forces states and resets, without recording itself', async () => {
      const control = (path: string, body?: unknown) =>
        fetch(url(`/__control/${path}`), body === undefined ? {} : { method: 'POST', body: JSON.stringify(body) });
      assert.equal((await control('scenario', { latencyMs: 0, chat: { reply: 'fixed' } })).status, 200);
      assert.equal(ctx.service.scenario().chat.reply, 'fixed');
      assert.equal(ctx.service.scenario().chat.chunkChars, 8, 'merged, not replaced');
      assert.equal((await control('scenario', { chat: { nope: 1 } })).status, 400);
      assert.equal((await control('key-scenario', { key: 'sk-k2', patch: { models: [] } })).status, 200);
      assert.deepEqual((await getJson('/v1/models', 'sk-k2')).body['data'], []);

      const id = await createTask();
      assert.equal((await control(`tasks/${id}/fail`, {})).status, 200);
      assert.equal((await getJson(`/v1/videos/${id}`)).body['status'], 'failed');
      const made = (await (await control('tasks', { prompt: 'by id' })).json()) as { task: Json };
      await control(`tasks/${String(made.task['id'])}/complete`, {});
      assert.equal((await getJson(`/v1/videos/${String(made.task['id'])}`)).body['status'], 'completed');

      const records = (await (await control('requests')).json()) as { requests: { path: string }[]; cdnRequests: unknown[] };
      assert.ok(records.requests.length >= 4);
      assert.ok(records.requests.every((record) => record.path.startsWith('/v1/')));
      assert.equal((await controlTasks()).length, 2);

      assert.equal((await control('reset', {})).status, 200);
      assert.equal(ctx.service.requests.length, 0);
      assert.equal(ctx.service.scenario().chat.reply, null);
      assert.equal((await getJson('/v1/models', 'sk-k2')).status, 401);
    });
  });

  it("with tls 'client-certificate', the CDN is HTTPS too and asks for a certificate without demanding one; records name who presented one", async () => {
    const own = await startLocalService({ tls: 'client-certificate', scenario: { video: { pollsToDone: 0 } } });
    try {
      const ca = fs.readFileSync(tlsFixture('ca.pem'));
      const get = (address: string, withCertificate: boolean) =>
        new Promise<number>((resolve, reject) => {
          const options = withCertificate ? { ca, cert: fs.readFileSync(tlsFixture('client.pem')), key: fs.readFileSync(tlsFixture('client.key')) } : { ca };
          https.get(address, options, (answer) => resolve(answer.resume().statusCode ?? 0)).on('error', reject);
        });
      const task = own.createTask();
      assert.match(task.url ?? '', /^https:\/\/127\.0\.0\.1:/);
      assert.equal(await get(String(task.url), false), 200);
      assert.equal(await get(String(task.url), true), 200);
      assert.deepEqual(
        own.cdnRequests.map((record) => record.clientCertificate),
        [undefined, 'promptreel-test-client'],
      );
    } finally {
      await own.stop();
    }
  });

  it('stop() destroys open streams', async () => {
    const own = await startLocalService({ scenario: { chat: { stallAfterChunks: 0 } } });
    const response = await fetch(`${own.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: auth(),
      body: JSON.stringify(chatBody('hi', { stream: true })),
    });
    assert.equal(own.openSockets(), 1);
    const body = response.text();
    await own.stop();
    await assert.rejects(body);
  });
});
