import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LogSink } from '../../../src/common/logger';
import type { DoctorResult } from '../../../src/doctor/core/doctorResult';
import { useConnectedService } from '../support/connectedService';
import { setSetting, stubInputBox, testApi } from '../support/extension';
import { recordMessages } from '../support/recordMessages';

const SECRET = 'gw-secret-never-shown-7f3a91';
const HEADER = 'X-Gateway-Token';

function memorySink(lines: string[]): LogSink {
  const push = (message: string) => void lines.push(message);
  return { trace: push, debug: push, info: push, warn: push, error: push };
}

describe('shell: custom headers, query parameters and body fields, and secret headers', () => {
  const ctx = useConnectedService({ settings: { 'chat.model': 'promptreel-chat' } });
  /** Another address of the same service: a service of its own, as far as secret headers go. */
  const elsewhere = () => `${ctx.service.baseUrl}/elsewhere`;

  /** Runs a command with promptreel.baseUrl set to `baseUrl`, as the user switches services, then switches back. */
  async function onService<T>(baseUrl: string, command: string, ...args: unknown[]): Promise<T | undefined> {
    await setSetting('baseUrl', baseUrl);
    try {
      return await vscode.commands.executeCommand<T | undefined>(command, ...args);
    } finally {
      await setSetting('baseUrl', ctx.service.baseUrl);
    }
  }

  afterEach(async () => {
    // What a failed test may have left: the secret header of either address, removed as the user removes it.
    const messages = recordMessages();
    try {
      for (const baseUrl of [ctx.service.baseUrl, elsewhere()]) await onService(baseUrl, 'promptreel.removeSecretHeader', HEADER);
    } finally {
      messages.restore();
    }
    for (const key of ['requestOptions', 'models.requestOptions']) await setSetting(key, undefined);
  });

  it('sends the settings of the service and of the model with the chat, and the query to the API paths', async () => {
    const api = await testApi();
    await setSetting('requestOptions', { headers: { 'X-Org': 'research' }, queryParameters: { 'api-version': '2025-01-01' }, extraBody: { top_k: 40 } });
    await setSetting('models.requestOptions', { 'promptreel-chat': { headers: { 'X-Route': 'eu' }, extraBody: { top_k: 20, safe_prompt: true } } });
    ctx.service.setScenario({ requiredQuery: { 'api-version': '2025-01-01' } });
    const conversation = api.chat.controller.store.create({});
    const reply = await api.chat.controller.send(conversation.id, { text: 'hello' });
    assert.equal(reply?.status, 'done', JSON.stringify(reply?.error));
    const chat = ctx.service.requests.filter((request) => request.path.startsWith('/v1/chat/completions')).at(-1);
    assert.equal(chat?.path, '/v1/chat/completions?api-version=2025-01-01');
    assert.equal(chat?.headers['x-org'], 'research');
    assert.equal(chat?.headers['x-route'], 'eu');
    const body = chat?.body as { top_k?: number; safe_prompt?: boolean; model: string };
    assert.deepEqual([body.model, body.top_k, body.safe_prompt], ['promptreel-chat', 20, true]);

    // Through VS Code's Chat API too: the same client.
    const [model] = await vscode.lm.selectChatModels({ vendor: 'promptreel', id: 'promptreel-chat' });
    assert.ok(model, 'the provider lists promptreel-chat');
    const response = await model.sendRequest([vscode.LanguageModelChatMessage.User('hi')], {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const part of response.text) text += part;
    assert.match(text, /You said: hi/);
    const fromLm = ctx.service.requests.filter((request) => request.path.startsWith('/v1/chat/completions')).at(-1);
    assert.equal(fromLm?.headers['x-route'], 'eu');
    assert.equal((fromLm?.body as { top_k?: number }).top_k, 20);
  });

  it('Set Secret Header keeps the value in secret storage, sends it to the service, hides it in the logs; Remove stops it', async () => {
    const api = await testApi();
    const lines: string[] = [];
    const sink = api.log.logger.addSink(memorySink(lines));
    ctx.service.setScenario({ requiredHeaders: { 'x-gateway-token': SECRET } });
    try {
      const refused = await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
      assert.equal(refused?.ok, false);
      assert.equal(refused?.status, 403);

      const stub = stubInputBox(['Authorization', HEADER, SECRET]);
      let stored: string | undefined;
      try {
        // The first name is refused by the box (Promptreel's own header): the user cancels, then starts again.
        stored = await vscode.commands.executeCommand<string | undefined>('promptreel.setSecretHeader');
        assert.equal(stored, undefined);
        stored = await vscode.commands.executeCommand<string | undefined>('promptreel.setSecretHeader');
      } finally {
        stub.restore();
      }
      assert.equal(stored, HEADER);
      assert.equal(stub.calls[2]?.password, true, 'the value is typed in a password box');
      const inSettings = JSON.stringify(vscode.workspace.getConfiguration('promptreel'));
      assert.ok(!inSettings.includes(SECRET), 'the value is not in the settings');

      const connected = await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
      assert.equal(connected?.ok, true, connected?.message);
      assert.match(connected?.message ?? '', /Custom headers sent: X-Gateway-Token \(secret\)\./);
      api.log.logger.forComponent('test').info(`echo of ${SECRET}`);
      const all = lines.join('\n');
      assert.ok(!all.includes(SECRET), 'the value never reaches the logs');
      assert.ok(all.includes('echo of ***'));

      assert.equal(await vscode.commands.executeCommand('promptreel.removeSecretHeader', HEADER), true);
      const afterRemove = await vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
      assert.equal(afterRemove?.status, 403, 'the header is no longer sent');
    } finally {
      sink.dispose();
    }
  });

  it('keeps secret headers per service: another address does not get them', async () => {
    const api = await testApi();
    const stub = stubInputBox([HEADER, SECRET]);
    try {
      assert.equal(await onService<string>(elsewhere(), 'promptreel.setSecretHeader'), HEADER);
    } finally {
      stub.restore();
    }
    const client = api.connection.clients.get();
    assert.ok(client);
    await client.listModels();
    assert.equal(ctx.service.requests.at(-1)?.headers['x-gateway-token'], undefined);
  });
});
