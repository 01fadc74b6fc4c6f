import { execFile, fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { patternBytes } from '../../test/service/bytes';
import type { ResultRow } from '../report/row';
import { median, pairedRatio, spread } from '../report/stats';
import { BENCH_ARTIFACTS } from '../support/paths';
import { downloadReportSchema, type DownloadJob } from '../workers/protocol';
import type { BenchContext, BenchPart } from './part';

const PART = '3 download';
const MB = 1024 * 1024;
const SIZE = 256 * MB;
const WORKER = path.join(__dirname, '..', 'workers', 'downloadWorker.js');
const TOOLS = ['curl', 'ours', 'plain'] as const;
type Tool = (typeof TOOLS)[number];

interface ToolRun {
  mbPerSecond: number;
  /** CPU time (user + system) of the downloading process, all its threads. */
  cpuSeconds: number;
  /** Node processes only (curl's is not measured). */
  rssGrowthMb?: number;
  sampledGrowthMb?: number;
}

/**
 * Part 3: a 256 MB file from the local CDN (scenario `cdn.sizeBytes`), to a file on the same disk, three ways in turn
 * (the order rotates each repetition): our `downloadVideo` and Node's plain pipeline (undici's body piped into
 * fs.createWriteStream: the ceiling of a Node download), each in a fresh child process, and Debian's `curl -o`.
 * Each file is checked, then deleted.
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
    const repetitions = context.quick ? 1 : 5;
    const runs: Record<Tool, ToolRun[]> = { curl: [], ours: [], plain: [] };
    try {
      for (let rep = 0; rep < repetitions; rep++) {
        for (const tool of rotated(TOOLS, rep)) {
          const destination = path.join(folder, `${tool}-${rep}.mp4`);
          const job = { baseUrl: service.baseUrl, key: service.key, videoUrl: url, destination };
          runs[tool].push(tool === 'curl' ? await curlOnce(url, destination) : await nodeOnce({ ...job, tool }));
          checkFile(destination);
          fs.rmSync(destination, { force: true });
        }
        const last = (tool: Tool) => `${tool} ${runs[tool].at(-1)?.mbPerSecond.toFixed(0)} MB/s`;
        context.log(`  repetition ${rep + 1}/${repetitions}: ${TOOLS.map(last).join(', ')}`);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
      await service.reset();
    }
    context.details['download'] = { sizeBytes: SIZE, runs };
    return rowsFor(runs);
  },
};

function rowsFor(runs: Record<Tool, ToolRun[]>): ResultRow[] {
  const speed = (tool: Tool) => runs[tool].map((run) => run.mbPerSecond);
  const growth = (tool: 'ours' | 'plain') => runs[tool].map((run) => run.rssGrowthMb ?? Number.NaN);
  const sampled = (tool: 'ours' | 'plain') => median(runs[tool].map((run) => run.sampledGrowthMb ?? Number.NaN)).toFixed(1);
  const cpu = TOOLS.map((tool) => `${tool} ${median(runs[tool].map((run) => run.cpuSeconds)).toFixed(2)} s`).join(', ');
  const speedRow = (peer: 'curl' | 'plain', peerName: string, goal: string): ResultRow => {
    const ratio = pairedRatio(speed('ours'), speed(peer));
    return {
      part: PART,
      figure: `256 MB to disk: MB/s vs ${peerName}`,
      unit: 'MB/s',
      ours: median(speed('ours')),
      peer: median(speed(peer)),
      peerName: peer,
      ratio,
      ratioKind: 'percent',
      goal,
      met: ratio >= 0.9,
      note:
        `ratio: median of the repetitions' ours / ${peer} (the same minute's load on both); ours ${spread(speed('ours'), 0)}; ` +
        `${peer} ${spread(speed(peer), 0)}; CPU per download: ${cpu}`,
      samples: { ours: speed('ours'), peer: speed(peer) },
    };
  };
  return [
    speedRow('curl', 'curl -o', '≥ 90% of curl'),
    speedRow('plain', "Node's plain pipeline", '≥ 90% of the plain pipeline'),
    {
      part: PART,
      figure: 'peak RSS growth of the downloading process vs the plain pipeline',
      unit: 'MB',
      ours: median(growth('ours')),
      peer: median(growth('plain')),
      peerName: 'plain',
      ratio: median(growth('ours')) - median(growth('plain')),
      ratioKind: 'difference',
      // Issue 28.3: under 32 MB, or within 10% of what Node itself grows by for the same download in the same run.
      goal: "< 32 MB, or ≤ 110% of the plain pipeline's",
      met: Math.max(...growth('ours')) < 32 || median(growth('ours')) <= 1.1 * median(growth('plain')),
      note:
        `getrusage max RSS − RSS before; worst: ours ${Math.max(...growth('ours')).toFixed(1)} MB, plain ${Math.max(...growth('plain')).toFixed(1)} MB; ` +
        `5 ms sampling saw ours ${sampled('ours')} MB, plain ${sampled('plain')} MB`,
      samples: { ours: growth('ours'), peer: growth('plain') },
    },
  ];
}

/** `items` started at `offset`: each tool goes first, second and last in turn. */
export function rotated<T>(items: readonly T[], offset: number): T[] {
  const start = offset % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

/** curl's speed, and its CPU time as bash's `times` reports its children's (user and system). */
function curlOnce(url: string, destination: string): Promise<ToolRun> {
  const script = 'curl --silent --show-error --fail --output "$1" --write-out "%{time_total} %{size_download}\\n" "$2" && times';
  return new Promise((resolve, reject) => {
    execFile('bash', ['-c', script, 'curl-once', destination, url], (error, stdout) => {
      if (error) return reject(new Error(`curl failed: ${error.message}`));
      const [written, , children] = stdout.trim().split('\n');
      const [seconds, bytes] = written.split(' ').map(Number);
      if (bytes !== SIZE) return reject(new Error(`curl downloaded ${bytes} of ${SIZE} bytes`));
      resolve({ mbPerSecond: bytes / MB / seconds, cpuSeconds: timesSeconds(children ?? '') });
    });
  });
}

/** `0m0.052s 0m0.371s` (user, system) → 0.423. */
export function timesSeconds(line: string): number {
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)];
  if (parts.length !== 2) throw new Error(`unexpected output of times: ${line}`);
  return parts.reduce((sum, [, minutes, seconds]) => sum + Number(minutes) * 60 + Number(seconds), 0);
}

function nodeOnce(job: DownloadJob): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (raw: unknown) => {
      const report = downloadReportSchema.parse(raw);
      if (report.type === 'error') return reject(new Error(`${job.tool}: ${report.message}`));
      if (report.bytes !== SIZE) return reject(new Error(`${job.tool} downloaded ${report.bytes} of ${SIZE} bytes`));
      const peak = Math.max(report.maxRssAfter, report.sampledPeak);
      resolve({
        mbPerSecond: report.bytes / MB / (report.ms / 1000),
        cpuSeconds: report.cpuMs / 1000,
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
