import * as assert from 'node:assert/strict';
import { API_KEY_ENV, ApiKeyStore } from '../../../src/connection/keys/apiKeyStore';
import { SecretRedactor } from '../../../src/common/redactor';
import { ServiceTrust } from '../../../src/connection/keys/core/serviceTrust';
import type { ApiKeyContext } from '../../../src/auth/apiKeyContext';
import type { ClearApiKeyResult, SetApiKeyResult } from '../../../src/auth/apiKeyCommands';
import * as vscode from 'vscode';
import { waitFor } from '../support/waitFor';
import { setSetting, stubInputBox, testApi, useSettings, validationMessage } from '../support/extension';

const BASE = 'http://127.0.0.1:9';

/** The key store (the connection's), `promptreel.hasApiKey` (Set API Key's) and the raw secret storage. */
async function keyHandles(): Promise<{ keyStore: ApiKeyStore; hasApiKey: ApiKeyContext; secrets: vscode.SecretStorage }> {
  const api = await testApi();
  return { keyStore: api.connection.keyStore, hasApiKey: api.auth.hasApiKey, secrets: api.storage.secrets };
}

describe('shell: API key', () => {
  const own = useSettings();
  let savedEnv: string | undefined;

  before(() => {
    savedEnv = process.env[API_KEY_ENV];
    delete process.env[API_KEY_ENV];
  });

  after(() => {
    if (savedEnv === undefined) delete process.env[API_KEY_ENV];
    else process.env[API_KEY_ENV] = savedEnv;
  });

  afterEach(async () => {
    const { keyStore, hasApiKey } = await keyHandles();
    delete process.env[API_KEY_ENV];
    for (const base of [BASE, 'http://127.0.0.1:10']) {
      await setSetting('baseUrl', base);
      await keyStore.clear();
    }
    await setSetting('baseUrl', undefined);
    await hasApiKey.refresh();
  });

  it('stores, scopes and clears the key in the real SecretStorage', async () => {
    const { keyStore, hasApiKey } = await keyHandles();
    await setSetting('baseUrl', `${BASE}/`);
    assert.equal(await keyStore.get(), undefined);
    await keyStore.store('  sk-store-roundtrip-0001  ');
    assert.deepEqual(await keyStore.get(), { key: 'sk-store-roundtrip-0001', source: 'secret-storage' });
    assert.equal(await hasApiKey.refresh(), true);

    // The same service typed differently shares the key; another service does not see it.
    await setSetting('baseUrl', `${BASE}/v1`);
    assert.equal(await keyStore.getKey(), 'sk-store-roundtrip-0001');
    await setSetting('baseUrl', 'http://127.0.0.1:10');
    assert.equal(await keyStore.get(), undefined);
    assert.equal(await hasApiKey.refresh(), false);

    await setSetting('baseUrl', BASE);
    assert.equal(await keyStore.clear(), true);
    assert.equal(await keyStore.get(), undefined);
    assert.equal(await keyStore.clear(), false);
  });

  it('follows a key changed behind its back (another window)', async () => {
    const { keyStore, hasApiKey, secrets } = await keyHandles();
    await setSetting('baseUrl', BASE);
    await hasApiKey.refresh();
    assert.equal(hasApiKey.value, false);
    let changes = 0;
    const listener = keyStore.onDidChange(() => changes++);
    try {
      await secrets.store(`promptreel.apiKey:${BASE}`, 'sk-other-window-0002');
      await waitFor(() => changes > 0 && hasApiKey.value, { what: 'the store and hasApiKey to see the new key' });
      assert.equal(await keyStore.getKey(), 'sk-other-window-0002');
      await secrets.delete(`promptreel.apiKey:${BASE}`);
      await waitFor(() => !hasApiKey.value, { what: 'hasApiKey to drop' });
    } finally {
      listener.dispose();
    }
  });

  it('reads SecretStorage once for repeated requests, and again once the key changed', async () => {
    const api = await testApi();
    const { secrets } = api.storage;
    const { settings } = own;
    const log = api.log.logger.forComponent('test');
    // A store of the test's own over the same storage and settings, with its own record of the services chosen.
    const trust = new ServiceTrust(api.storage.global, () => settings.baseUrlLevels(), log);
    await setSetting('baseUrl', BASE);
    let reads = 0;
    const counting: vscode.SecretStorage = {
      get: (key) => {
        reads++;
        return secrets.get(key);
      },
      store: (key, value) => secrets.store(key, value),
      delete: (key) => secrets.delete(key),
      onDidChange: secrets.onDidChange,
    };
    const store = new ApiKeyStore(counting, settings, new SecretRedactor(), log, trust);
    let changes = 0;
    const listener = store.onDidChange(() => changes++);
    // SecretStorage echoes the store's own write; the store's listener (registered first) has then begun its read.
    const echoed = new Promise<void>((resolve) => {
      const echo = secrets.onDidChange((event) => {
        if (event.key !== `promptreel.apiKey:${BASE}`) return;
        echo.dispose();
        resolve();
      });
    });
    try {
      reads = 0;
      await store.store('sk-cached-0009');
      await echoed;
      assert.deepEqual(await Promise.all([store.getKey(), store.getKey(), store.getKey()]), ['sk-cached-0009', 'sk-cached-0009', 'sk-cached-0009']);
      assert.equal(await store.getKey(), 'sk-cached-0009');
      assert.equal(reads, 1, "one read for four requests (the store read it once to tell its own write from another window's)");
      assert.equal(changes, 1, 'its own write is announced once: the echo from SecretStorage is not a second change');
      // Changed behind its back (another window): SecretStorage says so, and the next request reads again.
      const before = changes;
      await secrets.store(`promptreel.apiKey:${BASE}`, 'sk-cached-0010');
      await waitFor(() => changes > before, { what: 'the change event' });
      assert.equal(await store.getKey(), 'sk-cached-0010');
      assert.equal(reads, 2);
      assert.equal(await store.clear(), true);
      assert.equal(await store.getKey(), undefined);
    } finally {
      listener.dispose();
      store.dispose();
      trust.dispose();
    }
  });

  it('Set API Key asks with a password box, validates, trims and stores', async () => {
    const { keyStore, hasApiKey } = await keyHandles();
    await setSetting('baseUrl', BASE);
    const stub = stubInputBox(['  sk-set-command-0003  ']);
    let result: SetApiKeyResult | undefined;
    try {
      result = await vscode.commands.executeCommand<SetApiKeyResult | undefined>('promptreel.setApiKey');
    } finally {
      stub.restore();
    }
    assert.deepEqual(result, { baseUrl: BASE });
    assert.equal(stub.calls.length, 1);
    const box = stub.calls[0];
    assert.equal(box.password, true);
    assert.equal(box.ignoreFocusOut, true);
    assert.ok(await validationMessage(box, '   '), 'an empty key is refused');
    assert.ok(await validationMessage(box, 'sk-a b'), 'a key with spaces is refused');
    assert.equal(await validationMessage(box, ' sk-fine '), undefined);
    assert.ok(!JSON.stringify(result).includes('sk-set-command-0003'), 'the command never returns the key');
    assert.deepEqual(await keyStore.get(), { key: 'sk-set-command-0003', source: 'secret-storage' });
    await waitFor(() => hasApiKey.value, { what: 'hasApiKey' });
  });

  it('Set API Key asks for the base URL first when there is none', async () => {
    const { keyStore } = await keyHandles();
    await setSetting('baseUrl', undefined);
    const stub = stubInputBox([`${BASE}/v1/`, 'sk-first-run-0004']);
    let result: SetApiKeyResult | undefined;
    try {
      result = await vscode.commands.executeCommand<SetApiKeyResult | undefined>('promptreel.setApiKey');
    } finally {
      stub.restore();
    }
    assert.equal(stub.calls.length, 2);
    assert.ok(await validationMessage(stub.calls[0], 'ftp://example.com'), 'a non-http URL is refused');
    assert.ok(await validationMessage(stub.calls[0], ''), 'an empty URL is refused');
    assert.equal(stub.calls[0].password, undefined, 'the base URL is not a secret');
    assert.equal(stub.calls[1].password, true);
    assert.deepEqual(result, { baseUrl: BASE });
    assert.equal(own.settings.baseUrl, `${BASE}/v1/`);
    assert.equal(await keyStore.getKey(), 'sk-first-run-0004');
  });

  it('Set API Key stores nothing when cancelled', async () => {
    const { keyStore } = await keyHandles();
    await setSetting('baseUrl', BASE);
    const stub = stubInputBox([undefined]);
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.setApiKey'), undefined);
    } finally {
      stub.restore();
    }
    assert.equal(await keyStore.get(), undefined);
  });

  it('Clear API Key removes the stored key', async () => {
    const { keyStore, hasApiKey } = await keyHandles();
    await setSetting('baseUrl', BASE);
    await keyStore.store('sk-clear-command-0005');
    const cleared = await vscode.commands.executeCommand<ClearApiKeyResult>('promptreel.clearApiKey');
    assert.deepEqual(cleared, { baseUrl: BASE, cleared: true, environmentKeyRemains: false });
    assert.equal(await keyStore.get(), undefined);
    await waitFor(() => !hasApiKey.value, { what: 'hasApiKey to drop' });
    const again = await vscode.commands.executeCommand<ClearApiKeyResult>('promptreel.clearApiKey');
    assert.equal(again.cleared, false);
  });

  it(`falls back to ${API_KEY_ENV} when no key is stored`, async () => {
    const { keyStore, hasApiKey } = await keyHandles();
    await setSetting('baseUrl', BASE);
    process.env[API_KEY_ENV] = ' sk-from-environment-0006 ';
    assert.deepEqual(await keyStore.get(), { key: 'sk-from-environment-0006', source: 'environment' });
    assert.equal(await hasApiKey.refresh(), true);

    await keyStore.store('sk-stored-wins-0007');
    assert.deepEqual(await keyStore.get(), { key: 'sk-stored-wins-0007', source: 'secret-storage' });

    const cleared = await vscode.commands.executeCommand<ClearApiKeyResult>('promptreel.clearApiKey');
    assert.equal(cleared.environmentKeyRemains, true);
    assert.equal((await keyStore.get())?.source, 'environment');
  });
});
