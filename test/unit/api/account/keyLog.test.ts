import * as assert from 'node:assert/strict';
import type { ChatStreamEvent } from '../../../../src/api/chat/events';
import { keyLogEntries } from '../../../../src/api/account/keyLog';
import { quotaDisplay } from '../../../../src/api/account/keyHealth';
import { costOf, modelPrices } from '../../../../src/api/account/prices';
import { ApiError } from '../../../../src/api/errors';
import { silentLogger } from '../../../../src/api/apiLogger';
import { DEFAULT_RETRY } from '../../../../src/api/retry';
import { Transport } from '../../../../src/api/transport';
import { clientFor, collect, MemoryLogger, testDispatcher, useLocalService } from '../../support/localService';

const USD = quotaDisplay(undefined);
const ask = (content: string) => ({ model: 'promptreel-chat', messages: [{ role: 'user' as const, content }] });
/** A key no generic pattern hides (not `sk-…`): only the client's own redaction can. */
const PLAIN_KEY = 'promptreel-plain-key-4f9a2c71';

function requestIdOf(events: ChatStreamEvent[]): string | undefined {
  const event = events.find((candidate) => candidate.type === 'request-id');
  return event?.type === 'request-id' ? event.requestId : undefined;
}

describe('the key log (issue 26.2), against the local service', () => {
  const ctx = useLocalService();

  it('issue 26.2: reads what each reply and task was charged, newest first, in quota units and dollars', async () => {
    const client = clientFor(ctx.service);
    await client.createChatCompletion(ask('one'));
    await collect(client.streamChatCompletion(ask('two')));
    await client.createVideoTask({ model: 'promptreel-video', prompt: 'a kite' });
    const log = await client.account.keyLog(USD);
    assert.ok(log.offered);
    const served = ctx.service.keyLog();
    assert.deepEqual(
      log.value.map((entry) => [entry.model, entry.quota, entry.promptTokens, entry.completionTokens, entry.isStream]),
      served.map((entry) => [entry.model_name, entry.quota, entry.prompt_tokens, entry.completion_tokens, entry.is_stream]),
    );
    const [video, streamed] = log.value;
    assert.equal(video.usd, 0.4);
    assert.equal(video.modelPrice, 0.4);
    assert.equal(streamed.modelPrice, undefined, 'per token: the log says -1');
    assert.equal(streamed.groupRatio, 1);
    assert.equal(streamed.createdAt, served[1].created_at * 1000);
    const request = ctx.service.requests.find((candidate) => candidate.path.startsWith('/api/log/token'));
    assert.equal(request?.path, `/api/log/token?key=${ctx.service.demoKey}`);
    assert.equal(request?.headers['authorization'], undefined, 'the key goes in the query string only');
  });

  it('issue 26.2: converts quota units at the published unit', async () => {
    await clientFor(ctx.service).createVideoTask({ model: 'promptreel-video', prompt: 'a kite' });
    const log = await clientFor(ctx.service).account.keyLog(Promise.resolve({ unit: 'USD', quotaPerUnit: 250_000 }));
    assert.ok(log.offered);
    assert.equal(log.value[0].usd, 0.8, '200000 units at 250000 a dollar');
  });

  it('issue 26.2: leaves out error entries (type 4) and other kinds', async () => {
    ctx.service.setScenario({ fault: { status: 503, message: 'no channel', times: 1, path: 'videos' } });
    const client = clientFor(ctx.service);
    await assert.rejects(client.createVideoTask({ model: 'promptreel-video', prompt: 'a kite' }));
    ctx.service.addLogEntry({ type: 1, quota: 5_000_000, content: 'top-up' });
    await client.createChatCompletion(ask('charged'));
    assert.equal(ctx.service.keyLog().length, 3);
    const log = await client.account.keyLog(USD);
    assert.ok(log.offered);
    assert.deepEqual(
      log.value.map((entry) => entry.model),
      ['promptreel-chat'],
    );
  });

  for (const variant of ['absent', 'html', 'unsuccessful'] as const) {
    it(`issue 26.2: takes a log that is ${variant} as not offered`, async () => {
      ctx.service.setScenario({ account: { log: variant } });
      const log = await clientFor(ctx.service).account.keyLog(USD);
      assert.equal(log.offered, false);
    });
  }

  it('issue 26.2: takes an unknown key as not offered (success: false)', async () => {
    const log = await clientFor(ctx.service, { apiKey: () => 'sk-unknown-to-the-service' }).account.keyLog(USD);
    assert.deepEqual(log, { offered: false, why: '无效的令牌' });
  });

  it('issue 26.2: never writes the key of the query string in a log line or an error', async () => {
    ctx.service.addKey(PLAIN_KEY);
    const logger = new MemoryLogger();
    ctx.service.setScenario({ account: { log: 'absent' } });
    const client = clientFor(ctx.service, { apiKey: () => PLAIN_KEY, log: logger });
    const refused = await client.account.keyLog(USD);
    assert.equal(refused.offered, false);
    assert.ok(ctx.service.requests.at(-1)?.path.includes(PLAIN_KEY), 'the key was sent');
    assert.ok(!refused.offered && refused.why.includes('***'), `the 404 quoted the address, key hidden: ${!refused.offered && refused.why}`);
    assert.ok(!JSON.stringify(refused).includes(PLAIN_KEY));

    const closed = ctx.service.baseUrl.replace(/:\d+$/, ':9');
    const unreachable = clientFor(ctx.service, { baseUrl: closed, apiKey: () => PLAIN_KEY, log: logger });
    const failure = await unreachable.account.keyLog(USD).then(
      () => assert.fail('port 9 answered'),
      (error: unknown) => error,
    );
    assert.ok(failure instanceof ApiError);
    assert.ok(logger.lines.length >= 2, `what was logged: ${logger.lines.join(' | ')}`);
    for (const text of [...logger.lines, failure.message, failure.hint, failure.serverMessage ?? '', String(failure.cause)]) {
      assert.ok(!text.includes(PLAIN_KEY), `the key in: ${text}`);
    }
  });

  it("issue 26.2: puts the key in a query string for the service's own origin only", async () => {
    const transport = new Transport({
      baseUrl: ctx.service.baseUrl,
      apiKey: () => PLAIN_KEY,
      dispatcher: testDispatcher({ service: ctx.service.baseUrl }),
      log: silentLogger,
      retry: DEFAULT_RETRY,
      userAgent: 'test',
    });
    const elsewhere = `${ctx.service.cdnUrl}/api/log/token`;
    await assert.rejects(
      transport.json({ method: 'GET', path: elsewhere, absolute: true, auth: false, keyQuery: 'key', what: 'elsewhere' }),
      (error: unknown) => error instanceof ApiError && error.kind === 'no-key',
    );
    assert.deepEqual(ctx.service.cdnRequests, [], 'nothing was sent there');
    await transport.json({ method: 'GET', path: `${ctx.service.baseUrl}/api/log/token`, absolute: true, auth: false, keyQuery: 'key', what: 'here' });
    assert.equal(ctx.service.requests.at(-1)?.path, `/api/log/token?key=${PLAIN_KEY}`);
  });

  it('issue 26.2: a reply and a task carry the request id their log entry has', async () => {
    ctx.service.setScenario({ account: { requestIdHeader: true } });
    const client = clientFor(ctx.service);
    const whole = await client.createChatCompletion(ask('whole'));
    const streamed = await collect(client.streamChatCompletion(ask('streamed')));
    assert.equal(streamed[0].type, 'request-id', 'first, before the role');
    const task = await client.createVideoTask({ model: 'promptreel-video', prompt: 'a kite' });
    const log = await client.account.keyLog(USD);
    assert.ok(log.offered);
    assert.deepEqual(
      log.value.map((entry) => entry.requestId),
      [task.requestId, requestIdOf(streamed), whole.requestId],
    );
    assert.ok(whole.requestId && task.requestId);
  });

  it('issue 26.2: no request-id event where the gateway sends no id', async () => {
    const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('plain')));
    assert.equal(requestIdOf(events), undefined);
    assert.equal(events[0].type, 'role');
  });

  it('issue 26.2: a whole answer to a streamed request carries the request id too', async () => {
    ctx.service.setScenario({ account: { requestIdHeader: true }, chat: { streamAnswer: 'completion-json' } });
    const events = await collect(clientFor(ctx.service).streamChatCompletion(ask('whole')));
    assert.equal(events[0].type, 'request-id');
    assert.equal(requestIdOf(events), ctx.service.keyLog()[0].request_id);
  });

  it('issue 26.2: keeps the cached tokens of the usage, and an estimate with the cache ratio equals the charge', async () => {
    ctx.service.setScenario({ account: { cacheRatio: 0.1 }, chat: { cachedTokens: 3 } });
    const client = clientFor(ctx.service);
    const events = await collect(client.streamChatCompletion(ask('a prompt of a few tokens, some of them cached')));
    const usage = events.find((event) => event.type === 'usage');
    assert.ok(usage?.type === 'usage');
    assert.equal(usage.usage.cachedTokens, 3);
    const pricing = await client.account.pricing();
    assert.ok(pricing.offered);
    const price = modelPrices(pricing.value).get('promptreel-chat');
    assert.ok(price?.kind === 'per-token');
    assert.ok(Math.abs((price.cachedPromptUsdPerMillion ?? 0) - 0.3) < 1e-12, 'a tenth of the prompt price');
    const log = await client.account.keyLog(USD);
    assert.ok(log.offered);
    assert.equal(log.value[0].cachedTokens, 3);
    assert.equal(log.value[0].cacheRatio, 0.1);
    assert.ok(Math.abs(costOf(price, usage.usage) - log.value[0].usd) <= 1 / USD.quotaPerUnit, 'equal to the quota unit the log rounds to');
  });
});

