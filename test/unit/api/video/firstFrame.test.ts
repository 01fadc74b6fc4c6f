import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ApiError } from '../../../../src/api/errors';
import { firstFrameType } from '../../../../src/api/video/inputReference';
import { isMultipartBody, samplePng } from '../../../service';
import { clientFor, useLocalService, v1Requests } from '../../support/localService';

const png = samplePng();
const request = {
  model: 'promptreel-video-i2v',
  prompt: 'The boat starts to drift',
  seconds: 5,
  moderator: false,
  metadata: { resolution: '720p', ratio: '16:9', seed: 7 },
  inputReference: { bytes: png, fileName: 'boat.png', contentType: 'image/png' },
};

describe('issue 16.5: an image as the first frame (multipart/form-data, input_reference)', () => {
  const ctx = useLocalService();

  it('sends one multipart POST with the fields as text and the image as the file part input_reference', async () => {
    const task = await clientFor(ctx.service).createVideoTask(request);
    const posts = v1Requests(ctx.service, 'POST', '/v1/videos');
    assert.equal(posts.length, 1);
    assert.match(posts[0].headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    const body = posts[0].body;
    assert.ok(isMultipartBody(body), JSON.stringify(body));
    assert.deepEqual(body.fields, {
      model: 'promptreel-video-i2v',
      prompt: 'The boat starts to drift',
      seconds: '5',
      moderator: 'false',
      metadata: JSON.stringify({ resolution: '720p', ratio: '16:9', seed: 7 }),
    });
    assert.deepEqual(body.files['input_reference'], {
      fileName: 'boat.png',
      contentType: 'image/png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
    });
    // The service validated it, made the task from it and kept the image it was given.
    const made = ctx.service.task(task.id);
    assert.equal(made?.prompt, 'The boat starts to drift');
    assert.equal(made?.seconds, '5');
    assert.deepEqual(made?.metadata, { resolution: '720p', ratio: '16:9', seed: 7 });
    assert.equal(made?.inputReference?.size, png.length);
  });

  it('without an image the request stays JSON', async () => {
    const { inputReference: _image, ...json } = request;
    await clientFor(ctx.service).createVideoTask(json);
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos')[0].headers['content-type'], 'application/json');
  });

  for (const [name, reference, pattern] of [
    ['an empty file', { ...request.inputReference, bytes: new Uint8Array() }, /empty/],
    ['a GIF', { ...request.inputReference, contentType: 'image/gif' }, /image\/gif is not an image type/],
    ['a file past 20 MB', { ...request.inputReference, bytes: new Uint8Array(20 * 1024 * 1024 + 1) }, /more than the 20 MB/],
  ] as const) {
    it(`${name} is refused before anything is sent (and charged)`, async () => {
      await assert.rejects(clientFor(ctx.service).createVideoTask({ ...request, inputReference: reference }), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.kind, 'invalid-request');
        assert.equal(error.param, 'input_reference');
        assert.match(error.message, pattern);
        assert.match(error.message, /Nothing was sent/);
        return true;
      });
      assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 0);
    });
  }

  it('the local service refuses a multipart request whose input_reference is a text field (400), and makes no task', async () => {
    const form = new FormData();
    form.append('model', 'promptreel-video');
    form.append('prompt', 'p');
    form.append('input_reference', 'not a file');
    const answer = await fetch(`${ctx.service.baseUrl}/v1/videos`, { method: 'POST', headers: { authorization: `Bearer ${ctx.service.demoKey}` }, body: form });
    assert.equal(answer.status, 400);
    assert.match(await answer.text(), /input_reference must be a file part/);
    const scenarioTasks = (await (await fetch(`${ctx.service.baseUrl}/__control/tasks`)).json()) as { tasks: unknown[] };
    assert.equal(scenarioTasks.tasks.length, 0);
  });

  it('a dropped connection after a multipart create: one POST, never retried', async () => {
    ctx.service.setScenario({ video: { dropCreateConnection: true } });
    await assert.rejects(clientFor(ctx.service).createVideoTask(request), (error: unknown) => error instanceof ApiError && error.kind === 'network');
    assert.equal(v1Requests(ctx.service, 'POST', '/v1/videos').length, 1);
  });

  it('names the content type of an image by its extension', () => {
    assert.equal(firstFrameType('a/b/Frame.PNG'), 'image/png');
    assert.equal(firstFrameType('x.jpg'), 'image/jpeg');
    assert.equal(firstFrameType('x.jpeg'), 'image/jpeg');
    assert.equal(firstFrameType('x.webp'), 'image/webp');
    assert.equal(firstFrameType('x.gif'), undefined);
    assert.equal(firstFrameType('png'), undefined);
  });
});
