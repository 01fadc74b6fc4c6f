import * as assert from 'node:assert/strict';
import { createHash } from 'crypto';
import * as vscode from 'vscode';
import type { CreateOutcome } from '../../../src/video/videoCreator';
import { isMultipartBody, samplePng } from '../../service';
import {
  confirmedRequests,
  recordMessages,
  runScripted,
  scriptOpenDialogs,
  setSetting,
  testApi,
  STUDIO,
  VIDEO,
  videoPosts,
  writeWorkspaceFile,
} from './videoTestSupport';
import { useConnectedService } from '../support/connectedService';

const PROMPT = 'The paper boat starts to drift away';
const png = samplePng(32, 18);

describe('video: an image as the first frame (issue 16.5)', () => {
  const ctx = useConnectedService(VIDEO, STUDIO);

  it('issue 16.5: Generate Video offers the image step only for a model declared to take one, and sends one multipart POST', async () => {
    // Not declared: no image step at all.
    const plain = await runScripted([{ input: PROMPT }, { cancel: true }], () => vscode.commands.executeCommand('promptreel.generateVideo'));
    assert.ok(!plain.seen[1].labels?.some((label) => label.includes('First frame')), 'a model not declared for it never sees the option');

    await setSetting('models.capabilities', { 'promptreel-video': { firstFrame: true } });
    const image = await writeWorkspaceFile('frames/boat.png', png);
    const dialogs = scriptOpenDialogs([image]);
    let outcome: CreateOutcome | undefined;
    let seen;
    try {
      ({ result: outcome, seen } = await runScripted([{ input: PROMPT }, { pick: 'First frame' }, { pick: 'Generate video' }], () =>
        vscode.commands.executeCommand<CreateOutcome>('promptreel.generateVideo'),
      ));
    } finally {
      dialogs.restore();
    }
    assert.ok(outcome?.kind === 'created', JSON.stringify(outcome));
    const review = seen[1].items?.find((item) => item.label.includes('First frame'));
    assert.equal(review?.description, 'none: from the prompt alone');
    assert.equal(seen[2].items?.find((item) => item.label.includes('First frame'))?.description, 'boat.png');

    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1, 'exactly one POST');
    const body = posts[0].body;
    assert.ok(isMultipartBody(body), JSON.stringify(body));
    assert.equal(body.fields['model'], 'promptreel-video');
    assert.equal(body.fields['prompt'], PROMPT);
    assert.equal(body.fields['seconds'], '5');
    assert.deepEqual(JSON.parse(body.fields['metadata']), { resolution: '720p', ratio: 'adaptive', generate_audio: true, watermark: false });
    assert.deepEqual(body.files['input_reference'], {
      fileName: 'boat.png',
      contentType: 'image/png',
      size: png.length,
      sha256: createHash('sha256').update(png).digest('hex'),
    });
    // The task keeps where its image is (Regenerate reads it again), never the bytes.
    assert.deepEqual(outcome.task.request?.firstFrame, { uri: image.toString(), fileName: 'boat.png', contentType: 'image/png' });
  });

  it('issue 16.5: Animate Image with Promptreel uses a model the gateway lists with image input, when the configured one takes none', async () => {
    ctx.service.setScenario({
      models: [
        { id: 'promptreel-video', supported_endpoint_types: ['openai-video'] },
        { id: 'promptreel-video-i2v', supported_endpoint_types: ['openai-video'], input_modalities: ['text', 'image'] },
      ],
    });
    const api = await testApi();
    api.connection.catalog.invalidate('the test changed the model list');
    const image = await writeWorkspaceFile('frames/lighthouse.png', png);
    const { result, seen } = await runScripted([{ input: 'The beam starts to sweep' }, { pick: 'Generate video' }], () =>
      vscode.commands.executeCommand<CreateOutcome>('promptreel.animateImage', image),
    );
    assert.ok(result?.kind === 'created', JSON.stringify(result));
    assert.match(seen[0].prompt ?? '', /What happens from lighthouse\.png on\?/);
    const posts = videoPosts(ctx.service);
    assert.equal(posts.length, 1);
    const body = posts[0].body;
    assert.ok(isMultipartBody(body));
    assert.equal(body.fields['model'], 'promptreel-video-i2v');
    assert.equal(body.files['input_reference']?.fileName, 'lighthouse.png');
    assert.equal(ctx.service.task(result.task.id)?.inputReference?.size, png.length);
  });

  it('issue 16.5: Animate Image says how to declare a model when none takes an image, and sends nothing', async () => {
    const image = await writeWorkspaceFile('frames/boat.png', png);
    const messages = recordMessages();
    try {
      assert.equal(await vscode.commands.executeCommand('promptreel.animateImage', image), undefined);
    } finally {
      messages.restore();
    }
    const shown = messages.shown.find((message) => /No video model is declared/.test(message.message));
    assert.ok(shown, JSON.stringify(messages.shown));
    assert.deepEqual(shown.items, ['Open Settings']);
    assert.equal(videoPosts(ctx.service).length, 0);
  });

  it('issue 16.5: an image that cannot be read stops the task before anything is sent', async () => {
    const api = await testApi();
    const missing = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'frames', 'gone.png');
    const messages = recordMessages();
    let outcome: CreateOutcome;
    try {
      outcome = await (
        await api.video.flows.get()
      ).creator.create(
        await confirmedRequests(api, {
          model: 'promptreel-video',
          prompt: PROMPT,
          firstFrame: { uri: missing.toString(), fileName: 'gone.png', contentType: 'image/png' },
        }),
      );
    } finally {
      messages.restore();
    }
    assert.equal(outcome.kind, 'failed');
    assert.ok(messages.shown.some((message) => /The first frame gone\.png cannot be read/.test(message.message)));
    assert.equal(videoPosts(ctx.service).length, 0, 'nothing was sent');
  });
});
