#!/usr/bin/env node
// `npm run bench [-- --only throughput,ttft] [--quick]`: compiles bench/ (its own tsconfig, into out/bench) and runs
// every benchmark of issue #7, printing one table and writing it as JSON under .artifacts/bench/.
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
