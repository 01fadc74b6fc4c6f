import * as assert from 'node:assert/strict';
import type { ClientOptions } from '../../../src/api/client';
import { ApiError } from '../../../src/api/errors';
import { LazyClient } from '../../../src/connection/lazyClient';
import { clientFor, collect, testDispatcher, useLocalService } from '../support/localService';

describe('LazyClient: the client whose code loads on its first call', () => {
  const ctx = useLocalService();

  function options(overrides: Partial<ClientOptions> = {}): ClientOptions {
    return {
      baseUrl: ctx.service.baseUrl,
      apiKey: () => ctx.service.demoKey,
      dispatcher: testDispatcher({ service: ctx.service.baseUrl }),
      retry: { retries: 0 },
      ...overrides,
    };
  }

  it('sends nothing when made, and checks the address as the client does', () => {
    const client = new LazyClient(options());
    assert.equal(client.baseUrl, clientFor(ctx.service).baseUrl);
    assert.equal(ctx.service.requests.length, 0);
    assert.throws(() => new LazyClient(options({ baseUrl: 'not an address' })), ApiError);
  });

  it('answers every call as the client itself does', async () => {
    const lazy = new LazyClient(options());
    const direct = clientFor(ctx.service);
    assert.deepEqual(await lazy.listModels(), await direct.listModels());
    const ask = { model: 'promptreel-chat', messages: [{ role: 'user' as const, content: 'lazy hello' }] };
    assert.equal((await lazy.createChatCompletion(ask)).text, 'You said: lazy hello');
    const events = await collect(lazy.streamChatCompletion(ask));
    assert.equal(events.map((event) => (event.type === 'text' ? event.text : '')).join(''), 'You said: lazy hello');
    const created = await lazy.createVideoTask({ model: 'promptreel-video', prompt: 'a lazy cat' });
    assert.equal((await lazy.getVideoTask(created.id)).id, created.id);
    // The service dates the key's expiry from its clock: two answers on either side of a second differ there alone.
    const [viaLazy, viaClient] = [await lazy.account.tokenUsage(), await direct.account.tokenUsage()];
    const expiry = (usage: typeof viaLazy) => (usage.offered ? usage.value.expires_at : undefined);
    assert.ok(Math.abs(Number(expiry(viaClient)) - Number(expiry(viaLazy))) <= 1, `${expiry(viaLazy)} and ${expiry(viaClient)}`);
    assert.deepEqual(
      { ...viaLazy, ...(viaLazy.offered ? { value: { ...viaLazy.value, expires_at: 0 } } : {}) },
      { ...viaClient, ...(viaClient.offered ? { value: { ...viaClient.value, expires_at: 0 } } : {}) },
    );
  });

  it('passes a refusal on through the stream, when it is read, and keeps one client for every call', async () => {
    const refused = new LazyClient(options({ apiKey: () => 'sk-wrong' }));
    const stream = refused.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(ctx.service.requests.length, 0, 'nothing is sent before the stream is read');
    await assert.rejects(collect(stream), (error: unknown) => error instanceof ApiError && error.status === 401);
    const charged: string[] = [];
    const lazy = new LazyClient(options({ onRequestCharged: (record) => charged.push(record.kind) }));
    await lazy.createVideoTask({ model: 'promptreel-video', prompt: 'one' });
    await lazy.createChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'two' }] });
    assert.deepEqual(charged, ['video', 'chat']);
  });
});
