import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchContext, BenchPart } from './parts/part';
import type { BenchResults, ResultRow } from './report/row';
import { markdownTable } from './report/table';
import { BENCH_ARTIFACTS } from './support/paths';
import { stagePackage, type StagedPackage } from './size/stagePackage';
import { startServiceProcess, type ServiceProcess } from './support/serviceProcess';

interface PartEntry {
  id: string;
  title: string;
  /** Loaded only when it runs: a part whose subject is broken right now fails alone, with a row saying so. */
  load(): Promise<BenchPart>;
}

const PARTS: PartEntry[] = [
  { id: 'throughput', title: 'Streaming throughput', load: async () => (await import('./parts/throughput')).throughputPart },
  { id: 'ttft', title: 'Time to first token', load: async () => (await import('./parts/firstToken')).firstTokenPart },
  { id: 'download', title: 'Download of a 256 MB video', load: async () => (await import('./parts/download')).downloadPart },
  { id: 'poller', title: 'Poller over 500 pending tasks', load: async () => (await import('./parts/poller')).pollerPart },
  { id: 'editor', title: 'Editor streaming in the real VS Code host', load: async () => (await import('./parts/editorStream')).editorStreamPart },
  { id: 'chat', title: 'Chat panel rendering in real Chromium', load: async () => (await import('./parts/chatPanel')).chatPanelPart },
  { id: 'mentions', title: 'Mention search and context assembly', load: async () => (await import('./parts/mentions')).mentionsPart },
  { id: 'tls', title: 'New HTTPS connections with the system trust store', load: async () => (await import('./parts/tlsConnections')).tlsConnectionsPart },
  { id: 'startup', title: 'Start-up and size', load: async () => (await import('./parts/startup')).startupPart },
];

function usage(): string {
  return `npm run bench [-- --only ${PARTS.map((part) => part.id).join(',')}] [--quick]`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    console.log(usage());
    return 0;
  }
  const only = values.only?.split(',').filter(Boolean);
  const unknown = only?.filter((id) => !PARTS.some((part) => part.id === id)) ?? [];
  if (unknown.length) {
    console.error(`unknown part(s) ${unknown.join(', ')}: ${usage()}`);
    return 2;
  }
  const selected = PARTS.filter((part) => !only || only.includes(part.id));
  const started = Date.now();
  const loadAtStart = os.loadavg();
  let service: Promise<ServiceProcess> | undefined;
  let staged: Promise<StagedPackage> | undefined;
  const details: Record<string, unknown> = {};
  const context: BenchContext = {
    quick: values.quick === true,
    service: () => (service ??= startServiceProcess()),
    stagedPackage: () => (staged ??= stagePackage()),
    log: (line) => console.log(line),
    details,
  };
  const rows: ResultRow[] = [];
  try {
    for (const part of selected) {
      const partStarted = Date.now();
      console.log(`[bench] ${part.id}: ${part.title}…`);
      try {
        rows.push(...(await (await part.load()).run(context)));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`[bench] ${part.id} failed: ${error instanceof Error ? error.stack : message}`);
        rows.push({ part: part.id, figure: part.title, unit: '—', goal: '—', note: `FAILED: ${message}` });
      }
      console.log(`[bench] ${part.id} took ${((Date.now() - partStarted) / 1000).toFixed(1)} s`);
    }
  } finally {
    if (service) await (await service.catch(() => undefined))?.stop();
  }
  const results: BenchResults = {
    startedAt: new Date(started).toISOString(),
    durationSeconds: (Date.now() - started) / 1000,
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      node: process.version,
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: os.loadavg(),
    },
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    rows,
    details,
  };
  const table = markdownTable(rows);
  console.log(`\n${table}\n`);
  console.log(
    `${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}, load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start; ` +
      `${results.durationSeconds.toFixed(0)} s in all`,
  );
  fs.mkdirSync(BENCH_ARTIFACTS, { recursive: true });
  const stamp = results.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(results, null, 2)}\n`;
  fs.writeFileSync(path.join(BENCH_ARTIFACTS, `bench-${stamp}.json`), json);
  fs.writeFileSync(path.join(BENCH_ARTIFACTS, 'latest.json'), json);
  fs.writeFileSync(path.join(BENCH_ARTIFACTS, 'latest.md'), `${table}\n`);
  console.log(`results: ${path.relative(process.cwd(), path.join(BENCH_ARTIFACTS, 'latest.json'))} (and bench-${stamp}.json, latest.md)`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
