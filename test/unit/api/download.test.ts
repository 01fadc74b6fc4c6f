import * as assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../src/api/errors';
import type { PromptreelClient } from '../../../src/api/client';
import type { VideoTask } from '../../../src/api/video/task';
import { startLocalService } from '../../service';
import { clientFor, useLocalService } from './support';

const FIXTURE = path.resolve(__dirname, '../../../../test/service/fixtures/sample.mp4');

async function completedTask(client: PromptreelClient): Promise<VideoTask> {
  const created = await client.createVideoTask({ model: 'promptreel-video', prompt: 'download me' });
  for (let i = 0; i < 20; i++) {
    const task = await client.getVideoTask(created.id);
    if (task.state === 'completed') return task;
  }
  throw new Error('not completed');
}

describe('video download against the local service and CDN', () => {
  const ctx = useLocalService();
  let folder: string;
  let fixture: Buffer;

  before(async () => {
    fixture = await readFile(FIXTURE);
  });
  beforeEach(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'promptreel-dl-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('streams the real MP4 to the destination, without the key at the CDN, with progress', async () => {
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'videos', 'boat.mp4');
    const progress: Array<{ received: number; total?: number }> = [];
    const result = await client.downloadVideo(task, destination, { onProgress: (p) => progress.push(p) });
    assert.equal(result.source, 'url');
    assert.equal(result.bytes, fixture.length);
    assert.ok((await readFile(destination)).equals(fixture), 'same bytes');
    assert.equal(progress.at(-1)?.received, fixture.length);
    assert.equal(progress.at(-1)?.total, fixture.length);
    assert.ok(ctx.service.cdnRequests.length >= 1);
    assert.ok(ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined), 'no Authorization at the CDN');
    assert.deepEqual(await readdir(path.dirname(destination)), ['boat.mp4'], 'no temporary file left');
    assert.ok(fixture.subarray(4, 8).toString('latin1') === 'ftyp', 'the fixture is an MP4');
  });

  it('follows redirects (bounded) without ever sending the key', async () => {
    ctx.service.setScenario({ cdn: { redirects: 3 } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'r.mp4');
    await client.downloadVideo(task, destination);
    assert.ok((await readFile(destination)).equals(fixture));
    assert.ok(ctx.service.cdnRequests.length >= 4);
    assert.ok(ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined));
  });

  it('too many redirects fail cleanly', async () => {
    ctx.service.setScenario({ cdn: { redirects: 20 } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'r.mp4');
    await assert.rejects(client.downloadVideo(task, destination), ApiError);
    assert.equal(existsSync(destination), false);
  });

  for (const expired of [403, 404] as const) {
    it(`an expired address (${expired}) falls back to /content with the key`, async () => {
      ctx.service.setScenario({ cdn: { expired } });
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      const destination = path.join(folder, 'e.mp4');
      const result = await client.downloadVideo(task, destination);
      assert.equal(result.source, 'content');
      assert.ok((await readFile(destination)).equals(fixture));
      const content = ctx.service.requests.filter((request) => request.path === `/v1/videos/${task.id}/content`);
      assert.equal(content.length, 1);
      assert.equal(content[0].headers.authorization, `Bearer ${ctx.service.demoKey}`);
      assert.ok(ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined));
    });
  }

  it('a completed task without an address downloads from /content', async () => {
    ctx.service.setScenario({ video: { urlField: 'none' } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    assert.equal(task.videoUrl, undefined);
    const destination = path.join(folder, 'c.mp4');
    const result = await client.downloadVideo(task, destination);
    assert.equal(result.source, 'content');
    assert.ok((await readFile(destination)).equals(fixture));
    assert.equal(ctx.service.cdnRequests.length, 0);
  });

  it('chunked transfer without Content-Length', async () => {
    ctx.service.setScenario({ cdn: { contentLength: false } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'k.mp4');
    const progress: Array<{ total?: number }> = [];
    await client.downloadVideo(task, destination, { onProgress: (p) => progress.push(p) });
    assert.ok((await readFile(destination)).equals(fixture));
    assert.equal(progress.at(-1)?.total, undefined);
  });

  it('cancelling mid-download leaves no file and no temporary file, and closes the connection', async () => {
    ctx.service.setScenario({ cdn: { bytesPerSecond: 40_000 } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'cancel.mp4');
    const controller = new AbortController();
    const download = client.downloadVideo(task, destination, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.received > 10_000) controller.abort();
      },
    });
    await assert.rejects(download, (error: unknown) => error instanceof ApiError && error.kind === 'aborted');
    assert.equal(existsSync(destination), false);
    assert.deepEqual(await readdir(folder), []);
  });

  it('a connection lost mid-download leaves no file under the final name', async () => {
    const own = await startLocalService({ scenario: { cdn: { bytesPerSecond: 40_000 } } });
    try {
      const client = clientFor(own);
      const task = await completedTask(client);
      const destination = path.join(folder, 'lost.mp4');
      let stopped = false;
      const download = client.downloadVideo(task, destination, {
        onProgress: (p) => {
          if (p.received > 10_000 && !stopped) {
            stopped = true;
            void own.stop();
          }
        },
      });
      await assert.rejects(download, ApiError);
      assert.equal(existsSync(destination), false);
      assert.deepEqual(await readdir(folder), []);
    } finally {
      await own.stop();
    }
  });

  it('when both the address and /content fail, the error says so and nothing is written', async () => {
    ctx.service.setScenario({ cdn: { expired: 403 }, fault: { status: 404, body: 'task', code: 'task_not_exist', path: '/content$' } });
    const client = clientFor(ctx.service);
    const task = await completedTask(client);
    const destination = path.join(folder, 'none.mp4');
    await assert.rejects(client.downloadVideo(task, destination), (error: unknown) => error instanceof ApiError && error.status === 404);
    assert.equal(existsSync(destination), false);
  });
});
