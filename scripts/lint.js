#!/usr/bin/env node
// `npm run lint`: the rules the tools enforce, each one a check that passes or fails: the layer rules and the rest of
// ESLint, Prettier's formatting, and the type checks of the parts no other stage compiles (the webview pages, the
// benchmark).
// With $PROMPTREEL_STATS_FILE set (scripts/test-all.js), the totals go there as JSON, like the test stages'.
// The checks run side by side (one per core). Usage: node scripts/lint.js [--fix]
const { spawn } = require('child_process');
const os = require('os');
const fs = require('fs');
const path = require('path');

const ROOT = path.join(__dirname, '..');
const fix = process.argv.includes('--fix');
const bin = (relative) => path.join(ROOT, 'node_modules', relative);
/** The browser code: the page kit and each webview's page (CONTRIBUTING.md, "Layers"). */
const PAGE_PROJECTS = [
  'src/webviewPage',
  'src/chatPanel/webview/page',
  'src/video/gallery/page',
  'src/video/player/page',
  'src/video/film/page',
  'src/account/usage/page',
];

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

/** One tool run; resolves with its exit status. */
function run(args) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? signal));
  });
}

/** Runs the tools side by side, as many at once as there are cores: the checks are independent. */
async function main() {
  const jobs = checks.flatMap((check) => (check.runs ?? [check.args]).map((args) => ({ check, args })));
  const started = Date.now();
  const statuses = new Map(checks.map((check) => [check, []]));
  const ended = new Map();
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      statuses.get(job.check).push(await run(job.args));
      ended.set(job.check, Date.now());
    }
  };
  // --fix rewrites files (ESLint, then Prettier): one tool at a time, so they never write the same file at once.
  await Promise.all(Array.from({ length: fix ? 1 : Math.max(2, os.cpus().length) }, worker));

  let passes = 0;
  let failures = 0;
  for (const check of checks) {
    const failed = statuses.get(check).find((status) => status !== 0);
    const seconds = ((ended.get(check) - started) / 1000).toFixed(1);
    if (failed === undefined) {
      passes++;
      console.log(`  ✔ ${check.name} (done at ${seconds}s)`);
    } else {
      failures++;
      console.log(`  ✘ ${check.name} (done at ${seconds}s): exit ${failed}${fix ? '' : ' — `npm run lint -- --fix` fixes what can be fixed'}`);
    }
  }
  console.log(`\n  ${passes} passing, ${failures} failing`);
  if (process.env.PROMPTREEL_STATS_FILE) fs.writeFileSync(process.env.PROMPTREEL_STATS_FILE, `${JSON.stringify({ passes, failures, pending: 0 })}\n`);
  process.exit(failures ? 1 : 0);
}

main();
