import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DoctorResult } from '../../../src/doctor/core/doctorResult';
import { useConnectedService } from '../support/connectedService';
import { recordMessages } from '../support/recordMessages';
import { setSetting, testApi } from '../support/extension';

async function testConnection(): Promise<DoctorResult> {
  return vscode.commands.executeCommand<DoctorResult>('promptreel.testConnection');
}

function stepsOf(result: DoctorResult): string {
  return result.steps.map((step) => `${step.name}:${step.ok ? 'ok' : 'failed'}`).join(' ');
}

describe('shell: Test Connection against the local service', () => {
  const ctx = useConnectedService(
    { settings: { 'chat.model': undefined } },
    {
      // Keys are kept per base URL: the one a test stored for the prefixed address goes too.
      teardown: async () => {
        await useService(`${ctx.service.baseUrl}/api`);
        await (await testApi()).connection.keyStore.clear();
        await useService(ctx.service.baseUrl);
      },
    },
  );

  /**
   * Other features (model lists, the language model provider) refresh in the background when the key or base URL
   * changes. Waits until the service has been quiet for a moment and returns how many requests it saw until then,
   * so a test can look only at what the doctor itself sent.
   */
  async function quietMark(): Promise<number> {
    let count = -1;
    while (count !== ctx.service.requests.length || ctx.service.activeRequests() > 0) {
      count = ctx.service.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    return count;
  }

  /** Points the extension at `baseUrl` and stores `key` for it (keys are scoped per base URL). */
  async function useService(baseUrl: string, key: string = ctx.service.demoKey): Promise<void> {
    const { keyStore } = (await testApi()).connection;
    await setSetting('baseUrl', baseUrl);
    await keyStore.store(key);
  }

  it('reports success with the model count, the chat answer time, the key quota and the prices', async () => {
    const result = await testConnection();
    assert.equal(result.ok, true, result.message);
    assert.match(
      result.message,
      new RegExp(
        `^Connected to ${ctx.service.baseUrl.replace(/\./g, '\\.')} — 3 models; chat model promptreel-chat answered in \\d+ ms\\. ` +
          'Key quota: \\$3\\.20 left of \\$10\\.00 \\(used \\$6\\.80\\), expires \\d{4}-\\d{2}-\\d{2} \\(1[12] days\\)\\. ' +
          'Prices: promptreel-chat \\$3\\.00 in / \\$12\\.00 out per 1M tokens; promptreel-video \\$0\\.40 per request\\.$',
      ),
    );
    assert.equal(stepsOf(result), 'base-url:ok api-key:ok models:ok chat:ok account:ok');
    const chat = ctx.service.requests.find((request) => request.path === '/v1/chat/completions');
    assert.ok(chat, 'a chat completion was sent');
    assert.deepEqual(
      { model: (chat.body as { model: string }).model, max_tokens: (chat.body as { max_tokens: number }).max_tokens },
      { model: 'promptreel-chat', max_tokens: 1 },
      'a one-token completion with the first chat model (the video model is skipped)',
    );
    assert.equal(chat.key, ctx.service.demoKey);
  });

  it('stays a success on a gateway that offers no quota, and warns about a used-up key without failing', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'absent', billing: 'absent', pricing: 'absent' } });
    const messages = recordMessages();
    try {
      const plain = await testConnection();
      assert.equal(plain.ok, true, plain.message);
      assert.match(plain.message, / answered in \d+ ms\. Key quota: not offered by this service\.$/);
      assert.equal(stepsOf(plain), 'base-url:ok api-key:ok models:ok chat:ok account:ok');

      ctx.service.setScenario({ account: { tokenUsage: 'exhausted', pricing: 'offered' } });
      const usedUp = await testConnection();
      assert.equal(usedUp.ok, true, usedUp.message);
      assert.match(usedUp.message, /Key quota: used up \(\$10\.00 of \$10\.00\), expires/);
      // Other features may warn about the key on their own: only Test Connection's messages count here.
      const shown = messages.shown.filter((message) => message.message.startsWith('Connected to'));
      assert.deepEqual(
        shown.map((message) => `${message.severity}: ${message.items.join(', ')}`),
        ['info: ', 'warning: Set API Key, Show Logs'],
      );
      assert.equal(shown[1].message, usedUp.message, 'the message shown is the one returned');
    } finally {
      messages.restore();
    }
  });

  it('tests the configured chat model', async () => {
    await setSetting('chat.model', 'promptreel-reasoner');
    const result = await testConnection();
    assert.equal(result.ok, true, result.message);
    assert.equal(result.chatModel, 'promptreel-reasoner');
  });

  it('notes a doubled /v1 in the base URL and still connects', async () => {
    await setSetting('baseUrl', `${ctx.service.baseUrl}/v1/v1`);
    const result = await testConnection();
    assert.equal(result.ok, true, result.message);
    assert.match(result.message, /\/v1 more than once/);
    assert.ok(ctx.service.requests.every((request) => !request.path.startsWith('/v1/v1')));
  });

  it('explains 401: the key was refused', async () => {
    await useService(ctx.service.baseUrl, 'sk-refused-by-service-0011');
    const result = await testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.status, 401);
    assert.equal(stepsOf(result), 'base-url:ok api-key:ok models:failed');
    assert.match(result.message, /refused the API key \(HTTP 401\)/);
    assert.match(result.message, /invalid, expired, disabled or out of quota/);
    assert.deepEqual(result.actions, ['setApiKey', 'showLogs']);
  });

  it('explains 403: the key may not use the model or the quota is too low', async () => {
    ctx.service.setScenario({
      fault: {
        status: 403,
        body: 'openai',
        code: 'insufficient_user_quota',
        type: 'new_api_error',
        message: 'user quota is not enough',
        path: 'chat/completions',
      },
    });
    const result = await testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.status, 403);
    assert.equal(result.code, 'insufficient_user_quota');
    assert.equal(stepsOf(result), 'base-url:ok api-key:ok models:ok chat:failed');
    assert.match(result.message, /The test message to promptreel-chat was not allowed \(HTTP 403\)/);
    assert.match(result.message, /user quota is not enough/, 'the server message is shown');
    assert.match(result.message, /balance or the key's quota is too low/, 'the hint is shown');
    assert.ok(result.actions.includes('selectChatModel'));
  });

  it('explains 404: a wrong base URL (a path prefix)', async () => {
    await useService(`${ctx.service.baseUrl}/api`);
    const result = await testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.status, 404);
    assert.equal(stepsOf(result), 'base-url:ok api-key:ok models:failed');
    assert.ok(result.message.includes(`Nothing was found at ${ctx.service.baseUrl}/api/v1/models (HTTP 404)`), result.message);
    assert.ok(result.message.includes(`has the path "/api"`), result.message);
    assert.ok(result.message.includes(`try ${ctx.service.baseUrl}`), result.message);
    assert.deepEqual(result.actions, ['openSettings', 'retry', 'showLogs']);
  });

  it('explains 429: rate limited, without hammering the service', async () => {
    const mark = await quietMark();
    ctx.service.setScenario({ fault: { status: 429, body: 'empty', retryAfter: '7' } });
    const result = await testConnection();
    assert.equal(result.ok, false);
    assert.equal(result.status, 429);
    assert.match(result.message, /rate limiting requests \(HTTP 429\)/);
    assert.match(result.message, /retry after 7 s/);
    assert.equal(result.actions[0], 'retry');
    assert.equal(ctx.service.requests.slice(mark).filter((request) => request.path === '/v1/models').length, 1, 'the doctor does not retry by itself');
  });

  it('says when no API key is there', async () => {
    const { keyStore } = (await testApi()).connection;
    await keyStore.clear();
    const saved = process.env.PROMPTREEL_API_KEY;
    delete process.env.PROMPTREEL_API_KEY;
    try {
      const mark = await quietMark();
      const result = await testConnection();
      assert.equal(stepsOf(result), 'base-url:ok api-key:failed');
      assert.match(result.message, /No API key for/);
      assert.deepEqual(result.actions, ['setApiKey']);
      assert.equal(ctx.service.requests.length - mark, 0, 'nothing is sent without a key');
    } finally {
      if (saved !== undefined) process.env.PROMPTREEL_API_KEY = saved;
    }
  });

  it('says when the base URL is not set', async () => {
    await setSetting('baseUrl', undefined);
    const result = await testConnection();
    assert.equal(stepsOf(result), 'base-url:failed');
    assert.match(result.message, /set promptreel\.baseUrl/);
    assert.equal(result.actions[0], 'openSettings');
  });

  it('explains an unreachable service', async () => {
    await useService('http://127.0.0.1:1');
    const result = await testConnection();
    assert.equal(result.ok, false);
    assert.match(result.message, /^Listing the models at http:\/\/127\.0\.0\.1:1: Could not reach 127\.0\.0\.1:1/);
    assert.ok(result.actions.includes('openSettings') && result.actions.includes('retry'));
    const { keyStore } = (await testApi()).connection;
    await keyStore.clear();
  });
});
