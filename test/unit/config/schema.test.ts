import * as assert from 'node:assert/strict';
import { parseSetting } from '../../../src/config/schema';

describe('settings schema', () => {
  it('issue 11.14: promptreel.video.seconds out of 1–60 is refused (the default is used instead)', () => {
    for (const raw of ['0', 0, '999999', 999999, '61', '-1', '5s', 5.5]) assert.equal(parseSetting('video.seconds', raw), undefined, JSON.stringify(raw));
    assert.equal(parseSetting('video.seconds', 10), '10');
    assert.equal(parseSetting('video.seconds', ' 60 '), '60');
    assert.equal(parseSetting('video.seconds', '1'), '1');
  });

  it('issue 11.14: promptreel.video.seed stays within 0 to 2^32 - 1', () => {
    assert.equal(parseSetting('video.seed', -1), undefined);
    assert.equal(parseSetting('video.seed', 2 ** 32), undefined);
    assert.equal(parseSetting('video.seed', null), null);
    assert.equal(parseSetting('video.seed', 7), 7);
  });
});
