import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

/** Runs `body` in a fresh Node with `api` = src/api (compiled) and prints what it returns as JSON. */
function inFreshNode(body: string): unknown {
  const api = path.resolve(__dirname, '..', '..', '..', '..', 'src', 'api');
  const script = `
    const api = require(${JSON.stringify(api)});
    const undiciLoaded = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]undici[\\\\/]/.test(file));
    (async () => { ${body} })().then((result) => console.log(JSON.stringify(result)), (error) => { console.error(error); process.exit(1); });
  `;
  return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
}

describe('undici is loaded on the first request', () => {
  it('not by loading the API layer or making a client, but by its first request', () => {
    const result = inFreshNode(`
      const afterImport = undiciLoaded();
      const client = new api.PromptreelClient({ baseUrl: 'http://127.0.0.1:9', apiKey: () => 'k', retry: { retries: 0 } });
      const afterClient = undiciLoaded();
      const error = await client.listModels().then(() => undefined, (e) => e.kind);
      return { afterImport, afterClient, afterRequest: undiciLoaded(), error };
    `);
    assert.deepEqual(result, { afterImport: false, afterClient: false, afterRequest: true, error: 'network' });
  });

  it('a dispatcher factory runs on the first request, once per client', () => {
    const result = inFreshNode(`
      let made = 0;
      const client = new api.PromptreelClient({ baseUrl: 'http://127.0.0.1:9', apiKey: () => 'k', retry: { retries: 0 }, dispatcher: () => (made++, api.createDispatcher({ service: 'http://127.0.0.1:9', env: {} })) });
      const beforeRequest = made;
      await client.listModels().catch(() => {});
      await client.listModels().catch(() => {});
      return { beforeRequest, afterRequests: made };
    `);
    assert.deepEqual(result, { beforeRequest: 0, afterRequests: 1 });
  });

  it('a proxy undici refuses fails the request once, as a network error naming the proxy settings', () => {
    const result = inFreshNode(`
      let made = 0;
      const client = new api.PromptreelClient({ baseUrl: 'http://127.0.0.1:9', apiKey: () => 'k', dispatcher: () => (made++, api.createDispatcher({ service: 'http://127.0.0.1:9', proxyUrl: 'not a url', env: {} })) });
      const error = await client.listModels().then(() => undefined, (e) => ({ kind: e.kind, retryable: e.retryable, message: e.message }));
      return { made, error };
    `);
    assert.deepEqual(result, {
      made: 1,
      error: { kind: 'network', retryable: false, message: 'The proxy settings cannot be used: Invalid URL' },
    });
  });
});
