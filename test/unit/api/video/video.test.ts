import * as assert from 'node:assert/strict';
import { ApiError } from '../../../../src/api/errors';
import type { VideoTask } from '../../../../src/api/video/task';
import type { PromptreelClient } from '../../../../src/api/client';
import { clientFor, useLocalService, v1Requests } from '../../support/localService';

const request = {
  model: 'promptreel-video',
  prompt: 'A paper boat on a rainy street',
  seconds: 5,
  moderator: false,
  metadata: { resolution: '720p', ratio: '16:9', generate_audio: true, watermark: false, seed: 42 },
};

async function pollToEnd(client: PromptreelClient, id: string, limit = 20): Promise<VideoTask[]> {
  const seen: VideoTask[] = [];
  for (let i = 0; i < limit; i++) {
    const task = await client.getVideoTask(id);
    seen.push(task);
    if (task.state !== 'pending') return seen;
  }
  throw new Error('the task never finished');
}

describe('video tasks against the local service', () => {
  const ctx = useLocalService();

  it('creates a task with the whole documented body, seconds as a string', async () => {
    const task = await clientFor(ctx.service).createVideoTask(request);
    assert.match(task.id, /^task_/);
    assert.equal(task.state, 'pending');
    const posted = v1Requests(ctx.service, 'POST', '/v1/videos');
    assert.equal(posted.length, 1);
    assert.deepEqual(posted[0].body, { ...request, seconds: '5' });
    assert.equal(posted[0].headers['content-type'], 'application/json');
  });

  it('leaves out what the user did not set', async () => {
    await clientFor(ctx.service).createVideoTask({ model: 'promptreel-video', prompt: 'p', metadata: { seed: undefined } });
    assert.deepEqual(v1Requests(ctx.service, 'POST', '/v1/videos')[0].body, { model: 'promptreel-video', prompt: 'p' });
  });

  for (const [name, bad, param] of [
    ['seconds "0"', { seconds: '0' }, 'seconds'],
    ['seconds 999999', { seconds: 999999 }, 'seconds'],
    ['seconds "61"', { seconds: '61' }, 'seconds'],
    ['seconds "5s"', { seconds: '5s' }, 'seconds'],
    ['a seed past 2^32 - 1', { metadata: { seed: 2 ** 32 } }, 'metadata.seed'],
    ['an empty prompt', { prompt: '   ' }, 'prompt'],
  ] as const) {
    it(`issue 11.14: ${name} is refused before anything is sent (and charged)`, async () => {
      const client = clientFor(ctx.service);
      await assert.rejects(client.createVideoTask({ ...request, ...bad }), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.kind, 'invalid-request');
        assert.equal(error.param, param);
        assert.match(error.message, /Nothing was sent/);
        return true;
      });
      assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 0);
    });
  }

  it('issue 11.14: the bounds themselves are accepted: 1 and 60 seconds, " 7 " trimmed', async () => {
    const client = clientFor(ctx.service);
    for (const seconds of ['1', 60, ' 7 ']) await client.createVideoTask({ ...request, seconds });
    assert.deepEqual(
      v1Requests(ctx.service, 'POST', '/v1/videos').map((posted) => (posted.body as { seconds: string }).seconds),
      ['1', '60', '7'],
    );
  });

  for (const createShape of ['openai', 'task-id-only', 'data-envelope'] as const) {
    it(`reads the id of a ${createShape} create response and follows the task to completion`, async () => {
      ctx.service.setScenario({ video: { createShape } });
      const client = clientFor(ctx.service);
      const task = await client.createVideoTask(request);
      assert.ok(ctx.service.task(task.id), 'the service knows the id');
      const seen = await pollToEnd(client, task.id);
      assert.equal(seen.at(-1)?.state, 'completed');
      assert.ok(seen.at(-1)?.videoUrl);
    });
  }

  it('lower-case lifecycle: raw statuses kept, progress reported', async () => {
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    const seen = await pollToEnd(client, task.id);
    const statuses = seen.map((t) => t.status);
    assert.ok(statuses.includes('in_progress') || statuses.includes('queued'), statuses.join());
    assert.equal(seen.at(-1)?.status, 'completed');
    assert.equal(seen.at(-1)?.progress, 100);
  });

  it('legacy upper-case lifecycle with "50%" progress strings', async () => {
    ctx.service.setScenario({ video: { statusCase: 'upper', progress: 'percent-string', pollsToDone: 4 } });
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    const seen = await pollToEnd(client, task.id);
    assert.ok(seen.slice(0, -1).every((t) => t.state === 'pending' && /^[A-Z_]+$/.test(t.status)));
    assert.equal(seen.at(-1)?.status, 'SUCCESS');
    assert.ok(seen.some((t) => typeof t.progress === 'number'));
  });

  it('an unknown status string counts as pending and is shown raw', async () => {
    ctx.service.setScenario({ video: { customRunningStatus: 'rendering', pollsToDone: 3 } });
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    const seen = await pollToEnd(client, task.id);
    assert.ok(seen.some((t) => t.status === 'rendering' && t.state === 'pending'));
  });

  it('no progress at all and completed_at while running', async () => {
    ctx.service.setScenario({ video: { progress: 'none', completedAtWhileRunning: true } });
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    const seen = await pollToEnd(client, task.id);
    assert.ok(seen.slice(0, -1).every((t) => t.state === 'pending' && t.progress === undefined));
  });

  for (const urlField of ['metadata.url', 'video_url', 'url', 'content.video_url', 'result_url', 'data.result_url'] as const) {
    it(`the address in ${urlField}`, async () => {
      ctx.service.setScenario({ video: { urlField } });
      const client = clientFor(ctx.service);
      const task = await client.createVideoTask(request);
      const final = (await pollToEnd(client, task.id)).at(-1);
      assert.ok(final?.videoUrl?.startsWith(ctx.service.cdnUrl), `${urlField}: ${final?.videoUrl}`);
    });
  }

  it('completed without an address', async () => {
    ctx.service.setScenario({ video: { urlField: 'none' } });
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    const final = (await pollToEnd(client, task.id)).at(-1);
    assert.equal(final?.state, 'completed');
    assert.equal(final?.videoUrl, undefined);
  });

  const failures = [
    ['error-object', 'lower'],
    ['fail-reason', 'upper'],
    ['none', 'lower'],
  ] as const;
  for (const [failureStyle, statusCase] of failures) {
    it(`a failed task (${failureStyle}, ${statusCase})`, async () => {
      ctx.service.setScenario({ video: { outcome: 'failed', failureStyle, statusCase } });
      const client = clientFor(ctx.service);
      const task = await client.createVideoTask(request);
      const final = (await pollToEnd(client, task.id)).at(-1);
      assert.equal(final?.state, 'failed');
      assert.equal(final?.videoUrl, undefined);
      if (failureStyle === 'none') assert.equal(final?.error, undefined);
      else assert.ok(final?.error && final.error.length > 0);
    });
  }

  for (const unknownTaskStatus of [400, 404] as const) {
    it(`an unknown task id answers ${unknownTaskStatus} task_not_exist`, async () => {
      ctx.service.setScenario({ video: { unknownTaskStatus } });
      await assert.rejects(
        clientFor(ctx.service).getVideoTask('task_nope'),
        (error: unknown) => error instanceof ApiError && error.status === unknownTaskStatus && error.code === 'task_not_exist',
      );
    });
  }

  it('a task id with ../ is sent encoded and stays a task id', async () => {
    await assert.rejects(clientFor(ctx.service).getVideoTask('../../models'), ApiError);
    assert.equal(ctx.service.requests[0].path, '/v1/videos/..%2F..%2Fmodels');
  });

  it('GET task retries a 503 with Retry-After', async () => {
    const client = clientFor(ctx.service);
    const task = await client.createVideoTask(request);
    ctx.service.setScenario({ fault: { status: 503, body: 'task', retryAfter: '0', times: 1, method: 'GET' } });
    assert.equal((await client.getVideoTask(task.id)).id, task.id);
    assert.equal(v1Requests(ctx.service, 'GET', '/v1/videos/').length, 2);
  });

  it('a dropped connection after the create was sent: one POST, never retried, the task may exist', async () => {
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    await assert.rejects(clientFor(ctx.service).createVideoTask(request), (error: unknown) => {
      return error instanceof ApiError && error.mayHaveReachedServer === true && error.retryable === false && /may have been created/.test(error.hint);
    });
    await new Promise((resolve) => setTimeout(resolve, 300)); // the point: no retry during it
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 1, 'exactly one POST');
  });

  for (const status of [500, 503, 429] as const) {
    it(`create is not retried on ${status}`, async () => {
      ctx.service.setScenario({ fault: { status, body: 'task', method: 'POST', retryAfter: '0' } });
      await assert.rejects(clientFor(ctx.service).createVideoTask(request), (error: unknown) => error instanceof ApiError && error.status === status);
      assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 1);
    });
  }

  it('a number for seconds would be refused by the gateway: the client never sends one', async () => {
    await clientFor(ctx.service).createVideoTask({ ...request, seconds: 10 });
    assert.equal((v1Requests(ctx.service, 'POST', '/v1/videos')[0].body as { seconds: unknown }).seconds, '10');
  });

  it('403 quota on create explains the balance', async () => {
    ctx.service.setScenario({ fault: { status: 403, body: 'openai', code: 'pre_consume_token_quota_failed', message: '预扣费额度失败' } });
    await assert.rejects(clientFor(ctx.service).createVideoTask(request), (error: unknown) => {
      return error instanceof ApiError && /quota is too low/.test(error.hint) && error.serverMessage?.startsWith('预扣费额度失败') === true;
    });
  });
});
