import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import { headerProblem, usableHeaders, withExtraBody, withQuery, type RequestExtras } from '../../../src/api/requestExtras';
import { clientFor, collect, useLocalService } from '../support/localService';

const hello = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'hello' }] };

describe('custom headers, query parameters and body fields', () => {
  describe('the rules', () => {
    it("refuses Promptreel's own headers, invalid names and values with line breaks", () => {
      assert.equal(headerProblem('X-Org', 'research'), undefined);
      assert.match(headerProblem('Authorization', 'Bearer x') ?? '', /set by Promptreel itself/);
      assert.match(headerProblem('content-TYPE', 'text/plain') ?? '', /set by Promptreel itself/);
      assert.match(headerProblem('X Org', 'a') ?? '', /not a valid header name/);
      assert.match(headerProblem('X-Org', 'a\r\nX-Injected: 1') ?? '', /line break/);
    });

    it('merges header sources with lower-cased names, later ones winning, and says what it dropped', () => {
      const { headers, dropped } = usableHeaders({ 'X-Org': 'a', Host: 'evil' }, { 'x-org': 'b', 'X-Route': 'eu' });
      assert.deepEqual(headers, { 'x-org': 'b', 'x-route': 'eu' });
      assert.deepEqual(dropped, ['Host is set by Promptreel itself']);
    });

    it('merges extra body fields over the request, but never model, messages or stream', () => {
      const body = { model: 'm', messages: [], stream: true, temperature: 1 };
      assert.deepEqual(withExtraBody(body, { model: 'other', messages: 'x', stream: false, temperature: 0.2, top_k: 40 }), {
        model: 'm',
        messages: [],
        stream: true,
        temperature: 0.2,
        top_k: 40,
      });
      assert.equal(withExtraBody(body, undefined), body);
    });

    it('adds query parameters, replacing one of the same name', () => {
      assert.equal(
        withQuery('https://gw.example/v1/models?a=1', { a: '2', 'api-version': '2025-01-01' }),
        'https://gw.example/v1/models?a=2&api-version=2025-01-01',
      );
      assert.equal(withQuery('https://gw.example/v1/models', {}), 'https://gw.example/v1/models');
    });
  });

  describe('against the local service', () => {
    const ctx = useLocalService();

    function clientWith(extras: (model: string | undefined) => RequestExtras) {
      const asked: (string | undefined)[] = [];
      const client = clientFor(ctx.service, {
        extras: (model) => {
          asked.push(model);
          return extras(model);
        },
      });
      return { client, asked };
    }

    it('reaches a gateway that refuses requests without its header (403) and its query parameter (400)', async () => {
      ctx.service.setScenario({ requiredHeaders: { 'x-gateway-token': 'open-sesame' }, requiredQuery: { 'api-version': '2025-01-01' } });
      const bare = clientFor(ctx.service);
      await assert.rejects(bare.listModels(), (error: unknown) => error instanceof ApiError && error.status === 403);
      const withHeader = clientWith(() => ({ headers: { 'X-Gateway-Token': 'open-sesame' } })).client;
      await assert.rejects(withHeader.listModels(), (error: unknown) => error instanceof ApiError && error.status === 400 && error.param === 'api-version');

      const { client, asked } = clientWith((model) => ({
        headers: { 'X-Gateway-Token': 'open-sesame', ...(model ? { 'X-Route': `route-of-${model}` } : {}) },
        query: { 'api-version': '2025-01-01' },
        body: { top_k: 40, model: 'not-this-one' },
      }));
      assert.ok((await client.listModels()).length > 0);
      const events = await collect(client.streamChatCompletion(hello));
      assert.ok(events.some((event) => event.type === 'text'));
      const chat = ctx.service.requests.at(-1);
      assert.equal(chat?.path, '/v1/chat/completions?api-version=2025-01-01');
      assert.equal(chat?.headers['x-gateway-token'], 'open-sesame');
      assert.equal(chat?.headers['x-route'], 'route-of-promptreel-chat', 'the model its request is for');
      assert.equal(chat?.headers.authorization, `Bearer ${ctx.service.demoKey}`, 'the key is still Promptreel’s');
      const body = chat?.body as { model: string; top_k: number; stream: boolean };
      assert.equal(body.model, 'promptreel-chat');
      assert.equal(body.top_k, 40);
      assert.equal(body.stream, true);
      assert.deepEqual(asked.slice(0, 1), [undefined], 'the model list is asked for no model');
    });

    it('sends the extra body fields with a whole-answer request too', async () => {
      const { client } = clientWith(() => ({ body: { safe_prompt: true } }));
      await client.createChatCompletion(hello);
      assert.equal((ctx.service.requests.at(-1)?.body as { safe_prompt?: boolean }).safe_prompt, true);
    });

    it('never sends the headers or the query to a video download address elsewhere (the CDN)', async () => {
      const folder = await mkdtemp(path.join(os.tmpdir(), 'promptreel-extras-'));
      try {
        const { client } = clientWith(() => ({ headers: { 'X-Gateway-Token': 'open-sesame' }, query: { 'api-version': '1' }, secrets: ['open-sesame'] }));
        const created = await client.createVideoTask({ model: 'promptreel-video', prompt: 'a boat' });
        let task = await client.getVideoTask(created.id);
        for (let i = 0; i < 10 && task.state !== 'completed'; i++) task = await client.getVideoTask(created.id);
        assert.equal(task.state, 'completed');
        await client.downloadVideo(task, path.join(folder, 'boat.mp4'));
        assert.ok(ctx.service.cdnRequests.length >= 1);
        for (const request of ctx.service.cdnRequests) {
          assert.equal(request.headers['x-gateway-token'], undefined);
          assert.ok(!request.path.includes('api-version'), request.path);
        }
        const post = ctx.service.requests.find((request) => request.method === 'POST' && request.path.startsWith('/v1/videos'));
        assert.equal(post?.headers['x-gateway-token'], 'open-sesame', 'the service itself gets them');
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it('hides a secret header value that the service repeats in an error', async () => {
      ctx.service.setScenario({ fault: { status: 500, message: 'upstream refused token open-sesame-4711', path: 'models' } });
      const { client } = clientWith(() => ({ headers: { 'X-Gateway-Token': 'open-sesame-4711' }, secrets: ['open-sesame-4711'] }));
      const error = await client.listModels().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof ApiError);
      assert.ok(!error.message.includes('open-sesame-4711'), error.message);
      assert.ok(!(error.serverMessage ?? '').includes('open-sesame-4711'), error.serverMessage);
      assert.match(error.serverMessage ?? '', /upstream refused token \*\*\*/);
    });

    it('drops a protected header instead of sending it', async () => {
      const { client } = clientWith(() => ({ headers: { Authorization: 'Bearer stolen', Accept: 'text/html', 'X-Ok': '1' } }));
      await client.listModels();
      const request = ctx.service.requests.at(-1);
      assert.equal(request?.headers.authorization, `Bearer ${ctx.service.demoKey}`);
      assert.equal(request?.headers.accept, 'application/json');
      assert.equal(request?.headers['x-ok'], '1');
    });
  });
});
