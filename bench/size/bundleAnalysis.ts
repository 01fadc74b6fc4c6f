import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { buildScript } from '../support/buildScript';
import { BENCH_ARTIFACTS } from '../support/paths';

/** esbuild.js exports the options of every bundle it builds (and builds nothing when required). */
function productionBuilds(): esbuild.BuildOptions[] {
  return buildScript().buildOptions({ production: true });
}

export interface BundleOption {
  name: string;
  bytes: number;
  /** What it saves (negative: costs) against the shipped build of what activation loads. */
  savedBytes: number;
  note: string;
}

export interface BundleSize {
  /** The file under dist/, e.g. `extension.js`, `host/extension.mjs`, `undici.js`, `webview/chat.js`. */
  file: string;
  bytes: number;
  /** Bytes in the output per source: our src/ files together, and each npm package. */
  bySource: { source: string; bytes: number }[];
}

export interface ActivationLoad {
  /** The files under dist/ that VS Code loads at activation: dist/start.js, dist/extension.js and the chunks it requires at once. */
  files: string[];
  bytes: number;
}

export interface BundleAnalysis {
  /** What activation loads, and its bytes per source. */
  activation: ActivationLoad & { bySource: { source: string; bytes: number }[] };
  /** The chunks loaded on a feature's first use, largest first, each with its largest source. */
  lazy: { file: string; bytes: number; main: string }[];
  /** Every file esbuild.js builds, in its order (extension.js first). */
  bundles: BundleSize[];
  options: BundleOption[];
}

const ENTRY = 'extension.js';
/** What VS Code loads (package.json `main`): it loads ENTRY (src/start.ts). */
const LOADER = 'start.js';

/**
 * The files of `dist` that activation loads: the loader, dist/extension.js and every chunk it imports statically, from
 * the split's metafile (an `import(…)` of a feature's chunk, a `require` once built, waits for its first use).
 */
export function activationLoad(metafile: esbuild.Metafile, dist: string): ActivationLoad {
  const outputs = new Map(Object.entries(metafile.outputs).map(([file, output]) => [path.basename(file), output]));
  const files: string[] = fs.existsSync(path.join(dist, LOADER)) ? [LOADER] : [];
  const visit = (file: string) => {
    if (files.includes(file)) return;
    files.push(file);
    for (const imported of outputs.get(file)?.imports ?? []) {
      if (imported.kind === 'import-statement' && !imported.external) visit(path.basename(imported.path));
    }
  };
  visit(ENTRY);
  return { files, bytes: files.reduce((sum, file) => sum + fs.statSync(path.join(dist, file)).size, 0) };
}

/** Builds every bundle of esbuild.js with esbuild's metafile: who takes the space, and what other options would save. */
export async function analyseBundle(): Promise<BundleAnalysis> {
  const dir = path.join(BENCH_ARTIFACTS, 'bundle');
  fs.rmSync(dir, { recursive: true, force: true });
  const builds = productionBuilds();
  const build = async (options: esbuild.BuildOptions, dist: string) => {
    const out = options.outdir
      ? { outdir: path.join(dist, path.relative('dist', options.outdir)) }
      : { outfile: path.join(dist, path.relative('dist', String(options.outfile))) };
    return (await esbuild.build({ ...options, ...out, metafile: true })).metafile;
  };
  const shipped = path.join(dir, 'dist');
  const bundles: BundleSize[] = [];
  const inputsByFile = new Map<string, esbuild.Metafile['outputs'][string]>();
  let split: esbuild.Metafile | undefined;
  for (const options of builds) {
    const metafile = await build(options, shipped);
    if (options.splitting) split = metafile;
    fs.writeFileSync(path.join(dir, `${path.basename(options.outdir ? ENTRY : String(options.outfile))}.meta.json`), JSON.stringify(metafile));
    for (const [output, details] of Object.entries(metafile.outputs)) {
      if (output.endsWith('.map')) continue;
      const file = path.relative(shipped, path.resolve(output)).replace(/\\/g, '/');
      inputsByFile.set(file, details);
      bundles.push({ file, bytes: fs.statSync(path.join(shipped, file)).size, bySource: bySource({ [output]: details }) });
    }
  }
  if (!split) throw new Error('esbuild.js builds no split bundle of the extension host');
  const load = activationLoad(split, shipped);
  const activationOutputs = Object.fromEntries(load.files.map((file) => [file, inputsByFile.get(file) ?? { inputs: {}, imports: [], exports: [], bytes: 0 }]));
  const lazy = bundles
    .filter(
      (bundle) =>
        inputsByFile.has(bundle.file) &&
        split &&
        Object.keys(split.outputs).some((output) => path.basename(output) === bundle.file) &&
        !load.files.includes(bundle.file),
    )
    .map((bundle) => ({ file: bundle.file, bytes: bundle.bytes, main: largestInput(inputsByFile.get(bundle.file)) }))
    .sort((a, b) => b.bytes - a.bytes);
  const host = builds.find((options) => options.splitting);
  const candidates: { name: string; extra: esbuild.BuildOptions; note: string }[] = [
    {
      name: 'legal-comments-none',
      extra: { legalComments: 'none' },
      note: "drops the /*! licence */ comments esbuild gathers at the end; the bundled packages' MIT notices would then need a separate file in the VSIX",
    },
    { name: 'main-fields-module', extra: { mainFields: ['module', 'main'] }, note: 'prefers the ESM build of packages, which tree-shakes better' },
    { name: 'charset-utf8', extra: { charset: 'utf8' }, note: 'non-ASCII text as UTF-8: a few bytes less, but Node then decodes the file on its slow path' },
    { name: 'not-minified', extra: { minify: false }, note: 'for scale: the development build without source maps' },
  ];
  const options: BundleOption[] = [];
  const loaderBytes = load.files.includes(LOADER) ? fs.statSync(path.join(shipped, LOADER)).size : 0;
  for (const candidate of candidates) {
    if (!host) break;
    const dist = path.join(dir, `option-${candidate.name}`);
    const metafile = await build({ ...host, ...candidate.extra }, dist);
    // Only the split is built again: the loader is the shipped one.
    const bytes = activationLoad(metafile, dist).bytes + loaderBytes;
    options.push({ name: candidate.name, bytes, savedBytes: load.bytes - bytes, note: candidate.note });
  }
  return { activation: { ...load, bySource: bySource(activationOutputs) }, lazy, bundles, options };
}

function largestInput(output: esbuild.Metafile['outputs'][string] | undefined): string {
  const [largest] = Object.entries(output?.inputs ?? {}).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput);
  return largest ? largest[0].replace(/^src\//, '') : '—';
}

function bySource(outputs: esbuild.Metafile['outputs']): { source: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const source = match ? match[1] : input.startsWith('src/') ? 'src/ (ours)' : input;
      totals.set(source, (totals.get(source) ?? 0) + bytesInOutput);
    }
  }
  return [...totals.entries()]
    .filter(([, bytes]) => bytes > 0)
    .map(([source, bytes]) => ({ source, bytes }))
    .sort((a, b) => b.bytes - a.bytes);
}
