import { fork } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from 'mediabunny';
import { filmClipPath, type FilmClip } from '../../test/service/filmClips';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { BENCH_ARTIFACTS } from '../support/paths';
import { filmReportSchema, type FilmJob } from '../workers/protocol';
import type { BenchContext, BenchPart } from './part';

const PART = '10 film join';
const MB = 1024 * 1024;
const WORKER = path.join(__dirname, '..', 'workers', 'filmJoinWorker.js');
/** The clips that join (1 s, 1.5 s, 2 s; 24 fps H.264 with AAC), repeated until the film lasts a minute or more. */
const CLIPS: readonly FilmClip[] = ['shot-a', 'shot-b', 'shot-c'];
const CLIP_SECONDS: Record<string, number> = { 'shot-a': 1, 'shot-b': 1.5, 'shot-c': 2 };
const FILM_SECONDS = 60;

interface Run {
  ms: number;
  bytes: number;
  seconds: number;
  rssGrowthMb: number;
  sampledGrowthMb: number;
}

/**
 * Part 10: the explainer film's join (issue 27). A film of at least a minute made of copies of the service's film
 * clips (each a file of its own, as downloaded shots are), joined by `joinFilm` with the extension's disk reader and
 * writer in a fresh child process; the peer copies the same files with fs.copyFile in another. Alternating, each
 * film checked (its length and every packet) then deleted.
 */
export const filmJoinPart: BenchPart = {
  id: 'film',
  title: 'Joining a one-minute film',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const folder = path.join(BENCH_ARTIFACTS, 'film');
    fs.rmSync(folder, { recursive: true, force: true });
    const shotsFolder = path.join(folder, 'shots');
    fs.mkdirSync(shotsFolder, { recursive: true });
    const shots: string[] = [];
    let planned = 0;
    while (planned < FILM_SECONDS) {
      const clip = CLIPS[shots.length % CLIPS.length];
      const shot = path.join(shotsFolder, `shot-${String(shots.length + 1).padStart(3, '0')}.mp4`);
      fs.copyFileSync(filmClipPath(clip), shot);
      shots.push(shot);
      planned += CLIP_SECONDS[clip];
    }
    const expected = await expectedFilm(shots);
    const shotBytes = shots.reduce((sum, shot) => sum + fs.statSync(shot).size, 0);
    const repetitions = context.quick ? 1 : 5;
    const join: Run[] = [];
    const copy: Run[] = [];
    try {
      for (let rep = 0; rep < repetitions; rep++) {
        const order = rep % 2 === 0 ? (['copy', 'join'] as const) : (['join', 'copy'] as const);
        for (const mode of order) {
          const destination = mode === 'join' ? path.join(folder, `film-${rep}.mp4`) : path.join(folder, `copy-${rep}`);
          if (mode === 'copy') fs.mkdirSync(destination);
          const run = await once({ mode, shots, destination });
          if (mode === 'join') {
            await checkFilm(destination, expected);
            join.push(run);
          } else copy.push(run);
          fs.rmSync(destination, { recursive: true, force: true });
        }
        context.log(`  repetition ${rep + 1}/${repetitions}: join ${join.at(-1)?.ms.toFixed(0)} ms, copy ${copy.at(-1)?.ms.toFixed(0)} ms`);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
    const perMinute = (run: Run) => run.ms / 1000 / (expected.seconds / 60);
    const joinPerMinute = join.map(perMinute);
    const copyPerMinute = copy.map(perMinute);
    const joinGrowth = join.map((run) => run.rssGrowthMb);
    const copyGrowth = copy.map((run) => run.rssGrowthMb);
    context.details['film'] = { shots: shots.length, filmSeconds: expected.seconds, shotBytes, packets: expected, join, copy };
    const film = `${shots.length} shots, ${expected.seconds.toFixed(1)} s, ${(shotBytes / MB).toFixed(2)} MB, ${expected.videoPackets} video + ${expected.audioPackets} sound packets`;
    return [
      {
        part: PART,
        figure: 'join: seconds per minute of film vs copying the shots',
        unit: 's/min',
        ours: median(joinPerMinute),
        peer: median(copyPerMinute),
        peerName: 'fs.copyFile',
        ratio: median(joinPerMinute) / median(copyPerMinute),
        ratioKind: 'times',
        goal: '≤ 2 s per minute of film',
        met: median(joinPerMinute) <= 2,
        note: `${film}; join ${spread(joinPerMinute, 3)}; copy ${spread(copyPerMinute, 3)}`,
        samples: { ours: joinPerMinute, peer: copyPerMinute },
      },
      {
        part: PART,
        figure: 'join: peak RSS growth vs copying the shots',
        unit: 'MB',
        ours: median(joinGrowth),
        peer: median(copyGrowth),
        peerName: 'fs.copyFile',
        ratio: median(joinGrowth) - median(copyGrowth),
        ratioKind: 'difference',
        goal: '< 32 MB',
        met: Math.max(...joinGrowth) < 32,
        note: `getrusage max RSS − RSS before (mediabunny loaded), worst ${Math.max(...joinGrowth).toFixed(1)} MB; 5 ms sampling saw ${median(join.map((run) => run.sampledGrowthMb)).toFixed(1)} MB; copy worst ${Math.max(...copyGrowth).toFixed(1)} MB`,
        samples: { ours: joinGrowth, peer: copyGrowth },
      },
    ];
  },
};

function once(job: FilmJob): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (raw: unknown) => {
      const report = filmReportSchema.parse(raw);
      if (report.type === 'error') return reject(new Error(`${job.mode}: ${report.message}`));
      const peak = Math.max(report.maxRssAfter, report.sampledPeak);
      resolve({
        ms: report.ms,
        bytes: report.bytes,
        seconds: report.seconds,
        rssGrowthMb: (peak - report.rssBefore) / MB,
        sampledGrowthMb: (report.sampledPeak - report.rssBefore) / MB,
      });
    });
    child.once('exit', (code) => reject(new Error(`the film worker exited (${code}) without a report`)));
    child.send(job);
  });
}

