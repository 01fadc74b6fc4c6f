#!/usr/bin/env node
// `npm run lint`: the rules the tools enforce, each one a check that passes or fails: the layer rules and the rest of
// ESLint, Prettier's formatting, and the type checks of the parts no other stage compiles (the webview pages, the
// benchmark).
// With $PROMPTREEL_STATS_FILE set (scripts/test-all.js), the totals go there as JSON, like the test stages'.
// Usage: node scripts/lint.js [--fix]
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const fix = process.argv.includes('--fix');
const bin = (relative) => path.join(ROOT, 'node_modules', relative);
/** The browser code: the page kit and each webview's page (CONTRIBUTING.md, "Layers"). */
const PAGE_PROJECTS = ['src/webviewPage', 'src/chatPanel/webview/page', 'src/video/gallery/page', 'src/video/player/page', 'src/account/usage/page'];

const checks = [
  { name: 'eslint (layer rules, typescript-eslint)', args: [bin('eslint/bin/eslint.js'), '--max-warnings', '0', ...(fix ? ['--fix'] : []), '.'] },
  { name: 'prettier (formatting)', args: [bin('prettier/bin/prettier.cjs'), fix ? '--write' : '--check', '--log-level', 'warn', '.'] },
  // Each page has its own tsconfig.json (the DOM is there only), extending the page kit's.
  {
    name: 'types of the webview pages',
    runs: PAGE_PROJECTS.map((project) => [bin('typescript/bin/tsc'), '-p', project, '--noEmit']),
  },
  { name: 'types of the benchmark', args: [bin('typescript/bin/tsc'), '-p', 'bench', '--noEmit'] },
];

let passes = 0;
let failures = 0;
for (const check of checks) {
  const started = Date.now();
  const results = (check.runs ?? [check.args]).map((args) => spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' }));
  const result = results.find((run) => run.status !== 0) ?? results[0];
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    passes++;
    console.log(`  ✔ ${check.name} (${seconds}s)`);
  } else {
    failures++;
    console.log(`  ✘ ${check.name} (${seconds}s): exit ${result.status ?? result.signal}${fix ? '' : ' — `npm run lint -- --fix` fixes what can be fixed'}`);
  }
}
console.log(`\n  ${passes} passing, ${failures} failing`);
if (process.env.PROMPTREEL_STATS_FILE) fs.writeFileSync(process.env.PROMPTREEL_STATS_FILE, `${JSON.stringify({ passes, failures, pending: 0 })}\n`);
process.exit(failures ? 1 : 0);
