import { performance } from 'node:perf_hooks';
import { PromptreelClient } from '../../src/api';
import { downloadJobSchema, type DownloadReport } from './protocol';

/**
 * A fresh process per download, so its RSS before the download is a clean baseline: it downloads one file with
 * ours and reports the time and the peak RSS (the kernel's high-water mark, and a 5 ms sampling as a cross-check).
 * The CDN is another origin than the service, as in production: the download opens its own connection.
 */
process.once('message', (raw: unknown) => {
  void run(raw).then((report) => {
    process.send?.(report, () => process.exit(0));
  });
});

async function run(raw: unknown): Promise<DownloadReport> {
  try {
    const job = downloadJobSchema.parse(raw);
    const client = new PromptreelClient({ baseUrl: job.baseUrl, apiKey: () => job.key, retry: { retries: 0 } });
    // As in the extension, where the same client created and polled the task first: undici (and its HTTP parser)
    // is loaded and a connection to the service is open; the download itself starts cold.
    await client.listModels();
    const rssBefore = process.memoryUsage.rss();
    let sampledPeak = rssBefore;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss())), 5);
    const started = performance.now();
    const result = await client.downloadVideo({ id: 'bench', videoUrl: job.videoUrl }, job.destination);
    const ms = performance.now() - started;
    clearInterval(sampler);
    sampledPeak = Math.max(sampledPeak, process.memoryUsage.rss());
    return { type: 'done', ms, bytes: result.bytes, rssBefore, maxRssAfter: process.resourceUsage().maxRSS * 1024, sampledPeak };
  } catch (error) {
    return { type: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}
