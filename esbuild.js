// Bundles the extension host code (Node, cjs) and the webviews' pages (browser, iife).
// Usage: node esbuild.js [--production] [--watch]
// Required as a module (bench/, test/unit/build), it only exports `buildOptions` and `PAGES` and builds nothing.
const esbuild = require('esbuild');
const fs = require('fs');
const os = require('os');
const path = require('path');

/** Prints errors in the format of the `$esbuild-watch` problem matcher. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => console.log('[watch] build started'));
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      console.log('[watch] build finished');
    });
  },
};

/**
 * undici stays out of dist/extension.js, so activation never reads it: src/api/undici/load.ts requires './slim' on
 * the first request, and that require is left as a require of dist/undici.js, which is built from src/api/undici/slim.ts
 * alone. Any other import of undici or of the slim entry into the extension bundle is a build error.
 */
const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^\.\/slim$/ }, (args) =>
      /src[\\/]api[\\/]undici[\\/]load\.ts$/.test(args.importer) ? { path: './undici.js', external: true } : undefined,
    );
    build.onResolve({ filter: /^undici(\/|$)|[\\/]undici[\\/]slim$/ }, (args) => ({
      errors: [{ text: `${args.path} would bundle undici into dist/extension.js: create dispatchers and send requests through src/api/undici/load.ts` }],
    }));
  },
};

/**
 * zod's classic API and its core re-export every locale (≈ 190 KB minified) as `z.locales`. We load only English
 * (src/common/zodLocale.ts); this resolves the re-export to English alone, so an import that reaches it cannot drag
 * the other locales in.
 */
