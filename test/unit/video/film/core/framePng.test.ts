import * as assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { MAX_FRAME_BASE64, parseFramePng } from '../../../../../src/video/film/core/framePng';

/** A real PNG of `width` × `height` grey pixels (signature, IHDR, IDAT, IEND; CRCs are not checked by the parser). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('video/film: the last frame the storyboard editor sends (issue 27)', () => {
  it('issue 27: a PNG is read with its size; anything else is refused with why', () => {
    const parsed = parseFramePng(png(320, 180).toString('base64'));
    assert.ok(parsed.ok);
    assert.deepEqual([parsed.width, parsed.height], [320, 180]);
    assert.deepEqual(Buffer.from(parsed.bytes), png(320, 180));

    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, ...Buffer.alloc(40)]).toString('base64');
    assert.deepEqual(parseFramePng(jpeg), { ok: false, problem: 'the frame is not a PNG image' });
    assert.deepEqual(parseFramePng('not base64!'), { ok: false, problem: 'the frame is not base64' });
    assert.deepEqual(parseFramePng(''), { ok: false, problem: 'the frame is not a PNG image' });
    assert.deepEqual(parseFramePng(png(0, 180).toString('base64')), { ok: false, problem: 'the PNG image is empty' });
    const noHeader = png(2, 2);
    noHeader.write('IDAT', 12, 'ascii');
    assert.deepEqual(parseFramePng(noHeader.toString('base64')), { ok: false, problem: 'the PNG image has no header' });
    assert.equal(parseFramePng('A'.repeat(MAX_FRAME_BASE64 + 4)).ok, false, 'too large, refused before decoding');
  });
});
