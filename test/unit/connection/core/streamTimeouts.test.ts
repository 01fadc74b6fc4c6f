import * as assert from 'node:assert/strict';
import { streamTimeoutsOf } from '../../../../src/connection/core/streamTimeouts';

describe("a model's timeouts from promptreel.models.capabilities", () => {
  it('takes the declared ones in milliseconds, and the defaults that suit reasoning models otherwise', () => {
    assert.deepEqual(streamTimeoutsOf(undefined), { firstTokenMs: 300_000, idleMs: 120_000 });
    assert.deepEqual(streamTimeoutsOf({ connectTimeoutSeconds: 5, firstTokenTimeoutSeconds: 30, idleTimeoutSeconds: 10 }), {
      firstTokenMs: 30_000,
      idleMs: 10_000,
      connectMs: 5_000,
    });
  });
});
