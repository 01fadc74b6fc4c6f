import * as assert from 'node:assert/strict';
import { lazy } from '../../../src/api/lazy';
import { parseSetting } from '../../../src/config/schema';

describe('lazy: a value made on its first use', () => {
  it('makes nothing until asked, then makes it once', () => {
    let made = 0;
    const value = lazy(() => ({ made: ++made }));
    assert.equal(made, 0);
    const first = value();
    assert.equal(value(), first);
    assert.equal(made, 1);
  });

  it('keeps a value that is undefined, without making it again', () => {
    let made = 0;
    const value = lazy(() => {
      made++;
      return undefined;
    });
    assert.equal(value(), undefined);
    assert.equal(value(), undefined);
    assert.equal(made, 1);
  });

  it('settings built per key on their first read still check every value', () => {
    assert.equal(parseSetting('video.seconds', 8), '8');
    assert.equal(parseSetting('video.seconds', '61'), undefined);
    assert.deepEqual(parseSetting('models.capabilities', { m: { contextWindow: 8000, unknown: 1 } }), { m: { contextWindow: 8000 } });
    assert.equal(parseSetting('models.capabilities', { m: { contextWindow: -1 } }), undefined);
    assert.equal(parseSetting('video.seed', null), null);
  });
});
