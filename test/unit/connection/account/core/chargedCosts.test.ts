import * as assert from 'node:assert/strict';
import { modelPrices } from '../../../../../src/api/account/prices';
import { quotaDisplay } from '../../../../../src/api/account/keyHealth';
import type { ChargedRequestRecord } from '../../../../../src/api/charges';
import { systemClock } from '../../../../../src/common/clock';
import { DisposableStore } from '../../../../../src/common/lifecycle';
import { memoryState } from '../../../../../src/common/stateStorage';
import { ChargedCosts } from '../../../../../src/connection/account/core/chargedCosts';
import { KeyLogMonitor } from '../../../../../src/connection/account/core/keyLogMonitor';
import { SpendTracker } from '../../../../../src/connection/account/core/spendTracker';
import { clientFor, collect, MemoryLogger, useLocalService } from '../../../support/localService';

/** The service logs a charge in quota units, 500000 per US dollar here. */
const QUOTA_PER_USD = 500_000;

describe('charged costs: what a reply that just ended was charged (issue 26.2, VS Code’s Chat)', () => {
  const ctx = useLocalService();
  let disposables = new DisposableStore();
  afterEach(() => {
    disposables.dispose();
    disposables = new DisposableStore();
  });

  /** The connection's chain: the client reports each charge to the record, the record asks the log, the matcher answers. */
  async function chain(waitingDebounceMs = 20) {
    const pricing = await clientFor(ctx.service).account.pricing();
    assert.ok(pricing.offered);
    const prices = modelPrices(pricing.value);
    const keyLog = disposables.add(
      new KeyLogMonitor({
        reader: () => Promise.resolve(client.account),
        display: (reader) => reader.status().then((status) => quotaDisplay(status.offered ? status.value : undefined)),
        clock: systemClock,
        log: new MemoryLogger(),
        chargeDebounceMs: 10_000,
        waitingDebounceMs,
      }),
    );
    const spending = disposables.add(
      new SpendTracker({
        memory: memoryState(),
        clock: systemClock,
        priceOf: (model) => {
          const price = prices.get(model);
          return price && { ...price, source: 'service' };
        },
      }),
    );
    const charges = disposables.add(new ChargedCosts(keyLog, spending, () => ctx.service.baseUrl));
    const client = clientFor(ctx.service, { onRequestCharged: (record: ChargedRequestRecord) => spending.record(ctx.service.baseUrl, record) });
    return { charges, client, keyLog };
  }

  async function ask(client: ReturnType<typeof clientFor>) {
    const events = await collect(await client.streamChatCompletion({ model: 'promptreel-chat', messages: [{ role: 'user', content: 'what did it cost?' }] }));
    const usage = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []))[0];
    const requestId = events.flatMap((event) => (event.type === 'request-id' ? [event.requestId] : []))[0];
    return { model: 'promptreel-chat', at: Date.now(), ...(usage ? { usage } : {}), ...(requestId ? { requestId } : {}) };
  }

  it('reads the log once, soon, and answers with the logged charge beside the estimate and the reason', async () => {
    ctx.service.setScenario({ account: { keyGroup: 'vip' } });
    const { charges, client } = await chain();
    const reply = await ask(client);
    let waited = 0;
    const settled = await charges.settleReply(reply, { waitMs: 10_000, onWaiting: () => waited++ });
    const logged = ctx.service.keyLog()[0];
    assert.equal(settled.charged?.usd, Number(logged?.['quota']) / QUOTA_PER_USD);
    assert.ok(settled.estimateUsd !== undefined && settled.charged.usd < settled.estimateUsd, 'the vip group pays less than estimated');
    assert.match(settled.charged.reason ?? '', /group "vip" \(ratio 0\.8\)/);
    assert.equal(waited, 1);
    assert.equal(ctx.service.logReads(), 1);
  });

  it('reads once more when the gateway had not written the entry yet, then gives up without a charge', async () => {
    ctx.service.setScenario({ account: { keyGroup: 'vip' } });
    const { charges, client } = await chain();
    const reply = await ask(client);
    const settled = await charges.settleReply({ ...reply, requestId: 'a-request-the-log-never-has' }, { waitMs: 10_000 });
    assert.equal(settled.charged, undefined);
    assert.equal(ctx.service.logReads(), 2, 'the first read, and one more');
  });

  it('waits for nothing where the service publishes no log: the estimate only', async () => {
    ctx.service.setScenario({ account: { log: 'absent' } });
    const { charges, client, keyLog } = await chain();
    await keyLog.refresh();
    const reply = await ask(client);
    let waited = 0;
    const settled = await charges.settleReply(reply, { waitMs: 10_000, onWaiting: () => waited++ });
    assert.deepEqual(Object.keys(settled), ['estimateUsd']);
    assert.equal(waited, 0);
    assert.equal(ctx.service.logReads(), 1, 'only the read that found no log');
  });

  it('stops waiting when the answer is cancelled', async () => {
    const { charges, client } = await chain(60_000);
    const reply = await ask(client);
    const cancel = new AbortController();
    const settling = charges.settleReply(reply, { waitMs: 60_000, signal: cancel.signal });
    cancel.abort();
    assert.equal((await settling).charged, undefined);
    assert.equal(ctx.service.logReads(), 0);
  });
});
