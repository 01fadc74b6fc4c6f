import * as assert from 'assert';
import { followupsFor } from '../../../../src/participant/core/followups';
import { failureText, recoveryActions, videoRecoveryActions } from '../../../../src/participant/core/recovery';
import { ApiError } from '../../../../src/api';

describe('participant: follow-ups', () => {
  it('offers more detail after an answer, and a focused /explain after an explanation', () => {
    assert.deepStrictEqual(
      followupsFor({ kind: 'answer', model: 'm' }).map((followup) => followup.label),
      ['Tell me more', 'Summarize'],
    );
    assert.deepStrictEqual(
      followupsFor({ kind: 'explain' }).map((followup) => [followup.label, followup.command]),
      [
        ['Explain it more simply', 'explain'],
        ['What could go wrong?', 'explain'],
      ],
    );
  });

  it('offers another video from the same prompt', () => {
    assert.deepStrictEqual(followupsFor({ kind: 'video', prompt: 'a cat', taskId: 't' }), [
      { prompt: 'a cat', label: 'Make another video from the same prompt', command: 'video' },
    ]);
  });

  it('offers nothing after a failure, a cancellation, a setup hint or unknown metadata', () => {
    for (const metadata of [{ kind: 'error' }, { kind: 'cancelled' }, { kind: 'setup' }, undefined, { kind: 'other' }, 'text']) {
      assert.deepStrictEqual(followupsFor(metadata), []);
    }
  });
});

describe('participant: recovery actions', () => {
  const http = (status: number, code?: string) => new ApiError({ kind: 'http', status, code, message: `HTTP ${status}`, hint: 'Do something.' });

  it('decides on kind, status and code', () => {
    assert.deepStrictEqual(recoveryActions(new ApiError({ kind: 'no-key', message: 'No key', hint: 'Set one' })), ['setApiKey', 'showLogs']);
    assert.deepStrictEqual(recoveryActions(http(401)), ['setApiKey', 'showLogs']);
    assert.deepStrictEqual(recoveryActions(http(503, 'model_not_found')), ['selectChatModel', 'showLogs']);
    assert.deepStrictEqual(recoveryActions(http(403)), ['selectChatModel', 'showLogs']);
    assert.deepStrictEqual(recoveryActions(http(404)), ['openSettings', 'showLogs']);
    assert.deepStrictEqual(recoveryActions(new ApiError({ kind: 'network', message: 'ECONNREFUSED', hint: 'Check' })), [
      'testConnection',
      'openSettings',
      'showLogs',
    ]);
    assert.deepStrictEqual(recoveryActions(http(500)), ['showLogs']);
    assert.deepStrictEqual(recoveryActions(new Error('boom')), ['showLogs']);
  });

  it('points /video failures at the video model setting', () => {
    assert.deepStrictEqual(videoRecoveryActions(new Error('No video model is set')), ['videoModelSettings', 'showLogs']);
    assert.deepStrictEqual(videoRecoveryActions(http(400)), ['videoModelSettings', 'showLogs']);
    assert.deepStrictEqual(videoRecoveryActions(http(401)), ['setApiKey', 'showLogs']);
  });

  it('shows the message and the hint', () => {
    assert.strictEqual(failureText(http(500)), 'HTTP 500 Do something.');
    assert.strictEqual(failureText(new Error('boom')), 'boom');
  });
});
