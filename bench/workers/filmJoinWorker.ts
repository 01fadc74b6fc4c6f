import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { bytesReader, bytesWriter, joinFilm } from '../../src/video/film/core/filmJoin';
import { filmJobSchema, type FilmJob, type FilmReport } from './protocol';

/**
 * A fresh process per run, so its RSS before is a clean baseline: it joins the shots into one film as the extension
 * does (each shot read whole, the film made in memory, then written in one write, as vscode.workspace.fs works), or copies the same files with fs.copyFile (the peer), and reports
 * the time and the peak RSS (the kernel's high-water mark, and a 5 ms sampling as a cross-check).
 */
process.once('message', (raw: unknown) => {
  void run(raw).then((report) => {
    process.send?.(report, () => process.exit(0));
  });
});

async function run(raw: unknown): Promise<FilmReport> {
  try {
    const job = filmJobSchema.parse(raw);
    // As in the extension, where the film module is loaded before the join: the code is in, the join starts cold.
    if (job.mode === 'join') await warmUp(job.shots[0]);
    const rssBefore = process.memoryUsage.rss();
    let sampledPeak = rssBefore;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss())), 5);
    const started = performance.now();
    const { bytes, seconds } = job.mode === 'join' ? await join(job) : await copy(job);
    const ms = performance.now() - started;
    clearInterval(sampler);
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    return { type: 'done', ms, bytes, seconds, rssBefore, maxRssAfter: process.resourceUsage().maxRSS * 1024, sampledPeak };
  } catch (error) {
    return { type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
}

async function join(job: FilmJob): Promise<{ bytes: number; seconds: number }> {
  const shots = [];
  for (const [index, shot] of job.shots.entries()) {
    shots.push({ source: bytesReader(await fs.promises.readFile(shot)), caption: `Shot ${index + 1} says what this part of the code does.` });
  }
  const target = bytesWriter();
  const { plan, film } = await joinFilm(shots, async () => target);
  if (!film) throw new Error(`the shots did not join: ${plan.joinable ? '' : plan.reason}`);
  await fs.promises.writeFile(job.destination, target.bytes(), { flag: 'wx' });
  return { bytes: film.bytes, seconds: film.seconds };
}

async function copy(job: FilmJob): Promise<{ bytes: number; seconds: number }> {
  let bytes = 0;
  for (const shot of job.shots) {
    const target = path.join(job.destination, path.basename(shot));
    await fs.promises.copyFile(shot, target, fs.constants.COPYFILE_EXCL);
    bytes += (await fs.promises.stat(target)).size;
  }
  return { bytes, seconds: 0 };
}

/** One shot joined into nothing: loads mediabunny and compiles the hot paths, as an extension that joined before. */
async function warmUp(shot: string): Promise<void> {
  const source = bytesReader(await fs.promises.readFile(shot));
  await joinFilm([{ source, caption: 'warm-up' }], async () => bytesWriter());
}
