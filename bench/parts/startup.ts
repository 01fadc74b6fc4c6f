import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { activationReportSchema, type ActivationReport } from '../host/hostResult';
import { requireHost, runHostSession } from '../host/hostSession';
import { failedRow, reasonOf } from '../report/outcome';
import type { ResultRow } from '../report/row';
import { median, spread } from '../report/stats';
import { listFiles, PackageManager } from '@vscode/vsce';
import { analyseBundle, type BundleAnalysis } from '../size/bundleAnalysis';
import type { StagedPackage } from '../size/stagePackage';
import { OUT } from '../support/paths';
import type { BenchContext, BenchPart } from './part';

const PART = '7 start-up';
const KB = 1024;
const ACTIVATION_ENTRY = path.join(OUT, 'bench', 'host', 'activationEntry');
const ACTIVATION_FIGURE = "Promptreel's own activation (loading its code + activate()) in the real VS Code host";
const ACTIVATION_GOAL = '≤ 20 ms';

/**
 * Part 7: the size of what ships (the real `npm run package` in a staged copy, plus an esbuild metafile breakdown and
 * the size of each safe bundling option), and activation time in the real VS Code host, read from VS Code's own
 * performance marks (`code/extHost/willLoadExtensionCode` → `didActivateExtension`), one fresh VS Code per repetition.
 */
export const startupPart: BenchPart = {
  id: 'startup',
  title: 'Start-up and size',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const rows: ResultRow[] = [];
    const analysis = await analyseBundle();
    context.details['bundle'] = analysis;
    let staged: StagedPackage | undefined;
    try {
      staged = await context.stagedPackage();
    } catch (error) {
      rows.push(failedRow(PART, 'npm run package', '—', reasonOf(error)));
    }
    const top = analysis.activation.bySource
      .filter((entry) => entry.bytes >= KB / 2)
      .slice(0, 5)
      .map((entry) => `${entry.source} ${(entry.bytes / KB).toFixed(0)}`)
      .join(', ');
    const load = analysis.activation;
    const lazy = analysis.lazy
      .filter((chunk) => chunk.bytes >= 4 * KB)
      .map((chunk) => `${chunk.main} ${(chunk.bytes / KB).toFixed(0)}`)
      .join(', ');
    rows.push({
      part: PART,
      figure: 'JS loaded at activation (dist/start.js, dist/extension.js and the chunks it imports)',
      unit: 'KB',
      ours: load.bytes / KB,
      goal: '≤ 150 KB',
      met: load.bytes <= 150 * KB,
      note: `${load.files.length} files; largest parts (KB): ${top}; loaded on first use: ${lazy}` + '; as node esbuild.js --production builds them',
    });
    const options = analysis.options
      .map((option) => `${option.name} ${option.savedBytes >= 0 ? '−' : '+'}${(Math.abs(option.savedBytes) / KB).toFixed(1)}`)
      .join(', ');
    rows.push({
      part: PART,
      figure: 'bundle options (KB of the activation load saved vs as packaged)',
      unit: 'KB',
      goal: '—',
      note: options,
    });
    rows.push(await shippedJsRow(analysis, staged));
    if (staged) {
      const vsixBytes = fs.statSync(staged.vsix).size;
      rows.push({
        part: PART,
        figure: 'VSIX (npm run package)',
        unit: 'KB',
        ours: vsixBytes / KB,
        goal: '—',
        note: `packaged in ${staged.seconds.toFixed(0)} s`,
      });
      context.details['package'] = { activationBytes: load.bytes, vsixBytes };
    }
    rows.push(await activationRow(context, staged).catch((error: unknown) => failedRow(PART, ACTIVATION_FIGURE, ACTIVATION_GOAL, reasonOf(error))));
    return rows;
  },
};

/** Every .js file the VSIX carries (as vsce lists the staged package), against the bundles esbuild.js builds. */
async function shippedJsRow(analysis: BundleAnalysis, staged: StagedPackage | undefined): Promise<ResultRow> {
  const figure = 'JS in the VSIX, all files';
  const built = analysis.bundles.map((bundle) => `dist/${bundle.file}`);
  let files: { file: string; bytes: number }[];
  let source: string;
  if (staged) {
    const listed = await listFiles({ cwd: staged.dir, packageManager: PackageManager.None });
    const root = staged.dir;
    files = listed
      .map((file) => file.replace(/\\/g, '/'))
      .filter((file) => /\.m?js$/.test(file))
      .map((file) => ({ file, bytes: fs.statSync(path.join(root, file)).size }));
    source = 'the staged package as vsce lists it';
  } else {
    files = analysis.bundles.map((bundle) => ({ file: `dist/${bundle.file}`, bytes: bundle.bytes }));
    source = 'esbuild.js bundles (npm run package failed)';
  }
  // The chunks' hashes differ between two builds from different folders (node_modules is linked into the staged copy).
  const unhashed = (file: string) => file.replace(HASHED_CHUNK, '$1.js');
  const missing = built.filter((file) => !files.some((shipped) => unhashed(shipped.file) === unhashed(file)));
  const total = files.reduce((sum, file) => sum + file.bytes, 0);
  const host = files.filter((file) => !file.file.startsWith('dist/webview/')).reduce((sum, file) => sum + file.bytes, 0);
  const undici = analysis.bundles.find((bundle) => bundle.file === 'undici.js');
  const undiciTop = undici
    ? `; undici.js (loaded on the first request): ${undici.bySource.map((entry) => `${entry.source} ${(entry.bytes / KB).toFixed(0)}`).join(', ')}`
    : '';
  return {
    part: PART,
    figure,
    unit: 'KB',
    ours: total / KB,
    goal: '—',
    note:
      `${described(files)}; extension host ${(host / KB).toFixed(0)}, webview ${((total - host) / KB).toFixed(0)}${undiciTop}; ${source}` +
      `${missing.length > 0 ? `; MISSING from the VSIX: ${missing.join(', ')}` : ''}`,
  };
}

