import * as assert from 'node:assert/strict';
import { proxySettings } from '../../../src/api/dispatcher';
import { startLocalProxy, type LocalProxy } from '../../service/proxy';
import { clientFor, testDispatcher, useLocalService } from './support';

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
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ proxyUrl: proxy.url }) });
    await client.listModels();
    const host = new URL(ctx.service.baseUrl).host;
    assert.ok(
      proxy.records.some((record) => record.target.includes(host)),
      JSON.stringify(proxy.records),
    );
  });

  it('HTTP_PROXY from the environment is used', async () => {
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ env: { HTTP_PROXY: proxy.url } }) });
    await client.listModels();
    assert.ok(proxy.records.length > 0);
  });

  it('no-proxy hosts bypass it', async () => {
    const client = clientFor(ctx.service, { dispatcher: testDispatcher({ proxyUrl: proxy.url, noProxy: '127.0.0.1' }) });
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
});
