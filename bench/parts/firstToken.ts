import type { StreamRun } from '../clients/streamClient';
import type { ResultRow } from '../report/row';
import { median, quantile, spread } from '../report/stats';
import { StreamWorker } from '../support/streamWorkers';
import type { BenchContext, BenchPart } from './part';

const PART = '2 first token';

/**
 * Part 2: a short reply whose first chunk is sent at once (`firstChunkDelayMs: 0`). Time from the call to the first
 * content delta the consumer gets (raw: the first body bytes, which nothing can beat). Keep-alive connections for all.
 */
export const firstTokenPart: BenchPart = {
  id: 'ttft',
  title: 'Time to first token',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await context.service();
    await service.reset();
    await service.setScenario({ chat: { firstChunkDelayMs: 0, delayMs: 0 } });
    const target = { baseUrl: service.baseUrl, key: service.key, model: 'promptreel-chat', prompt: 'first token please' };
    const workers = await Promise.all((['raw', 'ours', 'sdk'] as const).map((kind) => StreamWorker.start(kind, target)));
    // Small blocks, rotated: a burst of load from elsewhere on the machine hits all three libraries alike.
    const blocks = context.quick ? 4 : 20;
    const perBlock = context.quick ? 5 : 10;
    const runs = { raw: [] as StreamRun[], ours: [] as StreamRun[], sdk: [] as StreamRun[] };
    const blockMedians = { raw: [] as number[], ours: [] as number[], sdk: [] as number[] };
    try {
      for (const worker of workers) await worker.run(20); // warm-up
      for (let block = 0; block < blocks; block++) {
        for (let i = 0; i < workers.length; i++) {
          const worker = workers[(block + i) % workers.length];
          const got = await worker.run(perBlock);
          runs[worker.kind].push(...got);
          blockMedians[worker.kind].push(median(got.map((run) => run.firstMs)));
        }
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await service.reset();
    }
    for (const kind of ['ours', 'sdk'] as const) {
      if (runs[kind].some((run) => run.contentEvents === 0)) throw new Error(`${kind}: a reply without content`);
    }
    const first = { raw: runs.raw.map((r) => r.firstMs), ours: runs.ours.map((r) => r.firstMs), sdk: runs.sdk.map((r) => r.firstMs) };
    context.details['first token'] = { requestsPerClient: blocks * perBlock, firstMs: first };
    const p50 = { raw: median(first.raw), ours: median(first.ours), sdk: median(first.sdk) };
    const p99 = { raw: quantile(first.raw, 0.99), ours: quantile(first.ours, 0.99), sdk: quantile(first.sdk, 0.99) };
    const n = blocks * perBlock;
    return [
      {
        part: PART,
        figure: `p50 over ${n} requests vs raw`,
        unit: 'ms',
        ours: p50.ours,
        peer: p50.raw,
        peerName: 'raw',
        ratio: p50.ours - p50.raw,
        ratioKind: 'difference',
        goal: '≤ raw + 1 ms',
        met: p50.ours - p50.raw <= 1,
        note: `medians of ${blocks} blocks: ours ${spread(blockMedians.ours, 2)}; raw ${spread(blockMedians.raw, 2)}`,
      },
      {
        part: PART,
        figure: `p99 over ${n} requests vs raw`,
        unit: 'ms',
        ours: p99.ours,
        peer: p99.raw,
        peerName: 'raw',
        ratio: p99.ours - p99.raw,
        ratioKind: 'difference',
        goal: '—',
      },
      {
        part: PART,
        figure: `p50 over ${n} requests vs openai SDK`,
        unit: 'ms',
        ours: p50.ours,
        peer: p50.sdk,
        peerName: 'SDK',
        ratio: p50.ours - p50.sdk,
        ratioKind: 'difference',
        goal: '—',
        note: `SDK block medians ${spread(blockMedians.sdk, 2)}`,
      },
      {
        part: PART,
        figure: `p99 over ${n} requests vs openai SDK`,
        unit: 'ms',
        ours: p99.ours,
        peer: p99.sdk,
        peerName: 'SDK',
        ratio: p99.ours - p99.sdk,
        ratioKind: 'difference',
        goal: '—',
      },
    ];
  },
};
