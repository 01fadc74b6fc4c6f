import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useConnectedService } from '../support/connectedService';
import { waitFor } from '../support/waitFor';
import { promptreelModel, promptreelModels, recordMessages, testApi, type MessageStub } from './languageModelSupport';

async function failureOf(run: () => Promise<unknown>): Promise<Error> {
  try {
    await run();
  } catch (error) {
    assert.ok(error instanceof Error, `an Error was thrown (${String(error)})`);
    return error;
  }
  assert.fail('the request succeeded');
}

describe('language models: without a usable key', () => {
  const ctx = useConnectedService();
  let messages: MessageStub;

  beforeEach(async () => {
    messages = recordMessages();
  });

  afterEach(() => messages.restore());

  it('offers no models when asked silently without a key, and the models come back with the key', async () => {
    const { keyStore } = (await testApi()).connection;
    await waitFor(async () => (await promptreelModels()).length === 2, { what: 'the models with a key', timeoutMs: 20_000 });
    await keyStore.clear();
    await waitFor(async () => (await promptreelModels()).length === 0, { what: 'no models without a key', timeoutMs: 20_000 });
    assert.deepEqual(
      messages.shown.filter((shown) => /API key/.test(shown.message)),
      [],
      'asked silently: no prompt',
    );
    await keyStore.store(ctx.service.demoKey);
    await waitFor(async () => (await promptreelModels()).length === 2, { what: 'the models again', timeoutMs: 20_000 });
  });

  it('fails a request with a clear error when the key went away', async () => {
    const { keyStore } = (await testApi()).connection;
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    await keyStore.clear();
    const failure = await failureOf(async () => {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token);
      for await (const part of response.stream) void part;
    });
    assert.equal((failure as vscode.LanguageModelError).code, 'NoPermissions');
    assert.equal(failure.message, `Promptreel (promptreel-chat): Answering with promptreel-chat needs an API key for ${ctx.service.baseUrl}.`);
    assert.ok(!ctx.service.requests.some((request) => request.path === '/v1/chat/completions'), 'nothing was sent without a key');
    const offered = await waitFor(() => messages.shown.find((shown) => shown.items.includes('Set API Key')), { what: 'a notification offering Set API Key' });
    assert.match(offered.message, /needs an API key for http:\/\/127\.0\.0\.1:\d+/);
  });

  it('fails a request the service refuses (HTTP 401) with the server message and the way out', async () => {
    const model = await waitFor(() => promptreelModel('promptreel-chat').catch(() => undefined), { what: 'the chat model', timeoutMs: 20_000 });
    ctx.service.setScenario({ fault: { status: 401, code: 'invalid_api_key', message: 'Invalid token', path: 'chat' } });
    const failure = await failureOf(async () => {
      const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token);
      for await (const part of response.stream) void part;
    });
    assert.equal((failure as vscode.LanguageModelError).code, 'NoPermissions');
    assert.match(failure.message, /Invalid token/);
    assert.match(failure.message, /set a new key/);
    await waitFor(
      () => messages.shown.some((shown) => shown.kind === 'showWarningMessage' && shown.items.includes('Set API Key') && /Invalid token/.test(shown.message)),
      {
        what: 'a warning with Set API Key',
      },
    );
  });

  it('asks for a key, with Set API Key, when asked for models non-silently without a key', async () => {
    const { connection, languageModels } = await testApi();
    const { keyStore } = connection;
    await keyStore.clear();
    const models = await languageModels.provider.provideLanguageModelChatInformation({ silent: false }, new vscode.CancellationTokenSource().token);
    assert.deepEqual(models, []);
    const offered = await waitFor(() => messages.shown.find((shown) => shown.items.includes('Set API Key')), { what: 'the Set API Key offer' });
    assert.match(offered.message, /needs an API key for http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(!ctx.service.requests.some((request) => request.path === '/v1/models'), 'no model list was asked for without a key');
  });
});
