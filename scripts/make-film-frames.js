#!/usr/bin/env node
// Writes test/service/fixtures/film/frames.json: for each film clip, a fingerprint of its first and its last frame
// as ffmpeg decodes them (the mean brightness of each cell of a 16×9 grid, 0–255), so a test can tell which frame of
// a clip a PNG drawn by a webview is without ffmpeg (CI has none). Run once after make-film-fixtures.sh, commit it.
// Needs ffmpeg.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const folder = path.resolve(__dirname, '..', 'test', 'service', 'fixtures', 'film');
const CLIPS = ['shot-a', 'shot-b', 'shot-c', 'shot-portrait', 'shot-high'];
const COLUMNS = 16;
const ROWS = 9;

function size(file) {
  const [width, height] = execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', file])
    .toString()
    .trim()
    .split(',')
    .map(Number);
  return { width, height };
}

function frames(file, args) {
  return execFileSync('ffmpeg', ['-v', 'error', ...args.before, '-i', file, ...args.after, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], { maxBuffer: 1 << 28 });
}

/** The mean brightness of each cell, row by row (the same sum as test/host/video/film/pngPixels.ts). */
function fingerprint(rgb, width, height) {
  const cells = [];
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
      cells.push(Math.round(sum / count));
    }
  return cells;
}

const result = {};
for (const clip of CLIPS) {
  const file = path.join(folder, `${clip}.mp4`);
  const { width, height } = size(file);
  const frameBytes = width * height * 3;
  const first = frames(file, { before: [], after: ['-frames:v', '1'] }).subarray(0, frameBytes);
  const tail = frames(file, { before: ['-sseof', '-0.5'], after: [] });
  const last = tail.subarray(tail.length - frameBytes);
  result[clip] = { width, height, first: fingerprint(first, width, height), last: fingerprint(last, width, height) };
}
fs.writeFileSync(path.join(folder, 'frames.json'), `${JSON.stringify(result)}\n`);
console.log(`wrote ${path.join(folder, 'frames.json')}`);
