#!/usr/bin/env node
// `npm run test:stress`: `npm test` with a CPU-bound process beside it for the whole run (one core kept busy, as
// another program on a laptop would), stopped afterwards. The tests must pass like this: their limits and waits may not
// depend on an idle machine. Arguments go to scripts/test-all.js (`npm run test:stress -- --grep 'issue 11'`).
// PROMPTREEL_STRESS_PROCESSES=N keeps N cores busy instead of one.
const { spawn } = require('child_process');
const fs = require('fs');
const path = require('path');
const { SUMMARY } = require('./vscode/paths');

const BUSY_LOOP = 'for (;;) { Math.sqrt(Math.random()); }';
const count = Math.max(1, Number(process.env.PROMPTREEL_STRESS_PROCESSES) || 1);

function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const started = Date.now();
const busy = Array.from({ length: count }, () => spawn(process.execPath, ['-e', BUSY_LOOP], { stdio: 'ignore' }));
console.log(`[stress] ${count} CPU-bound process(es) beside the tests: pid ${busy.map((child) => child.pid).join(', ')}`);

function stopBusy() {
  for (const child of busy) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const seconds = cpuSeconds(child.pid);
    child.kill('SIGKILL');
    if (seconds !== undefined) {
      const share = seconds / ((Date.now() - started) / 1000);
      console.log(`[stress] pid ${child.pid} used ${seconds.toFixed(0)}s of CPU (${(share * 100).toFixed(0)}% of a core over the run)`);
    }
  }
}

const tests = spawn(process.execPath, [path.join(__dirname, 'test-all.js'), ...process.argv.slice(2)], { stdio: 'inherit' });
// test-all handles the signal itself (it stops its stages and reports); the busy processes go when it has.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => tests.kill(signal));
process.on('exit', () => {
  for (const child of busy) child.kill('SIGKILL');
});
tests.on('exit', (code) => {
  stopBusy();
  // The totals stay the last line, as after `npm test`.
  if (fs.existsSync(SUMMARY)) process.stdout.write(fs.readFileSync(SUMMARY, 'utf8'));
  process.exit(code ?? 1);
});
