import * as assert from 'node:assert/strict';
import { ApiError } from '../../../src/api/errors';
import { PromptreelClient } from '../../../src/api/client';
import { isVideoModel } from '../../../src/api/models';
import { DEFAULT_RETRY } from '../../../src/api/retry';
import { Transport } from '../../../src/api/transport';
import { MemoryLogger, clientFor, testDispatcher, useLocalService, v1Requests, waitUntil } from '../support/localService';

describe('HTTP layer against the local service', () => {
  const ctx = useLocalService();

  it('lists models, and chat models leave video-only ones out', async () => {
    const client = clientFor(ctx.service);
    const models = await client.listModels();
    assert.ok(models.length >= 3);
    const chat = models.filter((model) => !isVideoModel(model));
    assert.ok(chat.every((model) => !model.endpointTypes?.every((type) => type.includes('video'))));
    assert.ok(chat.some((model) => model.id === 'promptreel-chat'));
    assert.ok(!chat.some((model) => model.id === 'promptreel-video'));
  });

  for (const suffix of ['', '/', '/v1', '/v1/']) {
    it(`base URL "${suffix}" reaches /v1/models exactly once`, async () => {
      const client = clientFor(ctx.service, { baseUrl: ctx.service.baseUrl + suffix });
      await client.listModels();
      assert.deepEqual(
        ctx.service.requests.map((request) => request.path),
        ['/v1/models'],
      );
    });
  }

  it('sends the key as a Bearer token, and 401 for a wrong one', async () => {
    await clientFor(ctx.service).listModels();
    assert.equal(ctx.service.requests[0].headers.authorization, `Bearer ${ctx.service.demoKey}`);
    await assert.rejects(clientFor(ctx.service, { apiKey: () => 'sk-wrong' }).listModels(), (error: unknown) => {
      return error instanceof ApiError && error.status === 401 && /invalid, expired/.test(error.hint) && !!error.serverMessage && error.retryable === false;
    });
  });

  it('no key: fails before sending anything', async () => {
    await assert.rejects(
      clientFor(ctx.service, { apiKey: () => undefined }).listModels(),
      (error: unknown) => error instanceof ApiError && error.kind === 'no-key',
    );
    assert.equal(ctx.service.requests.length, 0);
  });

  it('404 for a wrong base URL says so', async () => {
    await assert.rejects(clientFor(ctx.service, { baseUrl: `${ctx.service.baseUrl}/api` }).listModels(), (error: unknown) => {
      return error instanceof ApiError && error.status === 404 && /base URL/.test(error.hint);
    });
  });

  for (const [status, code] of [
    [403, 'insufficient_user_quota'],
    [400, 'invalid_request'],
  ] as const) {
    it(`${status} (${code}) is not retried`, async () => {
      ctx.service.setScenario({ fault: { status, body: 'openai', code, message: 'nope' } });
      await assert.rejects(
        clientFor(ctx.service).listModels(),
        (error: unknown) => error instanceof ApiError && error.status === status && error.code === code,
      );
      assert.equal(v1Requests(ctx.service, 'GET', '/v1/models').length, 1);
    });
  }

  it('GET retries a 500 then succeeds', async () => {
    ctx.service.setScenario({ fault: { status: 500, body: 'openai', times: 2 } });
    const models = await clientFor(ctx.service).listModels();
    assert.ok(models.length > 0);
    assert.equal(v1Requests(ctx.service, 'GET', '/v1/models').length, 3);
  });

  it('GET gives up after the retries on a 503', async () => {
    ctx.service.setScenario({ fault: { status: 503, body: 'empty' } });
    await assert.rejects(
      clientFor(ctx.service).listModels(),
      (error: unknown) => error instanceof ApiError && error.status === 503 && /trouble/.test(error.hint),
    );
    assert.equal(v1Requests(ctx.service, 'GET', '/v1/models').length, 4);
  });

  it('GET honours Retry-After on a 429 with an empty body', async () => {
    ctx.service.setScenario({ fault: { status: 429, body: 'empty', retryAfter: '1', times: 1 } });
    const started = Date.now();
    await clientFor(ctx.service).listModels();
    const requests = v1Requests(ctx.service, 'GET', '/v1/models');
    assert.equal(requests.length, 2);
    assert.ok(requests[1].at - requests[0].at >= 950, `waited ${requests[1].at - requests[0].at} ms`);
    assert.ok(Date.now() - started >= 950);
  });

  it('a Retry-After too long to wait is handed to the caller', async () => {
    ctx.service.setScenario({ fault: { status: 429, body: 'openai', retryAfter: '120', message: 'slow down' } });
    await assert.rejects(clientFor(ctx.service).listModels(), (error: unknown) => {
      return error instanceof ApiError && error.status === 429 && error.retryAfterMs === 120_000 && /retry after 120 s/.test(error.hint);
    });
    assert.equal(v1Requests(ctx.service, 'GET', '/v1/models').length, 1);
  });

  it('an HTML error page from a proxy is explained', async () => {
    ctx.service.setScenario({ fault: { status: 502, body: 'html', times: 10 } });
    await assert.rejects(
      clientFor(ctx.service, { retry: { retries: 0 } }).listModels(),
      (error: unknown) => error instanceof ApiError && error.status === 502 && /HTML|Bad Gateway/i.test(error.message),
    );
  });

  it('the task-route error shape is read', async () => {
    await assert.rejects(clientFor(ctx.service).getVideoTask('task_doesnotexist'), (error: unknown) => {
      return (
        error instanceof ApiError && (error.status === 404 || error.status === 400) && error.code === 'task_not_exist' && /does not exist/.test(error.hint)
      );
    });
  });

  it('headers timeout is reported as a timeout', async () => {
    ctx.service.setScenario({ latencyMs: 3_000 });
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ service: ctx.service.baseUrl, headersTimeoutMs: 400 }), retry: { retries: 0 } });
    await assert.rejects(client.listModels(), (error: unknown) => error instanceof ApiError && error.kind === 'timeout');
  });

  it('a refused connection is a network error that never reached the server', async () => {
    const client = new PromptreelClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: () => 'k',
      dispatcher: testDispatcher({ service: 'http://127.0.0.1:9' }),
      retry: { retries: 0 },
    });
    await assert.rejects(
      client.listModels(),
      (error: unknown) => error instanceof ApiError && error.kind === 'network' && error.mayHaveReachedServer === false,
    );
  });

  it('never logs the key', async () => {
    const log = new MemoryLogger();
    ctx.service.setScenario({ fault: { status: 500, body: 'openai', times: 1 } });
    await clientFor(ctx.service, { log }).listModels();
    assert.ok(log.lines.length > 0);
    assert.ok(log.lines.every((line) => !line.includes(ctx.service.demoKey)));
  });

  it('aborting a GET closes the socket', async () => {
    await ctx.service.waitForSocketsClosed(2_000);
    ctx.service.setScenario({ latencyMs: 5_000 });
    const controller = new AbortController();
    const pending = clientFor(ctx.service).listModels(controller.signal);
    await waitUntil(() => ctx.service.openSockets() > 0);
    controller.abort();
    await assert.rejects(pending, (error: unknown) => error instanceof ApiError && error.kind === 'aborted');
    await ctx.service.waitForSocketsClosed(2_000);
    assert.equal(ctx.service.openSockets(), 0);
  });
  describe('every JSON answer is read within a total deadline', () => {
    function transportFor(log = new MemoryLogger()): Transport {
      return new Transport({
        baseUrl: ctx.service.baseUrl,
        apiKey: () => ctx.service.demoKey,
        dispatcher: testDispatcher({ service: ctx.service.baseUrl }),
        log,
        retry: { ...DEFAULT_RETRY, baseDelayMs: 5, maxDelayMs: 20 },
        userAgent: 'Promptreel tests',
      });
    }

    it('review 2.10: a gateway that trickles a JSON answer fails with a timeout at the deadline, and the socket is closed', async () => {
      ctx.service.setScenario({ trickleMs: 20 });
      const started = Date.now();
      await assert.rejects(transportFor().json({ method: 'GET', path: 'models', auth: true, what: 'Listing models', deadlineMs: 400 }), (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.kind, 'timeout');
        assert.equal(error.message, 'Listing models: the service did not finish its answer within 400 ms.');
        return true;
      });
      assert.ok(Date.now() - started < 2_000, `${Date.now() - started} ms`);
      await ctx.service.waitForSocketsClosed(2_000);
    });

    it('review 2.10: the deadline covers the wait for the headers too', async () => {
      ctx.service.setScenario({ latencyMs: 5_000 });
      await assert.rejects(
        transportFor().json({ method: 'GET', path: 'models', auth: true, what: 'Listing models', deadlineMs: 300 }),
        (error: unknown) => error instanceof ApiError && error.kind === 'timeout' && /within 300 ms/.test(error.message),
      );
    });
  });
});
