import { execFile, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { patternBytes } from '../../test/service/bytes';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { BENCH_ARTIFACTS } from '../support/paths';
import { downloadReportSchema, type DownloadJob } from '../workers/protocol';
import type { BenchContext, BenchPart } from './part';

const PART = '3 download';
const MB = 1024 * 1024;
const SIZE = 256 * MB;
const WORKER = path.join(__dirname, '..', 'workers', 'downloadWorker.js');

interface OursRun {
  mbPerSecond: number;
  rssGrowthMb: number;
  sampledGrowthMb: number;
}

/**
 * Part 3: a 256 MB file from the local CDN (scenario `cdn.sizeBytes`), to a file on the same disk: our
 * `downloadVideo` in a fresh child process vs Debian's `curl -o`, alternating, each file checked then deleted.
 */
export const downloadPart: BenchPart = {
  id: 'download',
  title: 'Download of a 256 MB video',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await context.service();
    await service.reset();
    await service.setScenario({ cdn: { sizeBytes: SIZE, contentLength: true, bytesPerSecond: null, redirects: 0, expired: false } });
    const folder = path.join(BENCH_ARTIFACTS, 'download');
    fs.rmSync(folder, { recursive: true, force: true });
    fs.mkdirSync(folder, { recursive: true });
    const url = `${service.cdnUrl}/files/bench.mp4?sig=bench`;
    const repetitions = context.quick ? 1 : 3;
    const curl: number[] = [];
    const ours: OursRun[] = [];
    try {
      for (let rep = 0; rep < repetitions; rep++) {
        const order = rep % 2 === 0 ? (['curl', 'ours'] as const) : (['ours', 'curl'] as const);
        for (const tool of order) {
          const destination = path.join(folder, `${tool}-${rep}.mp4`);
          if (tool === 'curl') curl.push(await curlOnce(url, destination));
          else ours.push(await oursOnce({ baseUrl: service.baseUrl, key: service.key, videoUrl: url, destination }));
          checkFile(destination);
          fs.rmSync(destination, { force: true });
        }
        context.log(`  repetition ${rep + 1}/${repetitions}: curl ${curl.at(-1)?.toFixed(0)} MB/s, ours ${ours.at(-1)?.mbPerSecond.toFixed(0)} MB/s`);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await service.reset();
    }
    const oursSpeed = ours.map((run) => run.mbPerSecond);
    const growth = ours.map((run) => run.rssGrowthMb);
    context.details['download'] = { sizeBytes: SIZE, curlMbPerSecond: curl, ours };
    const ratio = median(oursSpeed) / median(curl);
    return [
      {
        part: PART,
        figure: '256 MB to disk: MB/s vs curl -o',
        unit: 'MB/s',
        ours: median(oursSpeed),
        peer: median(curl),
        peerName: 'curl',
        ratio,
        ratioKind: 'percent',
        goal: '≥ 90% of curl',
        met: ratio >= 0.9,
        note: `ours ${spread(oursSpeed, 0)}; curl ${spread(curl, 0)}`,
        samples: { ours: oursSpeed, peer: curl },
      },
      {
        part: PART,
        figure: 'peak RSS growth of the downloading process',
        unit: 'MB',
        ours: median(growth),
        goal: '< 32 MB',
        met: Math.max(...growth) < 32,
        note: `getrusage max RSS − RSS before, worst ${Math.max(...growth).toFixed(1)} MB; 5 ms sampling saw ${median(ours.map((run) => run.sampledGrowthMb)).toFixed(1)} MB`,
        samples: { ours: growth },
      },
    ];
  },
};

function curlOnce(url: string, destination: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile('curl', ['--silent', '--show-error', '--fail', '--output', destination, '--write-out', '%{time_total} %{size_download}', url], (error, stdout) => {
      if (error) return reject(new Error(`curl failed: ${error.message}`));
      const [seconds, bytes] = stdout.trim().split(' ').map(Number);
      if (bytes !== SIZE) return reject(new Error(`curl downloaded ${bytes} of ${SIZE} bytes`));
      resolve(bytes / MB / seconds);
    });
  });
}

function oursOnce(job: DownloadJob): Promise<OursRun> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (raw: unknown) => {
      const report = downloadReportSchema.parse(raw);
      if (report.type === 'error') return reject(new Error(`ours: ${report.message}`));
      if (report.bytes !== SIZE) return reject(new Error(`ours downloaded ${report.bytes} of ${SIZE} bytes`));
      const peak = Math.max(report.maxRssAfter, report.sampledPeak);
      resolve({
        mbPerSecond: report.bytes / MB / (report.ms / 1000),
        rssGrowthMb: (peak - report.rssBefore) / MB,
        sampledGrowthMb: (report.sampledPeak - report.rssBefore) / MB,
      });
    });
    child.once('exit', (code) => reject(new Error(`the download worker exited (${code}) without a report`)));
    child.send(job);
  });
}

/** Size and a few slices compared with the bytes the CDN serves: a fast download of the wrong bytes counts for nothing. */
function checkFile(file: string): void {
  const size = fs.statSync(file).size;
  if (size !== SIZE) throw new Error(`${path.basename(file)} has ${size} bytes, not ${SIZE}`);
  const handle = fs.openSync(file, 'r');
  try {
    for (const offset of [0, 12_345_678, SIZE - 65_536]) {
      const read = Buffer.alloc(65_536);
      fs.readSync(handle, read, 0, read.length, offset);
      if (!read.equals(patternBytes(offset, read.length))) throw new Error(`${path.basename(file)} differs from the served bytes at ${offset}`);
    }
  } finally {
    fs.closeSync(handle);
  }
}