const englishOnlyZodLocales = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: args.importer, namespace: 'zod-english-only' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(path.join(path.dirname(args.path), '..', 'locales', 'en.js'))};`,
      loader: 'js',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * The API object itself wherever our code says `vscode`: esbuild turns `import * as vscode from 'vscode'` of an external
 * CommonJS module into a copy of the object (a getter per member, about 400), one per importing file. Each file's
 * namespace import becomes a named import of one module that holds `require('vscode')` as it is, so nothing is
 * copied when the bundle loads (two copies of the API object took 2-5 ms of activation's top level before). Only the
 * bundle changes: the sources keep the import TypeScript checks.
 */
const VSCODE_NAMESPACE_IMPORT = "import * as vscode from 'vscode';";
const vscodeApiObject = {
  name: 'vscode-api-object',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await fs.promises.readFile(args.path, 'utf8');
      if (!text.includes(VSCODE_NAMESPACE_IMPORT)) return undefined;
      return { contents: text.replace(VSCODE_NAMESPACE_IMPORT, "import { vscode } from 'vscode';"), loader: 'ts' };
    });
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-api' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => ({
      contents: "import vscodeApi = require('vscode');\nexport { vscodeApi as vscode };\n",
      loader: 'ts',
    }));
  },
};

/**
 * The extension host's code in chunks that load on first use: esbuild splits code only into ES modules, and VS Code
 * (like Node) loads CommonJS faster and serves `vscode` to `require` alone. So the split is written to a staging folder,
 * then turned into CommonJS in the real outdir (`import()` of a chunk becoming a `require`), source maps following:
 * - what activation loads (dist/extension.js and the chunks it imports statically) becomes dist/extension.js alone:
 *   loading one file instead of dozens halves the time Node takes, and saves each chunk's wrapper. A shared chunk it
 *   took in that a feature's chunk also needs stays as a one-line file handing out the same module, so no module is
 *   ever loaded twice;
 * - each feature's chunks stay files of their own.
 * The metafile stays the split's (its inputs our sources), its outputs named as the files written, with what
 * extension.js took in counted as its own.
 */
const commonJsChunks = {
  name: 'commonjs-chunks',
  setup(build) {
    const options = build.initialOptions;
    const cwd = options.absWorkingDir ?? process.cwd();
    const outdir = path.resolve(cwd, options.outdir);
    const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-esm-'));
    options.outdir = staging;
    const wantedMetafile = options.metafile === true;
    options.metafile = true;
    build.onEnd(async (result) => {
      if (result.errors.length > 0) return;
      const outputs = new Map(
        Object.entries(result.metafile.outputs)
          .filter(([file]) => file.endsWith('.js'))
          .map(([file, output]) => [path.basename(file), output]),
      );
      const atActivation = new Set();
      const visit = (file) => {
        if (atActivation.has(file)) return;
        atActivation.add(file);
        for (const imported of outputs.get(file)?.imports ?? []) {
          if (imported.kind === 'import-statement' && !imported.external) visit(path.basename(imported.path));
        }
      };
      visit(ENTRY);
      const onFirstUse = [...outputs.keys()].filter((file) => !atActivation.has(file));
      // The chunks of activation that a feature's chunk imports: each keeps a file handing out extension.js's copy.
      const shared = [
        ...new Set(
          onFirstUse.flatMap((file) =>
            outputs
              .get(file)
              .imports.filter((imported) => !imported.external && atActivation.has(path.basename(imported.path)))
              .map((imported) => path.basename(imported.path)),
          ),
        ),
      ].sort();
      fs.mkdirSync(outdir, { recursive: true });
      for (const stale of fs.readdirSync(outdir).filter((file) => HASHED_CHUNK.test(file))) fs.rmSync(path.join(outdir, stale));
      const cjs = {
        format: 'cjs',
        platform: 'node',
        target: options.target,
        charset: options.charset,
        minify: options.minify,
        sourcemap: options.sourcemap,
        sourcesContent: false,
        logLevel: 'silent',
        supported: { 'dynamic-import': false },
      };
      const entry = [
        `export * from './${ENTRY}';`,
        ...shared.map((file, index) => `import * as shared${index} from './${file}';`),
        `export const ${SHARED_EXPORT} = { ${shared.map((file, index) => `${JSON.stringify(file)}: shared${index}`).join(', ')} };`,
      ].join('\n');
      const onlyActivation = {
        name: 'only-activation',
        setup(merge) {
          merge.onResolve({ filter: /^\.\/[^/]+$/ }, (args) =>
            atActivation.has(path.basename(args.path)) ? undefined : { path: `./${path.basename(args.path)}`, external: true },
          );
        },
      };
      await Promise.all([
        esbuild.build({
          ...cjs,
          stdin: { contents: entry, resolveDir: staging, sourcefile: 'activation.js', loader: 'js' },
          bundle: true,
          outfile: path.join(outdir, ENTRY),
          external: ['vscode'],
          plugins: [onlyActivation],
        }),
        onFirstUse.length > 0 ? esbuild.build({ ...cjs, entryPoints: onFirstUse.map((file) => path.join(staging, file)), outdir, bundle: false }) : undefined,
      ]);
      for (const file of shared) {
        fs.writeFileSync(path.join(outdir, file), `"use strict";module.exports=require("./${ENTRY}").${SHARED_EXPORT}[${JSON.stringify(file)}];\n`);
      }
      if (wantedMetafile) {
        const named = (file) => path.relative(cwd, path.join(outdir, file)).replace(/\\/g, '/');
        const merged = { bytes: 0, inputs: {}, imports: [], exports: outputs.get(ENTRY).exports, entryPoint: outputs.get(ENTRY).entryPoint };
        for (const file of atActivation) {
          const output = outputs.get(file);
          merged.bytes += output.bytes;
          Object.assign(merged.inputs, output.inputs);
          for (const imported of output.imports) {
            if (imported.external || !atActivation.has(path.basename(imported.path))) {
              merged.imports.push(imported.external ? imported : { ...imported, path: named(path.basename(imported.path)) });
            }
          }
        }
        const rewritten = { [named(ENTRY)]: merged };
        for (const file of onFirstUse) {
          const output = outputs.get(file);
          rewritten[named(file)] = {
            ...output,
            imports: output.imports.map((imported) => (imported.external ? imported : { ...imported, path: named(path.basename(imported.path)) })),
          };
        }
        result.metafile.outputs = rewritten;
      } else {
        delete result.metafile;
      }
      fs.rmSync(staging, { recursive: true, force: true });
      fs.mkdirSync(staging);
    });
    build.onDispose(() => fs.rmSync(staging, { recursive: true, force: true }));
  },
};

/** The host's entry, as esbuild names it in the split. */
const ENTRY = 'extension.js';
/** What dist/extension.js exports besides activate/deactivate: the shared chunks it took in, by file name. */
const SHARED_EXPORT = '__promptreelChunks';

/** A chunk's file name as `chunkNames` makes it (the hash changes with its content). */
const HASHED_CHUNK = /^[\w-]+-[A-Z0-9]{8}\.js(\.map)?$/;

/** Each webview's page (browser code, one bundle each) → its bundle in dist/webview/ (the host's WebviewPage.script). */
const PAGES = {
  'src/chatPanel/webview/page/main.ts': 'chat.js',
  // highlight.js, which the chat page loads once its first screen shows (src/chatPanel/webview/page/highlight.ts).
  'src/chatPanel/webview/page/highlighterMain.ts': 'chat-highlight.js',
  'src/video/gallery/page/main.ts': 'gallery.js',
  'src/video/player/page/main.ts': 'player.js',
  'src/video/film/page/main.ts': 'film.js',
  'src/account/usage/page/main.ts': 'usage.js',
};

/** The esbuild options of every bundle, for a production (minified) or development (source maps) build. */
function buildOptions({ production, plugins = [] }) {
  const common = {
    bundle: true,
    minify: production,
    sourcemap: !production,
    sourcesContent: false,
    logLevel: 'silent',
    absWorkingDir: __dirname,
  };
  const host = {
    ...common,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    // Non-ASCII text as \u escapes (esbuild's default): an ASCII file is decoded on Node's fast path and V8 keeps it as a
    // one-byte string. For dist/extension.js, reading it took 0.8 ms instead of 1.4-4.3 ms, compiling it 0.6 ms less
    // (plain Node, ten runs each); its 8 non-ASCII characters cost 40 bytes as escapes.
    charset: 'ascii',
  };
  const entries = [
    // dist/extension.js and the chunks it requires, each feature's own code apart (loaded on its first use).
    {
      ...host,
      entryPoints: ['src/extension.ts'],
      outdir: 'dist',
      format: 'esm',
      splitting: true,
      chunkNames: '[name]-[hash]',
      plugins: [lazyUndici, englishOnlyZodLocales, vscodeApiObject, commonJsChunks, ...plugins],
    },
    // What VS Code loads: it compiles dist/extension.js with its code cache (src/start.ts), so Node's modules alone.
    { ...host, entryPoints: ['src/start.ts'], outfile: 'dist/start.js', external: ['vscode', './extension'], plugins },
    { ...host, entryPoints: ['src/api/undici/slim.ts'], outfile: 'dist/undici.js', plugins },
  ];
  for (const [entry, bundle] of Object.entries(PAGES)) {
    if (!fs.existsSync(path.join(__dirname, entry))) continue;
    entries.push({ ...common, entryPoints: [entry], outfile: `dist/webview/${bundle}`, format: 'iife', platform: 'browser', target: 'es2022', plugins });
  }
  return entries;
}

async function main() {
  const production = process.argv.includes('--production');
  const watch = process.argv.includes('--watch');
  const entries = buildOptions({ production, plugins: [problemMatcher] });
  // A production build is what `npm run package` ships (dist/*.js): only what this build writes, nothing left in dist/
  // by an earlier build or by hand.
  if (production && !watch) fs.rmSync(path.join(__dirname, 'dist'), { recursive: true, force: true });
  const contexts = await Promise.all(entries.map((options) => esbuild.context(options)));
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    return;
  }
  const results = await Promise.allSettled(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  const failed = results.filter((r) => r.status === 'rejected');
  if (failed.length) process.exit(1);
}

module.exports = { buildOptions, PAGES };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
