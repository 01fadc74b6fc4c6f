import * as assert from 'node:assert/strict';
import { ConnectionDoctor } from '../../../../src/doctor/core/connectionDoctor';
import type { DoctorStepName } from '../../../../src/doctor/core/doctorResult';
import { clientFor, useLocalService } from '../../support/localService';

describe('Test Connection: the key quota after the checks, against the local service', () => {
  const ctx = useLocalService();

  function doctor(videoModel = '') {
    return new ConnectionDoctor({
      baseUrlInput: () => ctx.service.baseUrl,
      apiKey: () => Promise.resolve({ key: ctx.service.demoKey, source: 'secret-storage' }),
      createClient: (baseUrl) => clientFor(ctx.service, { baseUrl, retry: { retries: 0 } }),
      chatModel: () => '',
      videoModel: () => videoModel,
    });
  }

  it('adds the quota and the prices of the chat and video models to the success, with the same key', async () => {
    const started: DoctorStepName[] = [];
    const result = await doctor().run({ onStep: (name) => started.push(name) });
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(started, ['base-url', 'api-key', 'models', 'chat', 'account']);
    assert.deepEqual(
      result.steps.map((step) => `${step.name}:${step.ok}`),
      ['base-url:true', 'api-key:true', 'models:true', 'chat:true', 'account:true'],
    );
    assert.match(
      result.message,
      / answered in \d+ ms\. Key quota: \$3\.20 left of \$10\.00 \(used \$6\.80\), expires \d{4}-\d{2}-\d{2} \(1[12] days\)\. Prices: promptreel-chat \$3\.00 in \/ \$12\.00 out per 1M tokens; promptreel-video \$0\.40 per request\.$/,
    );
    assert.equal(result.steps.at(-1)?.detail, `${result.account?.quota} ${result.account?.prices}`);
    const usage = ctx.service.requests.find((request) => request.path === '/api/usage/token');
    assert.equal(usage?.key, ctx.service.demoKey);
  });

  it('names the custom headers it sent (never their values), in the success and when the gateway refuses', async () => {
    ctx.service.setScenario({ requiredHeaders: { 'x-gateway-token': 'open-sesame' } });
    const withHeaders = (headers: Record<string, string>) =>
      new ConnectionDoctor({
        baseUrlInput: () => ctx.service.baseUrl,
        apiKey: () => Promise.resolve({ key: ctx.service.demoKey, source: 'secret-storage' }),
        createClient: (baseUrl) => clientFor(ctx.service, { baseUrl, retry: { retries: 0 }, extras: () => ({ headers, secrets: Object.values(headers) }) }),
        chatModel: () => '',
        videoModel: () => '',
        extraHeaders: () => Promise.resolve(Object.keys(headers).map((name) => `${name} (secret)`)),
      });
    const refused = await withHeaders({ 'X-Gateway-Token': 'wrong-value' }).run();
    assert.equal(refused.ok, false);
    assert.equal(refused.status, 403);
    assert.match(refused.message, /header x-gateway-token is missing or wrong.* Custom headers sent: X-Gateway-Token \(secret\)\.$/);
    assert.ok(!refused.message.includes('wrong-value'));
    const connected = await withHeaders({ 'X-Gateway-Token': 'open-sesame' }).run();
    assert.equal(connected.ok, true, connected.message);
    assert.match(connected.message, / Custom headers sent: X-Gateway-Token \(secret\)\. Key quota: /);
  });

  it('names the configured video model rather than those the service lists', async () => {
    const result = await doctor('promptreel-reasoner').run();
    assert.match(
      result.message,
      /Prices: promptreel-chat \$3\.00 in \/ \$12\.00 out per 1M tokens; promptreel-reasoner \$10\.00 in \/ \$40\.00 out per 1M tokens\.$/,
    );
  });

  it('stays a success on a gateway without any account endpoint', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'absent', billing: 'absent', display: 'absent', pricing: 'absent' } });
    const result = await doctor().run();
    assert.equal(result.ok, true);
    assert.match(result.message, / answered in \d+ ms\. Key quota: not offered by this service\.$/);
    assert.deepEqual(result.account, { quota: 'Key quota: not offered by this service.' });
  });

  it('stays a success when the service refuses the key on the quota endpoints', async () => {
    ctx.service.setScenario({ fault: { status: 401, code: 'invalid_api_key', message: 'access token required', path: 'usage/token|dashboard' } });
    const result = await doctor().run();
    assert.equal(result.ok, true);
    assert.equal(result.steps.at(-1)?.ok, true);
    assert.match(result.message, /Key quota: the service refused the key when asked about its quota \(access token required.*\)\. Prices: /);
  });

  it('flags a used-up key but still reports the connection as working', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'exhausted' } });
    const result = await doctor().run();
    assert.equal(result.ok, true);
    assert.equal(result.account?.keyProblem, 'used-up');
    assert.match(result.message, /Key quota: used up \(\$10\.00 of \$10\.00\), expires/);
  });
});
