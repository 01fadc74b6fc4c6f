import type { StreamRun } from '../clients/streamClient';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { StreamWorker } from '../support/streamWorkers';
import type { BenchContext, BenchPart } from './part';

interface Workload {
  name: string;
  chunks: number;
  chunkChars: number;
}

const WORKLOADS: Workload[] = [
  { name: '100k × 4 chars', chunks: 100_000, chunkChars: 4 },
  { name: '10k × 1 KB', chunks: 10_000, chunkChars: 1024 },
];

const PART = '1 stream';
const MB = 1024 * 1024;

/**
 * Part 1: the local service streams `chunks` content chunks as fast as the socket drains (scenario `chat.bulk`);
 * raw undici, ours and the SDK each read the whole stream, in turn, run after run, each in its own process.
 */
export const throughputPart: BenchPart = {
  id: 'throughput',
  title: 'Streaming throughput',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const service = await context.service();
    const target = { baseUrl: service.baseUrl, key: service.key, model: 'promptreel-chat', prompt: 'bench' };
    const workers = await Promise.all((['raw', 'ours', 'sdk'] as const).map((kind) => StreamWorker.start(kind, target)));
    const repetitions = context.quick ? 2 : 7;
    const rows: ResultRow[] = [];
    try {
      for (const workload of WORKLOADS) {
        await service.reset();
        await service.setScenario({ chat: { bulk: { chunks: workload.chunks, chunkChars: workload.chunkChars } } });
        for (const worker of workers) await worker.run(1); // warm-up: JIT, connection
        const runs = { raw: [] as StreamRun[], ours: [] as StreamRun[], sdk: [] as StreamRun[] };
        for (let rep = 0; rep < repetitions; rep++) {
          // Rotated order, so a burst of load from elsewhere on the machine does not always hit the same library.
          for (let i = 0; i < workers.length; i++) {
            const worker = workers[(rep + i) % workers.length];
            runs[worker.kind].push(...(await worker.run(1)));
          }
          context.log(`  ${workload.name}: repetition ${rep + 1}/${repetitions} done`);
        }
        checkComplete(workload, runs);
        rows.push(...rowsFor(workload, runs, context));
      }
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await service.reset();
    }
    return rows;
  },
};

function checkComplete(workload: Workload, runs: Record<'raw' | 'ours' | 'sdk', StreamRun[]>): void {
  for (const kind of ['ours', 'sdk'] as const) {
    for (const run of runs[kind]) {
      // The SDK yields one object per chunk; ours joins the text deltas that arrive in one network read into one event.
      const eventsOk = kind === 'sdk' ? run.contentEvents === workload.chunks : run.contentEvents >= 1 && run.contentEvents <= workload.chunks;
      if (!eventsOk || run.textChars !== workload.chunks * workload.chunkChars) {
        throw new Error(
          `${kind} read ${run.contentEvents} text events / ${run.textChars} chars of ${workload.chunks} chunks / ${workload.chunks * workload.chunkChars}`,
        );
      }
    }
  }
}

function rowsFor(workload: Workload, runs: Record<'raw' | 'ours' | 'sdk', StreamRun[]>, context: BenchContext): ResultRow[] {
  const bytes = median(runs.raw.map((run) => run.bytes));
  const perSecond = (list: StreamRun[], amount: number, time: 'totalMs' | 'cpuMs') => list.map((run) => amount / (run[time] / 1000));
  const mb = (kind: 'raw' | 'ours' | 'sdk', time: 'totalMs' | 'cpuMs' = 'totalMs') => perSecond(runs[kind], bytes / MB, time);
  const kcps = (kind: 'raw' | 'ours' | 'sdk') => perSecond(runs[kind], workload.chunks / 1000, 'totalMs');
  context.details[`throughput ${workload.name}`] = { bytesPerStream: bytes, ...workload, runs };
  const wall = { raw: mb('raw'), ours: mb('ours'), sdk: mb('sdk') };
  const cpu = { raw: mb('raw', 'cpuMs'), ours: mb('ours', 'cpuMs'), sdk: mb('sdk', 'cpuMs') };
  const chunks = { raw: kcps('raw'), ours: kcps('ours'), sdk: kcps('sdk') };
  const wallRatio = median(wall.ours) / median(wall.raw);
  const cpuRatio = median(cpu.ours) / median(cpu.raw);
  return [
    {
      part: PART,
      figure: `${workload.name}: MB/s vs raw undici read`,
      unit: 'MB/s',
      ours: median(wall.ours),
      peer: median(wall.raw),
      peerName: 'raw',
      ratio: wallRatio,
      ratioKind: 'percent',
      // What the machine allows, for scale: no user feels a stream's throughput past what a model sends (issue 28.6).
      goal: '—',
      note: `wall clock; ours ${spread(wall.ours)}; raw ${spread(wall.raw)}; ${(bytes / MB).toFixed(1)} MB per stream`,
      samples: { ours: wall.ours, peer: wall.raw },
    },
    {
      part: PART,
      figure: `${workload.name}: MB per CPU-second vs raw`,
      unit: 'MB/CPU-s',
      ours: median(cpu.ours),
      peer: median(cpu.raw),
      peerName: 'raw',
      ratio: cpuRatio,
      ratioKind: 'percent',
      goal: '—',
      note: `bytes / CPU time of the client process: what it reaches when it has a core to itself; ours ${spread(cpu.ours)}; raw ${spread(cpu.raw)}`,
      samples: { ours: cpu.ours, peer: cpu.raw },
    },
    {
      part: PART,
      figure: `${workload.name}: MB/s vs openai SDK`,
      unit: 'MB/s',
      ours: median(wall.ours),
      peer: median(wall.sdk),
      peerName: 'SDK',
      ratio: median(wall.ours) / median(wall.sdk),
      ratioKind: 'times',
      goal: '≥ the SDK',
      met: median(wall.ours) >= median(wall.sdk),
      note: `SDK ${spread(wall.sdk)}; per CPU-second ours ${(median(cpu.ours) / median(cpu.sdk)).toFixed(1)}× the SDK`,
      samples: { ours: wall.ours, peer: wall.sdk },
    },
    {
      part: PART,
      figure: `${workload.name}: thousand chunks/s`,
      unit: 'k chunks/s',
      ours: median(chunks.ours),
      peer: median(chunks.raw),
      peerName: 'raw',
      ratio: median(chunks.ours) / median(chunks.raw),
      ratioKind: 'percent',
      goal: '—',
      note: `SDK ${median(chunks.sdk).toFixed(1)}k/s; every chunk validated; ours handed them out as ${median(runs.ours.map((run) => run.contentEvents)).toFixed(0)} text events (deltas of one read joined), the SDK as ${workload.chunks}`,
      samples: { ours: chunks.ours, peer: chunks.raw },
    },
  ];
}