interface Expected {
  seconds: number;
  videoPackets: number;
  audioPackets: number;
  frameSeconds: number;
}

/** What the joined film must hold: the sum of the shots' video durations and packets, read from the shots themselves. */
async function expectedFilm(shots: readonly string[]): Promise<Expected> {
  const expected: Expected = { seconds: 0, videoPackets: 0, audioPackets: 0, frameSeconds: 0 };
  for (const shot of shots) {
    const facts = await read(shot);
    expected.seconds += facts.seconds;
    expected.videoPackets += facts.videoPackets;
    expected.frameSeconds = facts.frameSeconds;
  }
  return expected;
}

/** A fast join of a wrong film counts for nothing: its length (within a frame a joint) and its video packets. */
async function checkFilm(file: string, expected: Expected): Promise<void> {
  const film = await read(file);
  const joints = Math.max(0, Math.round(expected.seconds) - 1);
  if (Math.abs(film.seconds - expected.seconds) > expected.frameSeconds * joints + 1e-6)
    throw new Error(`the film lasts ${film.seconds} s, not the shots' ${expected.seconds} s`);
  if (film.videoPackets !== expected.videoPackets) throw new Error(`the film has ${film.videoPackets} video packets, not ${expected.videoPackets}`);
  if (film.audioPackets === 0) throw new Error('the film has no sound');
  expected.audioPackets = film.audioPackets;
}

async function read(file: string): Promise<{ seconds: number; videoPackets: number; audioPackets: number; frameSeconds: number }> {
  const input = new Input({ formats: ALL_FORMATS, source: new BufferSource(fs.readFileSync(file)) });
  try {
    const video = await input.getPrimaryVideoTrack();
    const audio = await input.getPrimaryAudioTrack();
    if (!video) throw new Error(`${path.basename(file)} has no video`);
    let videoPackets = 0;
    let frameSeconds = 0;
    for await (const packet of new EncodedPacketSink(video).packets(undefined, undefined, { metadataOnly: true })) {
      videoPackets++;
      frameSeconds = packet.duration;
    }
    let audioPackets = 0;
    if (audio) for await (const _packet of new EncodedPacketSink(audio).packets(undefined, undefined, { metadataOnly: true })) audioPackets++;
    return { seconds: (await video.computeDuration()) - (await video.getFirstTimestamp()), videoPackets, audioPackets, frameSeconds };
  } finally {
    input.dispose();
  }
}
