import * as assert from 'node:assert/strict';
import { normalizeVideoTask, parseProgress, stateFromStatus } from '../../../../src/api/video/normalize';

describe('video task normalisation', () => {
  it('reads the OpenAI-style create response', () => {
    const task = normalizeVideoTask({ id: 'task_a', task_id: 'task_a', object: 'video', model: 'm', status: 'queued', progress: 0, created_at: 1763790000 });
    assert.deepEqual(task, { id: 'task_a', state: 'pending', status: 'queued', progress: 0, model: 'm', createdAt: 1763790000 });
  });

  it('reads the id from task_id, data.task_id and data.id', () => {
    assert.equal(normalizeVideoTask({ task_id: 't1', status: 'queued' })?.id, 't1');
    assert.equal(normalizeVideoTask({ code: 'success', message: '', data: { task_id: 't2', status: 'SUBMITTED' } })?.id, 't2');
    assert.equal(normalizeVideoTask({ code: 'success', data: { id: 't3' } })?.id, 't3');
    assert.equal(normalizeVideoTask({ status: 'queued' }), undefined);
    assert.equal(normalizeVideoTask({ status: 'queued' }, 'given')?.id, 'given');
    assert.equal(normalizeVideoTask('nope'), undefined);
  });

  for (const status of ['unknown', 'queued', 'in_progress', 'NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'rendering', '']) {
    it(`"${status}" is pending and kept raw`, () => {
      const task = normalizeVideoTask({ id: 'x', status });
      assert.equal(task?.state, 'pending');
      assert.equal(task?.status, status);
    });
  }
  for (const status of ['completed', 'SUCCESS', 'succeeded']) {
    it(`"${status}" is completed`, () => assert.equal(stateFromStatus(status), 'completed'));
  }
  for (const status of ['failed', 'FAILURE', 'cancelled']) {
    it(`"${status}" is failed`, () => assert.equal(stateFromStatus(status), 'failed'));
  }

  it('a missing status is "unknown", still pending', () => {
    assert.deepEqual(normalizeVideoTask({ id: 'x' }), { id: 'x', state: 'pending', status: 'unknown' });
  });

  const address = 'https://cdn.example/v.mp4?sig=1';
  const variants: Record<string, unknown> = {
    'metadata.url': { metadata: { url: address } },
    video_url: { video_url: address },
    url: { url: address },
    'content.video_url': { content: { video_url: address } },
    result_url: { result_url: address },
    'data.result_url': { data: { result_url: address } },
  };
  for (const [name, fields] of Object.entries(variants)) {
    it(`finds the address in ${name}`, () => {
      const task = normalizeVideoTask({ id: 'x', status: 'completed', ...(fields as object) });
      assert.equal(task?.videoUrl, address);
    });
  }

  it('finds the address inside a data envelope', () => {
    assert.equal(normalizeVideoTask({ code: 'success', data: { task_id: 'x', status: 'SUCCESS', result_url: address } })?.videoUrl, address);
  });

  it('an empty metadata.url is no address; a completed task may have none', () => {
    const task = normalizeVideoTask({ id: 'x', status: 'completed', metadata: { url: '' } });
    assert.equal(task?.state, 'completed');
    assert.equal(task?.videoUrl, undefined);
  });

  it('does not infer the state from completed_at', () => {
    assert.equal(normalizeVideoTask({ id: 'x', status: 'in_progress', completed_at: 1763790000 })?.state, 'pending');
  });

  it('reads the failure from error.message, error string, fail_reason, or nothing', () => {
    assert.equal(normalizeVideoTask({ id: 'x', status: 'failed', error: { message: 'moderation', code: 'x' } })?.error, 'moderation');
    assert.equal(normalizeVideoTask({ id: 'x', status: 'failed', error: 'boom' })?.error, 'boom');
    assert.equal(normalizeVideoTask({ id: 'x', status: 'FAILURE', fail_reason: 'timeout' })?.error, 'timeout');
    const silent = normalizeVideoTask({ id: 'x', status: 'failed' });
    assert.equal(silent?.state, 'failed');
    assert.equal(silent?.error, undefined);
  });

  it('tolerates wrong types and unknown fields', () => {
    const task = normalizeVideoTask({ id: 'x', status: 'queued', progress: { weird: true }, model: 42, surprise: [1, 2] });
    assert.deepEqual(task, { id: 'x', state: 'pending', status: 'queued' });
  });

  it('reads progress as a number or a percent string', () => {
    assert.equal(parseProgress(50), 50);
    assert.equal(parseProgress('100%'), 100);
    assert.equal(parseProgress('12.6'), 13);
    assert.equal(parseProgress(140), 100);
    assert.equal(parseProgress('n/a'), undefined);
    assert.equal(normalizeVideoTask({ id: 'x', status: 'IN_PROGRESS', progress: '50%' })?.progress, 50);
  });
});
