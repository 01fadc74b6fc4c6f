import * as assert from 'node:assert/strict';
import { followupsFor } from '../../../../src/participant/core/followups';

describe('participant: follow-ups', () => {
  it('offers more detail after an answer, and a focused /explain after an explanation', () => {
    assert.deepEqual(
      followupsFor({ kind: 'answer', model: 'm' }).map((followup) => followup.label),
      ['Tell me more', 'Summarize'],
    );
    assert.deepEqual(
      followupsFor({ kind: 'explain' }).map((followup) => [followup.label, followup.command]),
      [
        ['Explain it more simply', 'explain'],
        ['What could go wrong?', 'explain'],
      ],
    );
  });

  it('offers another video from the same prompt', () => {
    assert.deepEqual(followupsFor({ kind: 'video', prompt: 'a cat', taskId: 't' }), [
      { prompt: 'a cat', label: 'Make another video from the same prompt', command: 'video' },
    ]);
  });

  it('offers nothing after a failure, a cancellation, a setup hint or unknown metadata', () => {
    for (const metadata of [{ kind: 'error' }, { kind: 'cancelled' }, { kind: 'setup' }, undefined, { kind: 'other' }, 'text']) {
      assert.deepEqual(followupsFor(metadata), []);
    }
  });
});
