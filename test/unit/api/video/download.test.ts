import * as assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import { mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { request as undiciRequest } from 'undici';
import * as os from 'node:os';
import * as path from 'node:path';
import { ApiError } from '../../../../src/api/errors';
import type { PromptreelClient } from '../../../../src/api/client';
import type { VideoTask } from '../../../../src/api/video/task';
import { removeStaleDownloads, writeBody } from '../../../../src/api/video/download';
import { SaveError } from '../../../../src/api/video/savedFile';
import { videoFileName } from '../../../../src/video/core/fileNaming';
import type { LookupFunction } from 'node:net';
import { startLocalService, type LocalService } from '../../../service';
import { METADATA_CREDENTIALS } from '../../../service/cdn';
import { clientFor, MemoryLogger, testDispatcher, useLocalService } from '../../support/localService';

const FIXTURE = path.resolve(__dirname, '../../../../../test/service/fixtures/sample.mp4');

/** The names these tests use, resolved here: no real resolver is ever asked. */
const TEST_NAMES: Record<string, string> = {
  'cdn.promptreel.test': '127.0.0.1',
  'metadata.promptreel.test': '169.254.169.254',
  'intranet.promptreel.test': '10.1.2.3',
};
const testLookup: LookupFunction = (hostname, options, callback) => {
  const address = TEST_NAMES[hostname];
  if (!address) callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), options.all ? [] : '', 0);
  else if (options.all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
};

/**
 * A client of the service as if it were on the public internet: 127.0.0.1 plays a public host, the addresses of a
 * private network stay private, so its downloads may not go there.
 */
function clientOfPublicService(service: LocalService, log = new MemoryLogger()): PromptreelClient {
  const isPublic = (address: string) => address === '127.0.0.1' || !/^(10\.|127\.|169\.254\.|::1$)/.test(address);
  return clientFor(service, { log, dispatcher: testDispatcher({ service: service.baseUrl, addresses: { lookup: testLookup, isPublic } }) });
}

