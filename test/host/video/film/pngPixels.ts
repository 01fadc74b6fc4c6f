import * as assert from 'node:assert/strict';
import { inflateSync } from 'node:zlib';

// Reads the pixels of a PNG a webview drew (8-bit RGB or RGBA, not interlaced: what a canvas's toDataURL writes), and
// fingerprints them as scripts/make-film-frames.js fingerprints a clip's frames with ffmpeg: the mean brightness of
// each cell of a 16×9 grid.

const COLUMNS = 16;
const ROWS = 9;

export interface Pixels {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row by row. */
  rgb: Uint8Array;
}

export function pngPixels(png: Uint8Array): Pixels {
  const bytes = Buffer.from(png);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      assert.equal(body[8], 8, '8 bits a sample');
      assert.equal(body[12], 0, 'not interlaced');
      channels = body[9] === 6 ? 4 : body[9] === 2 ? 3 : 0;
      assert.ok(channels, `colour type ${body[9]}`);
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? out[y * stride + x - channels] : 0;
      const up = y > 0 ? out[(y - 1) * stride + x] : 0;
      const upLeft = y > 0 && x >= channels ? out[(y - 1) * stride + x - channels] : 0;
      out[y * stride + x] = (line[x] + predict(filter, left, up, upLeft)) & 0xff;
    }
  }
  const rgb = new Uint8Array(width * height * 3);
  for (let pixel = 0; pixel < width * height; pixel++) rgb.set(out.subarray(pixel * channels, pixel * channels + 3), pixel * 3);
  return { width, height, rgb };
}

function predict(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return Math.floor((left + up) / 2);
    case 4: {
      const estimate = left + up - upLeft;
      const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
      return toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
    }
    default:
      throw new Error(`PNG filter ${filter}`);
  }
}

/** The mean brightness of each cell of a 16×9 grid, row by row. */
export function fingerprint({ width, height, rgb }: Pixels): number[] {
  const cells: number[] = [];
  for (let row = 0; row < ROWS; row++)
    for (let column = 0; column < COLUMNS; column++) {
      let sum = 0;
      let count = 0;
      for (let y = Math.floor((row * height) / ROWS); y < Math.floor(((row + 1) * height) / ROWS); y++)
        for (let x = Math.floor((column * width) / COLUMNS); x < Math.floor(((column + 1) * width) / COLUMNS); x++) {
          const at = (y * width + x) * 3;
          sum += 0.299 * rgb[at] + 0.587 * rgb[at + 1] + 0.114 * rgb[at + 2];
          count++;
        }
      cells.push(sum / count);
    }
  return cells;
}

/** How far apart two fingerprints are: the mean difference of their cells (0–255). */
export function distance(one: readonly number[], other: readonly number[]): number {
  assert.equal(one.length, other.length);
  return one.reduce((sum, value, index) => sum + Math.abs(value - other[index]), 0) / one.length;
}
