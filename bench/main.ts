import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import type { BenchContext, BenchPart } from './parts/part';
import { partSection, replacePartSections } from './report/docSection';
import { exitCode, failedRow, failureSummary, reasonOf } from './report/outcome';
import type { BenchResults, ResultRow } from './report/row';
import { markdownTable } from './report/table';
import { BENCH_ARTIFACTS, ROOT } from './support/paths';
import { stagePackage, type StagedPackage } from './size/stagePackage';
import { startServiceProcess, type ServiceProcess } from './support/serviceProcess';

interface PartEntry {
  id: string;
  title: string;
  /** Runs in the real VS Code: the bench installs the stack first (scripts/install-vscode.js, as `npm test` does). */
  vsCode?: true;
  /** Loaded only when it runs: a part whose subject is broken right now fails alone, with a row saying so. */
  load(): Promise<BenchPart>;
}

const PARTS: PartEntry[] = [
  { id: 'throughput', title: 'Streaming throughput', load: async () => (await import('./parts/throughput')).throughputPart },
  { id: 'ttft', title: 'Time to first token', load: async () => (await import('./parts/firstToken')).firstTokenPart },
  { id: 'download', title: 'Download of a 256 MB video', load: async () => (await import('./parts/download')).downloadPart },
  { id: 'poller', title: 'Poller over 500 pending tasks', load: async () => (await import('./parts/poller')).pollerPart },
  { id: 'editor', title: 'Editor streaming in the real VS Code host', vsCode: true, load: async () => (await import('./parts/editorStream')).editorStreamPart },
  { id: 'chat', title: 'Chat panel rendering in real Chromium', vsCode: true, load: async () => (await import('./parts/chatPanel')).chatPanelPart },
  { id: 'mentions', title: 'Mention search and context assembly', vsCode: true, load: async () => (await import('./parts/mentions')).mentionsPart },
  { id: 'tls', title: 'New HTTPS connections with the system trust store', load: async () => (await import('./parts/tlsConnections')).tlsConnectionsPart },
  { id: 'film', title: 'Joining a one-minute film', load: async () => (await import('./parts/filmJoin')).filmJoinPart },
  { id: 'startup', title: 'Start-up and size', vsCode: true, load: async () => (await import('./parts/startup')).startupPart },
];

function usage(): string {
  return `npm run bench [-- --only ${PARTS.map((part) => part.id).join(',')}] [--quick] [--write-docs]`;
}

const DOC = path.join(ROOT, 'docs', 'performance.md');

/** The short commit, and whether tracked files differ from it (figures of uncommitted code say so). */
function currentCommit(): string {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git('rev-parse', '--short', 'HEAD');
  if (head.status !== 0) return 'unknown commit';
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' + uncommitted changes' : ''}`;
}

/** `node scripts/install-vscode.js` (idempotent; it skips what is there); a failure is left to the parts to report. */
function installVsCode(): void {
  console.log('[bench] installing the VS Code stack where missing (node scripts/install-vscode.js)…');
  const install = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'install-vscode.js')], { cwd: ROOT, stdio: 'inherit' });
  if (install.status !== 0) console.error(`[bench] node scripts/install-vscode.js exited ${install.status ?? install.signal}: the parts in VS Code will fail`);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, quick: { type: 'boolean' }, 'write-docs': { type: 'boolean' }, help: { type: 'boolean' } },
  });
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
  if (values['write-docs'] && values.quick) {
    console.error(`--write-docs takes a full run, not --quick: ${usage()}`);
    return 2;
  }
  const selected = PARTS.filter((part) => !only || only.includes(part.id));
  if (selected.some((part) => part.vsCode)) installVsCode();
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
  const rowsByPart = new Map<string, ResultRow[]>();
  try {
    for (const part of selected) {
      const partStarted = Date.now();
      console.log(`[bench] ${part.id}: ${part.title}…`);
      let partRows: ResultRow[];
      try {
        partRows = await (await part.load()).run(context);
      } catch (error) {
        console.error(`[bench] ${part.id} failed: ${error instanceof Error ? error.stack : reasonOf(error)}`);
        partRows = [failedRow(part.id, part.title, '—', reasonOf(error))];
      }
      rows.push(...partRows);
      rowsByPart.set(part.id, partRows);
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
    commit: currentCommit(),
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
  if (values['write-docs']) writeDocs(results, rowsByPart);
  for (const line of failureSummary(rows)) console.error(line);
  return exitCode(rows);
}

/** Rewrites the doc's section of each part that ran without a failure; a failed part keeps its last good figures. */
function writeDocs(results: BenchResults, rowsByPart: ReadonlyMap<string, ResultRow[]>): void {
  const written = new Map<string, string>();
  for (const [id, partRows] of rowsByPart) {
    const part = PARTS.find((entry) => entry.id === id);
    if (!part || exitCode(partRows) !== 0) continue;
    written.set(id, partSection({ id, title: part.title, rows: partRows }, results));
  }
  const kept = [...rowsByPart.keys()].filter((id) => !written.has(id));
  if (written.size > 0) {
    const doc = fs.readFileSync(DOC, 'utf8');
    fs.writeFileSync(
      DOC,
      replacePartSections(
        doc,
        written,
        PARTS.map((part) => part.id),
      ),
    );
  }
  const relative = path.relative(process.cwd(), DOC);
  if (written.size > 0) console.log(`[bench] ${relative}: wrote the figures of ${[...written.keys()].join(', ')}`);
  if (kept.length > 0) console.error(`[bench] ${relative}: kept the last figures of ${kept.join(', ')} (they failed in this run)`);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
