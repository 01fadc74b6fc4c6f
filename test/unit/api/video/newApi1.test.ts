import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { request as undiciRequest } from 'undici';
import type { PromptreelClient } from '../../../../src/api/client';
import type { VideoTask } from '../../../../src/api/video/task';
import { SCENARIO_PRESETS } from '../../../service';
import { clientFor, useLocalService, v1Requests } from '../../support/localService';

const FIXTURE = path.resolve(__dirname, '../../../../../test/service/fixtures/sample.mp4');

async function pollToEnd(client: PromptreelClient, id: string): Promise<VideoTask[]> {
  const seen: VideoTask[] = [];
  for (let i = 0; i < 20; i++) {
    const task = await client.getVideoTask(id);
    seen.push(task);
    if (task.state !== 'pending') return seen;
  }
  throw new Error('the task never finished');
}

// SERVICE.md, "Video task query": new-api 1.0 answers with its own task record and no address at all.
describe('new-api 1.0 tasks against the local service (the new-api-1 preset)', () => {
  const ctx = useLocalService();
  let folder: string;

  beforeEach(async () => {
    ctx.service.setScenario({ ...SCENARIO_PRESETS['new-api-1'], video: { ...SCENARIO_PRESETS['new-api-1'].video, pollsToRunning: 2, pollsToDone: 5 } });
    folder = await mkdtemp(path.join(os.tmpdir(), 'promptreel-newapi-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('answers a query with the gateway’s own record: task_id, an upper-case status, progress as "30%", no address', async () => {
    const created = await clientFor(ctx.service).createVideoTask({ model: 'promptreel-video', prompt: 'the record' });
    const answer = await undiciRequest(`${ctx.service.baseUrl}/v1/videos/${created.id}`, { headers: { authorization: `Bearer ${ctx.service.demoKey}` } });
    const record = (await answer.body.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(record).sort(), ['created_at', 'fail_reason', 'finished_at', 'platform', 'progress', 'status', 'task_id']);
    assert.equal(record['task_id'], created.id);
    assert.match(String(record['status']), /^(NOT_START|SUBMITTED|QUEUED)$/);
    assert.equal(record['progress'], '0%');
    assert.equal(record['fail_reason'], '');
    assert.equal(record['finished_at'], 0);
  });

  it('is followed from NOT_START (the create answer) through IN_PROGRESS to SUCCESS, with the percent strings read as numbers', async () => {
    const client = clientFor(ctx.service);
    const created = await client.createVideoTask({ model: 'promptreel-video', prompt: 'follow me' });
    const seen = await pollToEnd(client, created.id);
    const statuses = [created.status, ...seen.map((task) => task.status)];
    assert.deepEqual(statuses.slice(0, 2), ['NOT_START', 'SUBMITTED'], statuses.join(' → '));
    assert.ok(statuses.includes('IN_PROGRESS'), statuses.join(' → '));
    assert.ok(seen.slice(0, -1).every((task) => task.state === 'pending'));
    assert.ok(
      seen.some((task) => task.status === 'IN_PROGRESS' && task.progress !== undefined && task.progress > 0 && task.progress < 100),
      JSON.stringify(seen),
    );
    const final = seen.at(-1);
    assert.equal(final?.state, 'completed');
    assert.equal(final?.status, 'SUCCESS');
    assert.equal(final?.progress, 100);
    assert.equal(final?.videoUrl, undefined, 'no address: the video is at /content');
  });

  it('a failed task carries the gateway’s reason, in Chinese, as its error', async () => {
    ctx.service.setScenario({ video: { outcome: 'failed' } });
    const client = clientFor(ctx.service);
    const created = await client.createVideoTask({ model: 'promptreel-video', prompt: 'refused' });
    const final = (await pollToEnd(client, created.id)).at(-1);
    assert.equal(final?.state, 'failed');
    assert.equal(final?.status, 'FAILURE');
    assert.equal(final?.error, SCENARIO_PRESETS['new-api-1'].video.failureReason);
    assert.match(final?.error ?? '', /视频生成失败/);
  });

  it('downloads from /content with the key, follows its redirect to the signed CDN address without it: the same bytes, one POST', async () => {
    const client = clientFor(ctx.service);
    const created = await client.createVideoTask({ model: 'promptreel-video', prompt: 'download me' });
    const final = (await pollToEnd(client, created.id)).at(-1);
    assert.ok(final);
    const destination = path.join(folder, 'video.mp4');
    const result = await client.downloadVideo(final, destination);
    assert.equal(result.source, 'content');
    assert.ok((await readFile(destination)).equals(await readFile(FIXTURE)), 'byte-identical to what the service serves');

    const content = ctx.service.requests.filter((request) => request.path === `/v1/videos/${created.id}/content`);
    assert.equal(content.length, 1);
    assert.equal(content[0]?.headers.authorization, `Bearer ${ctx.service.demoKey}`);
    const signed = new URL(ctx.service.task(created.id)?.url ?? '');
    const atCdn = ctx.service.cdnRequests.filter((request) => request.path === signed.pathname + signed.search);
    assert.equal(atCdn.length, 1, 'the redirect was followed to the CDN');
    assert.notEqual(signed.origin, new URL(ctx.service.baseUrl).origin, 'the CDN is another origin');
    assert.ok(
      ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined && !JSON.stringify(request).includes(ctx.service.demoKey)),
      'the key never reached the CDN',
    );
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 1);
  });
});
