// Bundles the extension host code (Node, cjs) and the webviews' pages (browser, iife).
// Usage: node esbuild.js [--production] [--watch]
// Required as a module (bench/, test/unit/build), it only exports `buildOptions` and `PAGES` and builds nothing.
const esbuild = require('esbuild');
const fs = require('fs');
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
      /src[\\/]api[\\/]undici[\\/]load\.ts$/.test(args.importer) ? { path: '../undici.js', external: true } : undefined,
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
 * `vscode` as one CommonJS module inside the bundle, required through the extension host's own `require` (which serves
 * `vscode` to the extension whose file asks): an ES module cannot import it by name, and one shared module keeps esbuild
 * from making a copy of the API object (a getter per member, ≈ 300 members) for each importing file.
 */
const vscodeThroughRequire = {
  name: 'vscode-through-require',
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-through-require' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-through-require' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-through-require' }, () => ({ contents: "module.exports = require('vscode');", loader: 'js' }));
  },
};

/** What each ES module chunk of the host starts with: `require` for the CommonJS it loads (vscode, undici.js, Node's modules). */
const HOST_CHUNK_BANNER = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

/** Each webview's page (browser code, one bundle each) → its bundle in dist/webview/ (the host's WebviewPage.script). */
const PAGES = {
  'src/chatPanel/webview/page/main.ts': 'chat.js',
  'src/video/gallery/page/main.ts': 'gallery.js',
  'src/video/player/page/main.ts': 'player.js',
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
    // Non-ASCII text as UTF-8 rather than \u escapes; Node reads the bundles as UTF-8.
    charset: 'utf8',
  };
  const entries = [
    // VS Code loads dist/extension.js (CommonJS), which imports the extension's ES modules from dist/host/: esbuild
    // splits them into chunks, so what a feature alone uses loads on that feature's first use (an `import()`).
    { ...host, entryPoints: ['src/main.ts'], outfile: 'dist/extension.js', external: ['./host/extension.mjs'], plugins },
    {
      ...host,
      entryPoints: ['src/extension.ts'],
      outdir: 'dist/host',
      format: 'esm',
      splitting: true,
      outExtension: { '.js': '.mjs' },
      chunkNames: '[name]-[hash]',
      banner: { js: HOST_CHUNK_BANNER },
      plugins: [lazyUndici, englishOnlyZodLocales, vscodeThroughRequire, ...plugins],
    },
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
  // The chunks' names carry a hash: remove the last build's, so no stale chunk is packaged.
  fs.rmSync(path.join(__dirname, 'dist', 'host'), { recursive: true, force: true });
  const entries = buildOptions({ production, plugins: [problemMatcher] });
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
