import * as assert from 'node:assert/strict';
import { proxySettings } from '../../../src/api/dispatcher';
import { startLocalProxy, type LocalProxy } from '../../service/proxy';
import { ApiError } from '../../../src/api/errors';
import { DEFAULT_RETRY } from '../../../src/api/retry';
import { Transport } from '../../../src/api/transport';
import { clientFor, MemoryLogger, testDispatcher, useLocalService } from '../support/localService';

describe('dispatcher and proxies', () => {
  const ctx = useLocalService();
  let proxy: LocalProxy;
  before(async () => {
    proxy = await startLocalProxy();
  });
  after(async () => {
    await proxy.stop();
  });
  beforeEach(() => {
    proxy.records.length = 0;
  });

  it('an explicit proxy (http.proxy) carries the requests', async () => {
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ service: ctx.service.baseUrl, proxyUrl: proxy.url }) });
    await client.listModels();
    const host = new URL(ctx.service.baseUrl).host;
    assert.ok(
      proxy.records.some((record) => record.target.includes(host)),
      JSON.stringify(proxy.records),
    );
  });

  it('HTTP_PROXY from the environment is used', async () => {
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ service: ctx.service.baseUrl, env: { HTTP_PROXY: proxy.url } }) });
    await client.listModels();
    assert.ok(proxy.records.length > 0);
  });

  it('no-proxy hosts bypass it', async () => {
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ service: ctx.service.baseUrl, proxyUrl: proxy.url, noProxy: '127.0.0.1' }) });
    await client.listModels();
    assert.equal(proxy.records.length, 0);
  });

  it('without any proxy setting, requests go direct', async () => {
    await clientFor(ctx.service).listModels();
    assert.equal(proxy.records.length, 0);
  });

  it('merges the explicit no-proxy list with NO_PROXY', () => {
    assert.deepEqual(proxySettings({ proxyUrl: 'http://p:1', noProxy: 'a.example' }, { NO_PROXY: 'b.example' }), {
      httpProxy: 'http://p:1',
      httpsProxy: 'http://p:1',
      noProxy: 'a.example,b.example',
    });
    assert.equal(proxySettings({}, {}), undefined);
    assert.deepEqual(proxySettings({}, { https_proxy: 'http://s:2' }), { httpProxy: undefined, httpsProxy: 'http://s:2', noProxy: '' });
  });
  it('review 2.6: through a proxy, another host named by a private address or as localhost is refused before the proxy is asked', async () => {
    const log = new MemoryLogger();
    const transport = new Transport({
      baseUrl: ctx.service.baseUrl,
      apiKey: () => ctx.service.demoKey,
      // The service played as a public one: 127.0.0.1 counts as a public address here, nothing else does.
      dispatcher: testDispatcher({ service: ctx.service.baseUrl, proxyUrl: proxy.url, addresses: { isPublic: (address) => address === '127.0.0.1' } }),
      log,
      retry: { ...DEFAULT_RETRY, retries: 0 },
      userAgent: 'Promptreel tests',
    });
    const port = new URL(ctx.service.cdnUrl).port;
    for (const host of ['localhost', '10.1.2.3', '[::1]']) {
      await assert.rejects(
        transport.send({ method: 'GET', path: `http://${host}:${port}/latest/meta-data/`, absolute: true, auth: false, what: 'Downloading the video' }),
        (error: unknown) => error instanceof ApiError && /it is at a private address/.test(error.message),
        host,
      );
    }
    assert.deepEqual(proxy.records, [], 'the proxy was never asked');
    await transport.send({ method: 'GET', path: 'models', auth: true, what: 'Listing models' });
    assert.ok(proxy.records.length > 0, 'the service itself goes through the proxy');
  });
});