const secretOf = (text: string) => text.includes('metadata-secret-of-this-host') || text.includes('ASIAPROMPTREELTEST');

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
    assert.ok(
      ctx.service.cdnRequests.every((request) => request.headers.authorization === undefined),
      'no Authorization at the CDN',
    );
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

  describe('issue 11.9: a 200 that is not a video is never saved as one', () => {
    for (const answer of ['html-page', 'json-error', 'html-as-octet-stream'] as const) {
      it(`issue 11.9: the address answering ${answer} falls back to /content, which sends the video`, async () => {
        ctx.service.setScenario({ cdn: { answer } });
        const client = clientFor(ctx.service);
        const task = await completedTask(client);
        const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
        assert.equal(result.source, 'content');
        assert.deepEqual(await readFile(result.path), fixture);
        assert.deepEqual(await readdir(folder), ['clip.mp4']);
      });
    }

    it('issue 11.9: when /content is not a video either, the error quotes what came and nothing is saved', async () => {
      ctx.service.setScenario({ cdn: { answer: 'html-as-octet-stream', answerAtContent: true } });
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      await assert.rejects(client.downloadVideo(task, path.join(folder, 'clip.mp4')), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.code, 'not_a_video');
        assert.match(error.message, /application\/octet-stream, starting "<!DOCTYPE html><html><head><title>Sign in - Object Storage/);
        assert.match(error.message, /not a video: nothing was saved/);
        return true;
      });
      assert.deepEqual(await readdir(folder), []);
    });
  });

  describe('issue 11.10: a cut transfer and a full disk say what happened', () => {
    it('issue 11.10: a body cut short says how much of it arrived, not "could not reach"', async () => {
      ctx.service.setScenario({ cdn: { cutAfterBytes: 20_000 } });
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      await assert.rejects(client.downloadVideo(task, path.join(folder, 'cut.mp4')), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.match(error.message, /^The video host sent 19\.5 KB of 51\.5 KB, then the connection closed: nothing was saved\.$/);
        assert.doesNotMatch(`${error.message} ${error.hint}`, /could not reach|network/i);
        return true;
      });
      assert.deepEqual(await readdir(folder), []);
    });

    it('issue 11.10: a full disk (a real ENOSPC from /dev/full) says so, with the folder', async function () {
      if (!existsSync('/dev/full')) this.skip();
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      assert.ok(task.videoUrl);
      const response = await undiciRequest(task.videoUrl);
      await assert.rejects(writeBody(response.body as unknown as Readable, '/dev/full', undefined, 'video/mp4', {}), (error: unknown) => {
        assert.ok(error instanceof SaveError, String(error));
        assert.equal(error.code, 'ENOSPC');
        assert.match(error.message, /^The disk is full at \/dev: the video could not be saved/);
        assert.match(error.hint, /Free some space/);
        return true;
      });
    });

    it('issue 11.10: what an interrupted download left is removed, what is still being written is kept', async () => {
      const now = Date.now();
      const old = new Date(now - 60 * 60 * 1000);
      await writeFile(path.join(folder, 'dead.mp4'), '');
      await writeFile(path.join(folder, '.dead.mp4.0a1b2c3d.part'), 'half a video');
      await utimes(path.join(folder, '.dead.mp4.0a1b2c3d.part'), old, old);
      await writeFile(path.join(folder, 'kept.mp4'), 'a finished video');
      await writeFile(path.join(folder, '.kept.mp4.0a1b2c3e.part'), 'an old part');
      await utimes(path.join(folder, '.kept.mp4.0a1b2c3e.part'), old, old);
      await writeFile(path.join(folder, 'live.mp4'), '');
      await writeFile(path.join(folder, '.live.mp4.0a1b2c3f.part'), 'being written');
      const removed = await removeStaleDownloads(folder, 10 * 60 * 1000, now);
      assert.deepEqual(removed.sort(), ['.dead.mp4.0a1b2c3d.part', '.kept.mp4.0a1b2c3e.part', 'dead.mp4']);
      assert.deepEqual((await readdir(folder)).sort(), ['.live.mp4.0a1b2c3f.part', 'kept.mp4', 'live.mp4']);
      assert.equal((await stat(path.join(folder, 'kept.mp4'))).size, 'a finished video'.length, 'a finished file is never removed');
    });
  });

  describe('issue 11.11: no video overwrites another file', () => {
    it('issue 11.11: task ids that sanitize alike get different names', () => {
      const first = videoFileName('A clip', '任务一');
      const second = videoFileName('A clip', '任务二');
      assert.notEqual(first, second);
      assert.match(first, /^a-clip-task-[0-9a-f]{8}\.mp4$/);
      assert.equal(videoFileName('A clip', 'task_abc'), 'a-clip-task_abc.mp4', 'a safe id stays as it is');
    });

    it('issue 11.11: an existing file under the name is kept, and the video gets the next free name', async () => {
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      const destination = path.join(folder, 'clip.mp4');
      await writeFile(destination, "somebody else's file");
      const result = await client.downloadVideo(task, destination);
      assert.equal(result.path, path.join(folder, 'clip-2.mp4'));
      assert.equal(await readFile(destination, 'utf8'), "somebody else's file");
      assert.deepEqual(await readFile(result.path), fixture);
    });

    it('issue 11.11: two downloads racing for one name each get their own file', async () => {
      ctx.service.setScenario({ cdn: { bytesPerSecond: 2_000_000 } });
      const client = clientFor(ctx.service);
      const [one, two] = [await completedTask(client), await completedTask(client)];
      const destination = path.join(folder, 'same.mp4');
      const results = await Promise.all([client.downloadVideo(one, destination), client.downloadVideo(two, destination)]);
      assert.deepEqual(results.map((result) => path.basename(result.path)).sort(), ['same-2.mp4', 'same.mp4']);
      for (const result of results) assert.deepEqual(await readFile(result.path), fixture);
    });
  });
  describe('downloads go to public addresses only, unless the service itself is private', () => {
    const metadataPaths = () => ctx.service.cdnRequests.filter((request) => request.path.startsWith('/latest/meta-data/'));

    it('review 2.6: a redirect to localhost is never followed for a public service; /content is used instead', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://localhost:{port}/latest/meta-data/iam/security-credentials/' } });
      const log = new MemoryLogger();
      const client = clientOfPublicService(ctx.service, log);
      const task = await completedTask(client);
      const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
      assert.equal(result.source, 'content');
      assert.deepEqual(await readFile(result.path), fixture);
      assert.deepEqual(metadataPaths(), [], 'the private address was not asked');
      assert.ok(
        log.lines.some((line) => /leads to a private address/.test(line) && /localhost/.test(line)),
        log.lines.join('\n'),
      );
    });

    it('review 2.6: when /content leads there too, the error names the private address and quotes nothing of it', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://localhost:{port}/latest/meta-data/iam/security-credentials/', answerAtContent: true } });
      const log = new MemoryLogger();
      const client = clientOfPublicService(ctx.service, log);
      const task = await completedTask(client);
      await assert.rejects(client.downloadVideo(task, path.join(folder, 'clip.mp4')), (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.match(error.message, /^Promptreel did not connect to localhost:\d+: it is at a private address \(localhost\)/);
        assert.equal(error.retryable, false);
        assert.ok(!secretOf(`${error.message} ${error.hint} ${error.serverMessage ?? ''}`), error.message);
        return true;
      });
      assert.deepEqual(metadataPaths(), []);
      assert.ok(!secretOf(log.lines.join('\n')));
      assert.deepEqual(await readdir(folder), []);
    });

    it('review 2.6: a redirect to a cloud metadata address (169.254.169.254) is refused before connecting', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' } });
      const log = new MemoryLogger();
      const client = clientOfPublicService(ctx.service, log);
      const task = await completedTask(client);
      const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
      assert.equal(result.source, 'content');
      assert.ok(
        log.lines.some((line) => /leads to a private address.*169\.254\.169\.254/.test(line)),
        log.lines.join('\n'),
      );
    });

    it('review 2.6: a name is judged by the address it resolves to when connecting, not by its looks', async () => {
      for (const name of ['metadata.promptreel.test', 'intranet.promptreel.test']) {
        ctx.service.reset();
        ctx.service.setScenario({ cdn: { redirectTo: `http://${name}:{port}/latest/meta-data/`, answerAtContent: true } });
        const client = clientOfPublicService(ctx.service);
        const task = await completedTask(client);
        await assert.rejects(client.downloadVideo(task, path.join(folder, 'clip.mp4')), (error: unknown) => {
          assert.ok(error instanceof ApiError, String(error));
          assert.match(
            error.message,
            new RegExp(
              `^Promptreel did not connect to ${name.replace(/\./g, '\\.')}:\\d+: it is at a private address \\((169\\.254\\.169\\.254|10\\.1\\.2\\.3)\\)`,
            ),
          );
          return true;
        });
      }
    });

    it('a public host (a name resolving to a public address) is downloaded from as before', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://cdn.promptreel.test:{port}/hop/0/files/clip.mp4' } });
      const client = clientOfPublicService(ctx.service);
      const task = await completedTask(client);
      const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
      assert.equal(result.source, 'url');
      assert.deepEqual(await readFile(result.path), fixture);
    });

    it('a service on this machine (or a private network) may send its videos from there too', async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://localhost:{port}/hop/0/files/clip.mp4' } });
      const client = clientFor(ctx.service);
      const task = await completedTask(client);
      const result = await client.downloadVideo(task, path.join(folder, 'clip.mp4'));
      assert.equal(result.source, 'url');
      assert.deepEqual(await readFile(result.path), fixture);
    });

    it("review 2.6: another host's answer is never quoted, only its type; its start goes to the log", async () => {
      ctx.service.setScenario({ cdn: { redirectTo: 'http://localhost:{port}/latest/meta-data/iam/security-credentials/', answerAtContent: true } });
      const log = new MemoryLogger();
      const client = clientFor(ctx.service, { log });
      const task = await completedTask(client);
      await assert.rejects(client.downloadVideo(task, path.join(folder, 'clip.mp4')), (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.code, 'not_a_video');
        assert.match(error.message, /^The video download answered with text\/plain, not a video: nothing was saved\.$/);
        assert.ok(!secretOf(`${error.message} ${error.hint} ${error.serverMessage ?? ''}`), error.message);
        return true;
      });
      assert.ok(
        log.lines.some((line) => line.includes('answered text/plain, starting') && line.includes(METADATA_CREDENTIALS.slice(0, 20))),
        log.lines.join('\n'),
      );
    });
  });

  describe("what a download quotes passes the transport's redactor", () => {
    it('review 2.12: a /content answer that is not a video is quoted with the key hidden', async () => {
      const key = 'promptreel-key-of-the-user-7f3a9c';
      ctx.service.addKey(key);
      ctx.service.setScenario({ video: { urlField: 'none' }, cdn: { answer: 'page-quoting-key', answerAtContent: true } });
      const client = clientFor(ctx.service, { apiKey: () => key });
      const task = await completedTask(client);
      await assert.rejects(client.downloadVideo(task, path.join(folder, 'clip.mp4')), (error: unknown) => {
        assert.ok(error instanceof ApiError, String(error));
        assert.equal(error.code, 'not_a_video');
        assert.match(error.message, /text\/html, starting "<html><body><h1>Session expired<\/h1><p>The session of \*\*\* has expired/);
        assert.ok(!`${error.message} ${error.hint}`.includes(key), error.message);
        return true;
      });
      assert.deepEqual(await readdir(folder), []);
    });
  });
});