describe('the key log answer (issue 26.2)', () => {
  const base = { type: 2, created_at: 1_760_000_000, quota: 1500, model_name: 'm', prompt_tokens: 10, completion_tokens: 5 };

  it('issue 26.2: keeps each entry whatever its neighbours are, and a field of the wrong type costs that field only', () => {
    const entries = keyLogEntries(
      [
        null,
        'text',
        { ...base, id: 1, prompt_tokens: 'many', is_stream: 'yes', other: '{not json' },
        { ...base, id: 2, created_at: '1760000060', quota: '3000', other: JSON.stringify({ group_ratio: 0.8, cache_tokens: 4, cache_ratio: 'x' }) },
        { ...base, id: 3, quota: undefined },
        { ...base, id: 4, created_at: 'yesterday' },
        { ...base, id: 5, type: 4 },
        { ...base, id: 6, other: 42, request_id: 7, group: '' },
      ],
      500_000,
    );
    assert.deepEqual(entries, [
      { createdAt: 1_760_000_060_000, model: 'm', quota: 3000, usd: 0.006, promptTokens: 10, completionTokens: 5, id: 2, cachedTokens: 4, groupRatio: 0.8 },
      { createdAt: 1_760_000_000_000, model: 'm', quota: 1500, usd: 0.003, promptTokens: 0, completionTokens: 5, id: 1 },
      { createdAt: 1_760_000_000_000, model: 'm', quota: 1500, usd: 0.003, promptTokens: 10, completionTokens: 5, id: 6 },
    ]);
  });

  it('issue 26.2: reads a paged answer ({items}) and refuses any other shape', () => {
    assert.equal(keyLogEntries({ items: [base], total: 1 }, 500_000)?.length, 1);
    assert.equal(keyLogEntries({ rows: [base] }, 500_000), undefined);
    assert.equal(keyLogEntries('none', 500_000), undefined);
  });
});
