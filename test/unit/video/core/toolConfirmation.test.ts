import * as assert from 'node:assert/strict';
import { toolConfirmation } from '../../../../src/video/core/toolInput';
import type { VideoOptions } from '../../../../src/video/core/videoOptions';

describe("the video tool's confirmation (Markdown a chat renders)", () => {
  it("review 2.11: a model, resolution and ratio from a folder's settings or the agent are shown as text: no image or link", () => {
    const image = '![x](http://127.0.0.1:9/img)';
    const options: VideoOptions = {
      model: `promptreel-video\`\n\n${image}`,
      seconds: '5',
      resolution: `720p ${image}`,
      ratio: '[16:9](http://127.0.0.1:9/ratio)',
      generateAudio: true,
      watermark: false,
      moderator: true,
      seed: undefined,
    };
    const { message } = toolConfirmation('a boat', options, { id: 'quote', requests: [], charge: { unlimited: false }, fromFolder: [] }, []);
    const model = message.split('\n\n').find((paragraph) => paragraph.startsWith('**Model:**'));
    assert.equal(model, "**Model:** `promptreel-video' ![x](http://127.0.0.1:9/img)`", 'the whole name in one code span (shown as it is)');
    // What a code span holds is shown as it is: outside of them, no image or link may be left.
    const outsideCode = message.replace(/`[^`]*`/g, '');
    assert.ok(!outsideCode.includes('![') && !outsideCode.includes(']('), `no image or link syntax survives:\n${message}`);
  });
});
