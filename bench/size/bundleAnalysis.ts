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
  /** What it saves (negative: costs) against the shipped build of dist/extension.js. */
  savedBytes: number;
  note: string;
}

export interface BundleSize {
  /** The file under dist/, e.g. `extension.js`, `undici.js`, `webview/chat.js`. */
  file: string;
  bytes: number;
  /** Bytes in the output per source: our src/ files together, and each npm package. */
  bySource: { source: string; bytes: number }[];
}

export interface BundleAnalysis {
  /** dist/extension.js, the file VS Code loads at activation. */
  shippedBytes: number;
  /** Its bytes per source. */
  bySource: { source: string; bytes: number }[];
  /** Every bundle esbuild.js builds, in its order (extension.js first). */
  bundles: BundleSize[];
  options: BundleOption[];
}

/** Builds every bundle of esbuild.js with esbuild's metafile: who takes the space, and what other options would save. */
export async function analyseBundle(): Promise<BundleAnalysis> {
  const dir = path.join(BENCH_ARTIFACTS, 'bundle');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const builds = productionBuilds();
  const build = async (options: esbuild.BuildOptions, file: string) => {
    const outfile = path.join(dir, file);
    const result = await esbuild.build({ ...options, outfile, metafile: true });
    return { bytes: fs.statSync(outfile).size, metafile: result.metafile };
  };
  const bundles: BundleSize[] = [];
  for (const options of builds) {
    const file = path.relative('dist', String(options.outfile));
    const { bytes, metafile } = await build(options, file);
    fs.writeFileSync(path.join(dir, `${file}.meta.json`), JSON.stringify(metafile));
    bundles.push({ file, bytes, bySource: bySource(metafile) });
  }
  const extension = builds[0];
  const shipped = bundles[0];
  const candidates: { name: string; extra: esbuild.BuildOptions; note: string }[] = [
    {
      name: 'legal-comments-none',
      extra: { legalComments: 'none' },
      note: "drops the /*! licence */ comments esbuild gathers at the end; the bundled packages' MIT notices would then need a separate file in the VSIX",
    },
    { name: 'main-fields-module', extra: { mainFields: ['module', 'main'] }, note: 'prefers the ESM build of packages, which tree-shakes better' },
    { name: 'charset-ascii', extra: { charset: 'ascii' }, note: "esbuild's default, before charset utf8 was applied in esbuild.js" },
    { name: 'not-minified', extra: { minify: false }, note: 'for scale: the development build without source maps' },
  ];
  const options: BundleOption[] = [];
  for (const candidate of candidates) {
    const { bytes } = await build({ ...extension, ...candidate.extra }, `option-${candidate.name}.js`);
    options.push({ name: candidate.name, bytes, savedBytes: shipped.bytes - bytes, note: candidate.note });
  }
  return { shippedBytes: shipped.bytes, bySource: shipped.bySource, bundles, options };
}

function bySource(metafile: esbuild.Metafile): { source: string; bytes: number }[] {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
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
