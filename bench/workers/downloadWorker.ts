import { createWriteStream } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';
import { Agent, request } from 'undici';
import { PromptreelClient } from '../../src/api';
import { cpuMs } from '../clients/streamClient';
import { downloadJobSchema, type DownloadJob, type DownloadReport } from './protocol';

/**
 * The plain pipeline's write buffer. createWriteStream's default (16 KB) writes one socket read at a time and reaches
 * about three quarters of this; with a few MB the reads are written in batches (writev), as ours does.
 */
const PLAIN_WRITE_BUFFER_BYTES = 4 * 1024 * 1024;

/**
 * A fresh process per download, so its RSS before the download is a clean baseline: it downloads one file with
 * ours (`downloadVideo`) or with Node's plain pipeline (undici's response body piped into fs.createWriteStream, the
 * ceiling of a Node download), and reports the time, the CPU it used and the peak RSS (the kernel's high-water mark,
 * and a 5 ms sampling as a cross-check). The CDN is another origin than the service, as in production: the download
 * opens its own connection.
 */
process.once('message', (raw: unknown) => {
  void run(raw).then((report) => {
    process.send?.(report, () => process.exit(0));
  });
});

async function run(raw: unknown): Promise<DownloadReport> {
  try {
    const job = downloadJobSchema.parse(raw);
    const download = job.tool === 'ours' ? await prepareOurs(job) : await preparePlain(job);
    const rssBefore = process.memoryUsage.rss();
    let sampledPeak = rssBefore;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss())), 5);
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    const bytes = await download();
    const ms = performance.now() - started;
    const cpu = cpuMs(cpuStart);
    clearInterval(sampler);
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    return { type: 'done', ms, cpuMs: cpu, bytes, rssBefore, maxRssAfter: process.resourceUsage().maxRSS * 1024, sampledPeak };
  } catch (error) {
    return { type: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * As in the extension, where the same client created and polled the task first: undici (and its HTTP parser) is
 * loaded and a connection to the service is open; the download itself starts cold.
 */
async function prepareOurs(job: DownloadJob): Promise<() => Promise<number>> {
  const client = new PromptreelClient({ baseUrl: job.baseUrl, apiKey: () => job.key, retry: { retries: 0 } });
  await client.listModels();
  return async () => (await client.downloadVideo({ id: 'bench', videoUrl: job.videoUrl }, job.destination)).bytes;
}

/** The same start (undici loaded, one answer of the service parsed), then nothing but the pipeline. */
async function preparePlain(job: DownloadJob): Promise<() => Promise<number>> {
  const dispatcher = new Agent();
  const models = await request(`${job.baseUrl}/v1/models`, { dispatcher, headers: { authorization: `Bearer ${job.key}` } });
  await models.body.text();
  return async () => {
    const response = await request(job.videoUrl, { dispatcher });
    if (response.statusCode !== 200) throw new Error(`the CDN answered ${response.statusCode}`);
    const file = createWriteStream(job.destination, { highWaterMark: PLAIN_WRITE_BUFFER_BYTES });
    await pipeline(response.body, file);
    return file.bytesWritten;
  };
}
