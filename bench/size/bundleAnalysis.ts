import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCH_ARTIFACTS, ROOT } from '../support/paths';

/** The production options of esbuild.js for dist/extension.js (kept in step by the "as shipped" size check). */
const SHIPPED: esbuild.BuildOptions = {
  entryPoints: [path.join(ROOT, 'src', 'extension.ts')],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  external: ['vscode'],
  charset: 'utf8',
  logLevel: 'silent',
  absWorkingDir: ROOT,
};

export interface BundleOption {
  name: string;
  bytes: number;
  /** What it saves (negative: costs) against the shipped build. */
  savedBytes: number;
  note: string;
}

export interface BundleAnalysis {
  shippedBytes: number;
  /** Bytes in the output per source: our src/ files together, and each npm package. */
  bySource: { source: string; bytes: number }[];
  options: BundleOption[];
}

/** Builds the extension bundle with esbuild's metafile: who takes the space, and what the safe options would save. */
export async function analyseBundle(): Promise<BundleAnalysis> {
  const dir = path.join(BENCH_ARTIFACTS, 'bundle');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const build = async (name: string, extra: esbuild.BuildOptions) => {
    const outfile = path.join(dir, `${name}.js`);
    const result = await esbuild.build({ ...SHIPPED, ...extra, outfile, metafile: true });
    return { bytes: fs.statSync(outfile).size, metafile: result.metafile };
  };
  const shipped = await build('shipped', {});
  fs.writeFileSync(path.join(dir, 'shipped.meta.json'), JSON.stringify(shipped.metafile));
  const candidates: { name: string; extra: esbuild.BuildOptions; note: string }[] = [
    { name: 'legal-comments-none', extra: { legalComments: 'none' }, note: 'drops the /*! licence */ comments esbuild gathers at the end; the bundled packages\' MIT notices would then need a separate file in the VSIX' },
    { name: 'main-fields-module', extra: { mainFields: ['module', 'main'] }, note: 'prefers the ESM build of packages, which tree-shakes better' },
    { name: 'charset-ascii', extra: { charset: 'ascii' }, note: 'esbuild\'s default, before charset utf8 was applied in esbuild.js' },
    { name: 'zod-english-only', extra: { plugins: [englishOnlyZodLocales] }, note: 'NOT safe as such: z.locales keeps only `en` (no code of ours uses another locale)' },
    { name: 'not-minified', extra: { minify: false }, note: 'for scale: the development build without source maps' },
  ];
  const options: BundleOption[] = [];
  for (const candidate of candidates) {
    const { bytes } = await build(candidate.name, candidate.extra);
    options.push({ name: candidate.name, bytes, savedBytes: shipped.bytes - bytes, note: candidate.note });
  }
  options.push(await slimUndiciEstimate(dir));
  return { shippedBytes: shipped.bytes, bySource: bySource(shipped.metafile), options };
}

/** zod's classic API and core re-export every locale (≈ 260 KB minified): this resolves those imports to English only. */
const englishOnlyZodLocales: esbuild.Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), '..', 'locales', 'en.js'))};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * undici's index requires all of it eagerly (fetch, WebSocket, caches, mocks, EventSource…), so nothing tree-shakes.
 * The saving of an entry with only what src/api uses (Agent, EnvHttpProxyAgent, request) is estimated by bundling
 * those internal modules alone; the entry itself (a `request` wrapper like undici's) is not written here.
 */
async function slimUndiciEstimate(dir: string): Promise<BundleOption> {
  const size = async (name: string, contents: string) => {
    const outfile = path.join(dir, `${name}.js`);
    await esbuild.build({ ...SHIPPED, entryPoints: undefined, stdin: { contents, resolveDir: ROOT, loader: 'js' }, outfile });
    return fs.statSync(outfile).size;
  };
  const full = await size('undici-full', `module.exports = require('undici');`);
  const slim = await size(
    'undici-slim',
    `module.exports = { Agent: require('undici/lib/dispatcher/agent'), EnvHttpProxyAgent: require('undici/lib/dispatcher/env-http-proxy-agent'), api: require('undici/lib/api') };`,
  );
  return { name: 'slim-undici-entry (estimate)', bytes: 0, savedBytes: full - slim, note: `undici alone ${(full / 1024).toFixed(0)} KB, only what we use ${(slim / 1024).toFixed(0)} KB` };
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
  return [...totals.entries()].map(([source, bytes]) => ({ source, bytes })).sort((a, b) => b.bytes - a.bytes);
}
