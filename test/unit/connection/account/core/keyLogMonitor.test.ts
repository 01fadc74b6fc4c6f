import * as assert from 'node:assert/strict';
import { KeyLogMonitor } from '../../../../../src/connection/account/core/keyLogMonitor';
import { systemClock } from '../../../../../src/common/clock';
import { quotaDisplay } from '../../../../../src/api/account/keyHealth';
import { clientFor, MemoryLogger, useLocalService } from '../../../support/localService';

describe('the key log monitor (issue 26: the log costs nothing until needed, then one read per burst of charges)', () => {
  const ctx = useLocalService();

  function monitorFor(chargeDebounceMs = 50) {
    const client = clientFor(ctx.service);
    return new KeyLogMonitor({
      reader: () => Promise.resolve(client.account),
      display: (reader) => reader.status().then((status) => quotaDisplay(status.offered ? status.value : undefined)),
      clock: systemClock,
      log: new MemoryLogger(),
      chargeDebounceMs,
    });
  }

  it('reads nothing until something asks, then once; charges before that lead to no read', async () => {
    const monitor = monitorFor();
    try {
      monitor.afterCharge();
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(ctx.service.logReads(), 0);
      await clientFor(ctx.service).createVideoTask({ model: 'promptreel-video', prompt: 'logged' });
      const [entries, again] = await Promise.all([monitor.entries(), monitor.entries()]);
      assert.equal(ctx.service.logReads(), 1, 'two callers at once share one read');
      assert.equal(entries?.length, 1);
      assert.equal(entries?.[0]?.usd, 0.4);
      assert.equal(again, entries);
    } finally {
      monitor.dispose();
    }
  });

  it('a burst of charges leads to one read after its end', async () => {
    const monitor = monitorFor();
    try {
      await monitor.entries();
      for (let i = 0; i < 5; i++) monitor.afterCharge();
      const deadline = Date.now() + 5_000;
      while (ctx.service.logReads() < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(ctx.service.logReads(), 2);
    } finally {
      monitor.dispose();
    }
  });

  it('a surface that will show what charges cost asks once per burst: one read after the last of them, none before', async () => {
    const monitor = monitorFor();
    try {
      for (let i = 0; i < 5; i++) monitor.want();
      assert.equal(ctx.service.logReads(), 0, 'not at once');
      const deadline = Date.now() + 5_000;
      while (ctx.service.logReads() < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(ctx.service.logReads(), 1);
      monitor.want();
      while (ctx.service.logReads() < 2 && Date.now() < deadline + 5_000) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(ctx.service.logReads(), 2, 'the next burst gets its own read');
    } finally {
      monitor.dispose();
    }
  });

  it('a service that publishes no log is asked once, and charges do not ask it again', async () => {
    ctx.service.setScenario({ account: { log: 'absent' } });
    const monitor = monitorFor();
    try {
      assert.equal(await monitor.entries(), undefined);
      assert.equal(monitor.state.kind, 'not-offered');
      monitor.afterCharge();
      await new Promise((resolve) => setTimeout(resolve, 150));
      assert.equal(await monitor.entries(), undefined);
      assert.equal(ctx.service.requests.filter((request) => request.path.startsWith('/api/log/token')).length, 1);
    } finally {
      monitor.dispose();
    }
  });
});
