import * as assert from 'node:assert/strict';
import { KeyHealthMonitor } from '../../../../../src/connection/account/core/keyHealthMonitor';
import { keyHealthIsBad, keyHealthText, keyHealthTooltip } from '../../../../../src/account/core/keyHealthText';
import type { PromptreelClient } from '../../../../../src/api/client';
import { silentLogger } from '../../../../../src/api/apiLogger';
import { FakeClock } from '../../../../fakes/fakeClock';
import { clientFor, useLocalService, waitUntil } from '../../../support/localService';

describe('key health monitor (against the local service)', () => {
  const ctx = useLocalService();

  function monitorFor(client: PromptreelClient | undefined, clock = new FakeClock(Date.now())) {
    return { clock, monitor: new KeyHealthMonitor({ reader: async () => client?.account, clock, log: silentLogger }) };
  }

  const accountReads = () => ctx.service.requests.filter((request) => request.path.startsWith('/api/usage/token')).length;

  it('reads the key usage and the display unit, and words it for the status bar', async () => {
    const { monitor, clock } = monitorFor(clientFor(ctx.service));
    const state = await monitor.refresh();
    assert.equal(state.kind, 'known');
    assert.match(keyHealthText(state, clock.now()) ?? '', /^\$\(key\) \$3\.20 left · 1[12] days$/);
    const tooltip = keyHealthTooltip(state, ctx.service.baseUrl, clock.now());
    assert.match(tooltip, /Left: \$3\.20 of \$10\.00/);
    assert.match(tooltip, /Used: \$6\.80/);
    assert.match(tooltip, /Expires: \d{4}-\d\d-\d\d/);
    assert.equal(keyHealthIsBad(state, clock.now()), false);
  });

  it('falls back to the billing pair when the key usage endpoint is not offered', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'absent' } });
    const { monitor } = monitorFor(clientFor(ctx.service));
    const state = await monitor.refresh();
    assert.ok(state.kind === 'known');
    assert.equal(state.health.source, 'billing');
  });

  it('says "not offered" when neither is, and shows nothing', async () => {
    ctx.service.setScenario({ account: { tokenUsage: 'html', billing: 'absent' } });
    const { monitor, clock } = monitorFor(clientFor(ctx.service));
    const state = await monitor.refresh();
    assert.equal(state.kind, 'not-offered');
    assert.equal(keyHealthText(state, clock.now()), undefined);
  });

  it('names an expired, a used-up and a refused key, as a warning', async () => {
    ctx.service.setScenario({ account: { expiresInDays: -2 } });
    const expired = monitorFor(clientFor(ctx.service));
    const expiredState = await expired.monitor.refresh();
    assert.equal(keyHealthText(expiredState, expired.clock.now()), '$(warning) expired');
    assert.equal(keyHealthIsBad(expiredState, expired.clock.now()), true);
    ctx.service.setScenario({ account: { expiresInDays: 5, tokenUsage: 'exhausted' } });
    const usedUp = monitorFor(clientFor(ctx.service));
    assert.equal(keyHealthText(await usedUp.monitor.refresh(), usedUp.clock.now()), '$(warning) used up');
    const refused = monitorFor(clientFor(ctx.service, { apiKey: () => 'sk-wrong' }));
    const refusedState = await refused.monitor.refresh();
    assert.equal(refusedState.kind, 'refused');
    assert.equal(keyHealthText(refusedState, refused.clock.now()), '$(warning) key refused');
  });

  it('asks nothing without a service and key, and one read answers callers that ask at once', async () => {
    const none = monitorFor(undefined);
    assert.equal((await none.monitor.refresh()).kind, 'unknown');
    assert.equal(accountReads(), 0);
    const { monitor } = monitorFor(clientFor(ctx.service));
    await Promise.all([monitor.refresh(), monitor.refresh(), monitor.refresh()]);
    assert.equal(accountReads(), 1);
  });

  it('reads once after a burst of charged requests, when the burst is over', async () => {
    const { monitor, clock } = monitorFor(clientFor(ctx.service));
    for (let i = 0; i < 5; i++) {
      monitor.afterCharge();
      await clock.advance(1_000);
    }
    assert.equal(accountReads(), 0, 'not during the burst');
    await clock.advance(5_000);
    await waitUntil(() => accountReads() === 1);
    assert.equal(monitor.state.kind, 'known');
  });

  it('reads the display unit once per service, the key usage each time', async () => {
    const { monitor } = monitorFor(clientFor(ctx.service));
    await monitor.refresh();
    await monitor.refresh();
    const statusReads = () => ctx.service.requests.filter((request) => request.path === '/api/status').length;
    assert.equal(accountReads(), 2);
    assert.equal(statusReads(), 1);
    monitor.forget();
    await monitor.refresh();
    assert.equal(statusReads(), 2, 'read again for another key or service');
  });

  it('forgets what it knew when the key or the service changes', async () => {
    const { monitor } = monitorFor(clientFor(ctx.service));
    await monitor.refresh();
    const seen: string[] = [];
    monitor.onDidChange((state) => seen.push(state.kind));
    monitor.forget();
    assert.equal(monitor.state.kind, 'unknown');
    assert.deepEqual(seen, ['unknown']);
  });

  it('keeps what it knew when the service cannot be reached', async () => {
    const client = clientFor(ctx.service);
    const { monitor } = monitorFor(client);
    await monitor.refresh();
    ctx.service.setScenario({ fault: { status: 503, body: 'html', path: '^/api/' } });
    const state = await monitor.refresh();
    assert.equal(state.kind, 'known');
  });
});
