#!/usr/bin/env node
// `npm run bench [-- --only throughput,ttft] [--quick] [--write-docs]`: compiles bench/ (its own tsconfig, into
// out/bench) and runs every benchmark of issue #7, printing one table and writing it as JSON under .artifacts/bench/.
// Parts in the real VS Code install its stack first (scripts/install-vscode.js, as `npm test` does). Exits 1 when a
// figure could not be measured (a goal not met is a figure: it does not fail the run). --write-docs rewrites the
// sections of the parts measured in docs/performance.md (between <!-- bench:begin --> and <!-- bench:end -->).
const { spawnSync } = require('child_process');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });

// tsc writes the JavaScript even when some file has type errors: a part whose subject is being changed right now then
// fails alone (its row says why) instead of the whole run.
const compiled = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'bench')], { cwd: ROOT, stdio: 'inherit' });
if (compiled.status !== 0) console.error('[bench] bench/ compiled with type errors (above): running what was emitted');
const run = spawnSync(process.execPath, [path.join(ROOT, 'out', 'bench', 'main.js'), ...process.argv.slice(2)], { cwd: ROOT, stdio: 'inherit' });
process.exit(run.status ?? 1);