async function activationRow(context: BenchContext, staged: StagedPackage | undefined): Promise<ResultRow> {
  requireHost();
  const extensionPath = staged?.dir ?? path.resolve(OUT, '..');
  // Fresh VS Code sessions in pairs: a new profile's first window (no code cache yet: the first start after an install
  // or an update), then the next window of the same profile (every start after that). One start-up varies a lot with
  // what else the machine does, hence five of each.
  const pairs = context.quick ? 1 : 5;
  const first: ActivationReport[] = [];
  const next: ActivationReport[] = [];
  const profiles = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-bench-profiles-'));
  try {
    for (let i = 0; i < pairs; i++) {
      const profileDir = path.join(profiles, String(i));
      for (const [reports, window] of [
        [first, 'first'],
        [next, 'next'],
      ] as const) {
        const report = activationReportSchema.parse((await runHostSession(extensionPath, ACTIVATION_ENTRY, { profileDir })).result);
        reports.push(report);
        context.log(
          `  VS Code session ${i + 1}/${pairs}, the profile's ${window} window: activation ${report.totalMs ?? '?'} ms, code cache ${report.codeCache ?? '?'}`,
        );
      }
    }
  } finally {
    fs.rmSync(profiles, { recursive: true, force: true });
  }
  context.details['activation'] = { first, next };
  const unused = next.filter((report) => report.codeCache !== 'used');
  if (unused.length > 0)
    throw new Error(`the next window of a profile did not use the code cache its first window wrote (${unused.map((r) => r.codeCache).join(', ')})`);
  const own = (reports: ActivationReport[]) => reports.map((report) => (report.loadCodeMs ?? Number.NaN) + (report.activateMs ?? Number.NaN));
  const totals = next.map((report) => report.totalMs).filter((ms): ms is number => ms !== undefined);
  if (totals.length === 0) throw new Error('VS Code recorded no activation marks');
  const load = median(next.map((report) => report.loadCodeMs ?? Number.NaN));
  const activate = median(next.map((report) => report.activateMs ?? Number.NaN));
  // Between the two, VS Code waits for the extension context (globalState and workspaceState come from the window over
  // IPC; it asks for them while the bundle loads): none of the extension's code runs then.
  const waiting = median(next.map((report) => (report.totalMs ?? Number.NaN) - (report.loadCodeMs ?? Number.NaN) - (report.activateMs ?? Number.NaN)));
  const ownNext = own(next);
  const ownFirst = own(first);
  const ours = median(ownNext);
  const sample = next[0];
  return {
    part: PART,
    figure: ACTIVATION_FIGURE,
    unit: 'ms',
    ours,
    goal: ACTIVATION_GOAL,
    met: ours <= 20,
    note:
      `a profile's next window (the code cache of its first one used) ${spread(ownNext, 0)}: loading dist/start.js ${load.toFixed(0)} ms, activate() (compiling ` +
      `dist/extension.js from the cache, running it, building what every window needs) ${activate.toFixed(0)} ms (medians); ` +
      `in src/start.ts's own stopwatch ${phaseLine(next)}; ` +
      `a profile's first window (no cache yet: after an install or an update) ${median(ownFirst).toFixed(0)} ms, ${spread(ownFirst, 0)}, ${phaseLine(first)}; ` +
      `VS Code's marks willLoadExtensionCode→didActivateExtension ${median(totals).toFixed(0)} ms, ${spread(totals, 0)}, of which VS Code preparing the extension context ${waiting.toFixed(0)} ms; ` +
      `${staged ? 'the packaged build' : 'the development build'}, VS Code ${sample.vscode} (Node ${sample.node})${[...first, ...next].some((r) => r.wasActive) ? '; already active before the probe in some sessions' : ''}`,
    samples: { ours: ownNext },
  };
}

/** The medians of src/start.ts's phases over `reports`. */
function phaseLine(reports: ActivationReport[]): string {
  const phase = (name: keyof NonNullable<ActivationReport['phases']>) => median(reports.map((report) => report.phases?.[name] ?? Number.NaN)).toFixed(1);
  return (
    `finding the cache folder ${phase('locate')} ms, reading the bundle and its cache ${phase('read')} ms, compiling ${phase('compile')} ms, ` +
    `its top level ${phase('run')} ms, its activate() ${phase('activate')} ms; CPU time of all that ${phase('cpu')} ms`
  );
}

/** A chunk of the extension host as esbuild.js names it (`chunkNames: '[name]-[hash]'`). */
const HASHED_CHUNK = /^(dist\/[\w-]+)-[A-Z0-9]{8}\.js$/;

/** Each file with its size, the extension host's chunks as one line. */
function described(files: { file: string; bytes: number }[]): string {
  const chunks = files.filter((file) => HASHED_CHUNK.test(file.file));
  const others = files.filter((file) => !HASHED_CHUNK.test(file.file)).map((file) => `${file.file} ${(file.bytes / KB).toFixed(0)}`);
  const chunkBytes = chunks.reduce((sum, file) => sum + file.bytes, 0);
  return [...others, `dist/*-<hash>.js ${(chunkBytes / KB).toFixed(0)} (${chunks.length} chunks)`].join(', ');
}
