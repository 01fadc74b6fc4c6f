// Bundles the extension host code (Node, cjs) and the webview script (browser, iife).
// Usage: node esbuild.js [--production] [--watch]
const esbuild = require('esbuild');
const fs = require('fs');
const path = require('path');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

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

const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'silent',
  plugins: [problemMatcher],
};

const entries = [
  {
    ...common,
    entryPoints: ['src/extension.ts'],
    outfile: 'dist/extension.js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['vscode'],
    // Non-ASCII text as UTF-8 rather than \u escapes: −70 KB (zod's locales); Node reads the bundle as UTF-8.
    charset: 'utf8',
  },
];
if (fs.existsSync(path.join(__dirname, 'src/webview/chat/main.ts'))) {
  entries.push({
    ...common,
    entryPoints: ['src/webview/chat/main.ts'],
    outfile: 'dist/webview/chat.js',
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  });
}

async function main() {
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
