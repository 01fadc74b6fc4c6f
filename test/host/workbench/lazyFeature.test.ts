import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { LazyFeature } from '../../../src/workbench/lazyFeature';
import type { ComponentLogger } from '../../../src/common/logger';
import { testApi } from '../support/extension';
import { recordMessages } from '../support/recordMessages';

class Feature {
  disposed = false;
  constructor(readonly serial: number) {}
  dispose(): void {
    this.disposed = true;
  }
}

describe('LazyFeature: a feature whose code loads on first use', () => {
  let log: ComponentLogger;
  before(async () => {
    log = (await testApi()).log.logger.forComponent('test');
  });

  it('loads once for uses that come together, and hands the same feature to each', async () => {
    let loads = 0;
    const lazy = new LazyFeature('test feature', async () => new Feature(++loads), log);
    assert.equal(lazy.loaded, undefined);
    const [first, second] = await Promise.all([lazy.get(), lazy.get()]);
    assert.equal(loads, 1);
    assert.equal(first, second);
    assert.equal(lazy.loaded, first);
    lazy.dispose();
    assert.equal(first.disposed, true, 'disposing the holder disposes the feature it built');
  });

  it('tells the user a failed load with Show Logs, and tries again on the next use', async () => {
    let attempts = 0;
    const lazy = new LazyFeature(
      'test feature',
      async () => {
        attempts++;
        if (attempts === 1) throw new Error('chunk missing');
        return new Feature(attempts);
      },
      log,
    );
    const messages = recordMessages();
    try {
      assert.equal(await lazy.getOrReport(), undefined);
      assert.equal(messages.shown.length, 1);
      assert.equal(messages.shown[0]?.severity, 'error');
      assert.match(messages.shown[0]?.message ?? '', /chunk missing/);
      assert.deepEqual(messages.shown[0]?.items, ['Show Logs']);
      const feature = await lazy.getOrReport();
      assert.equal(feature?.serial, 2);
      assert.equal(messages.shown.length, 1, 'the load that worked shows nothing');
    } finally {
      messages.restore();
      lazy.dispose();
    }
  });

  it("registers commands that load the feature, then run the feature's handler with the command's arguments", async () => {
    let loads = 0;
    const lazy = new LazyFeature('test feature', async () => new Feature(++loads), log);
    const id = 'promptreel.test.lazyFeatureCommand';
    const registration = lazy.registerCommands([id], (feature) => ({ [id]: (...args: unknown[]) => `${feature.serial}:${args.join(',')}` }));
    try {
      assert.equal(loads, 0, 'registering loads nothing');
      assert.equal(await vscode.commands.executeCommand(id, 'a', 'b'), '1:a,b');
      assert.equal(await vscode.commands.executeCommand(id, 'c'), '1:c');
      assert.equal(loads, 1);
    } finally {
      registration.dispose();
      lazy.dispose();
    }
  });

  it('disposes, and refuses, a feature that finishes loading after the extension stopped', async () => {
    let release: () => void = () => undefined;
    const built = new Feature(1);
    const lazy = new LazyFeature('test feature', () => new Promise<Feature>((resolve) => (release = () => resolve(built))), log);
    const loading = lazy.get();
    lazy.dispose();
    release();
    await assert.rejects(loading, /loaded after the extension stopped/);
    assert.equal(built.disposed, true);
    assert.equal(lazy.loaded, undefined);
  });
});
