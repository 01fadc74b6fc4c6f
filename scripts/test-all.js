#!/usr/bin/env node
// `npm test`: lint (ESLint with the layer rules, Prettier, type checks), build, package and compile, then unit tests (plain Node), the VS Code stack install (when missing),
// extension-host tests and UI tests (real VS Code in Chromium). Each stage runs in its own process group with its
// log in .artifacts/logs/<stage>.log; its wall time and peak memory are measured. Ends with ONE line
// `N passed, N failed[, N skipped]` (also written to .artifacts/test-summary.txt); exit code 1 if anything failed.
// Usage: node scripts/test-all.js [lint] [unit] [host] [ui]     (no argument: everything)
const fs = require('fs');
const path = require('path');
const { ROOT, ARTIFACTS, LOGS, SCREENSHOTS, SUMMARY } = require('./vscode/paths');
const { spawnGroup, killTagged, onShutdown } = require('./vscode/processes');
const { startMemorySampler } = require('./vscode/memory');

const TEST_STAGES = ['lint', 'unit', 'host', 'ui'];
const MINUTE = 60_000;
const node = process.execPath;
const bin = (relative) => path.join(ROOT, 'node_modules', relative);
const reporter = path.join(__dirname, 'vscode', 'stats-reporter.js');
const statsFile = (stage) => path.join(LOGS, `${stage}.stats.json`);
const timingsFile = (stage) => path.join(LOGS, `${stage}.timings.json`);

/** name, command, what it needs, timeout, and whether it produces test counts. */
function plan(selected) {
  const wants = (stage) => selected.includes(stage);
  const needsVsCode = wants('host') || wants('ui');
  const stages = [];
  // Each check counts as one test: a violation fails `npm test` (and CI) like a failed test.
  if (wants('lint')) stages.push({ name: 'lint', command: [node, path.join(__dirname, 'lint.js')], timeoutMs: 5 * MINUTE, counts: true });
  if (wants('ui')) stages.push({ name: 'package', command: ['npm', 'run', 'package'], timeoutMs: 5 * MINUTE });
  // After `package` (a minified build): the host tests load dist/ straight from the repo and get source maps.
  if (wants('host')) stages.push({ name: 'build', command: [node, path.join(ROOT, 'esbuild.js')], timeoutMs: 3 * MINUTE });
  stages.push({ name: 'compile', command: [node, bin('typescript/bin/tsc'), '-p', 'test'], timeoutMs: 5 * MINUTE, blocking: false });
  if (wants('unit')) {
    stages.push({
      name: 'unit',
      command: [node, bin('mocha/bin/mocha.js'), '--config', 'test/.mocharc.unit.json', '--reporter', reporter],
      timeoutMs: 10 * MINUTE,
      counts: true,
      testDir: 'out/test/unit',
      after: ['compile'],
    });
  }
  if (needsVsCode) stages.push({ name: 'install', command: [node, path.join(__dirname, 'install-vscode.js')], timeoutMs: 20 * MINUTE });
  if (wants('host')) {
    stages.push({
      name: 'host',
      command: [node, path.join(__dirname, 'run-host-tests.js'), '--stats-file', statsFile('host'), '--timings-file', timingsFile('host')],
      timeoutMs: 25 * MINUTE,
      counts: true,
      after: ['build', 'compile', 'install'],
    });
  }
  if (wants('ui')) {
    stages.push({
      name: 'ui',
      command: [node, bin('mocha/bin/mocha.js'), '--config', 'test/.mocharc.ui.json', '--reporter', reporter],
      timeoutMs: 30 * MINUTE,
      counts: true,
      testDir: 'out/test/ui',
      after: ['package', 'compile', 'install'],
    });
  }
  return stages;
}

function hasTestFiles(dir) {
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return false;
  return fs.readdirSync(full, { recursive: true }).some((file) => String(file).endsWith('.test.js'));
}

function readStats(file) {
  try {
    const stats = JSON.parse(fs.readFileSync(file, 'utf8'));
    return { passes: Number(stats.passes) || 0, failures: Number(stats.failures) || 0, pending: Number(stats.pending) || 0 };
  } catch {
    return undefined;
  }
}

const results = [];
let current;
let interrupted = false;

/** Runs one stage in its own process group; output goes to the console and to its log. */
async function runStage(stage) {
  const logFile = path.join(LOGS, `${stage.name}.log`);
  const tag = { name: 'PROMPTREEL_RUN_TAG', value: `${process.pid}-${stage.name}-${Date.now()}` };
  const result = { name: stage.name, ok: false, blocking: stage.blocking !== false, seconds: 0, counts: undefined, memory: undefined, note: '' };
  const blocked = (stage.after || []).filter((name) => results.some((r) => r.name === name && !r.ok && r.blocking));
  if (blocked.length) {
    result.note = `not run: ${blocked.join(', ')} failed`;
    result.counts = { passes: 0, failures: 1, pending: 0 };
    return result;
  }
  if (stage.testDir && !hasTestFiles(stage.testDir)) {
    result.ok = true;
    result.counts = { passes: 0, failures: 0, pending: 0 };
    result.note = `no test files in ${stage.testDir}`;
    return result;
  }
  const shown = stage.command.map((part) => (part === node ? 'node' : path.isAbsolute(part) ? path.relative(ROOT, part) : part));
  console.log(`\n[test] ▶ ${stage.name}: ${shown.join(' ')}`);
  fs.rmSync(statsFile(stage.name), { force: true });
  const log = fs.createWriteStream(logFile);
  const started = Date.now();
  const sampler = startMemorySampler({ rootPid: process.pid, tag });
  const proc = spawnGroup(stage.command[0], stage.command.slice(1), {
    cwd: ROOT,
    env: { ...process.env, [tag.name]: tag.value, PROMPTREEL_STATS_FILE: statsFile(stage.name), PROMPTREEL_TIMINGS_FILE: timingsFile(stage.name) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  current = { proc, stage };
  for (const stream of [proc.child.stdout, proc.child.stderr]) {
    stream.on('data', (chunk) => {
      log.write(chunk);
      (stream === proc.child.stderr ? process.stderr : process.stdout).write(chunk);
    });
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    console.error(`[test] ${stage.name} timed out after ${stage.timeoutMs / 1000}s: stopping it`);
    void proc.stop(5000);
  }, stage.timeoutMs);
  const { code, signal } = await proc.exited;
  clearTimeout(timer);
  await proc.stop(3000); // members of the group that outlived its leader
  const leftovers = killTagged(tag.name, tag.value);
  current = undefined;
  await new Promise((resolve) => log.end(resolve));
  result.memory = sampler.stop();
  result.seconds = (Date.now() - started) / 1000;
  result.ok = code === 0 && !timedOut;
  if (leftovers) result.note = `${leftovers} leftover process(es) killed`;
  if (interrupted) result.note = 'interrupted';
  else if (timedOut) result.note = `timed out after ${stage.timeoutMs / 1000}s`;
  else if (code !== 0) result.note = `exit ${code ?? signal}`;
  if (stage.counts) {
    const counts = readStats(statsFile(stage.name)) || { passes: 0, failures: 0, pending: 0 };
    // A stage that crashed, timed out or failed without failed tests still counts as one failure.
    if (!result.ok && counts.failures === 0) counts.failures = 1;
    result.counts = counts;
  } else if (!result.ok) {
    result.counts = { passes: 0, failures: 1, pending: 0 };
  }
  return result;
}

function describe(result) {
  const counts = result.counts ? `${result.counts.passes} passed, ${result.counts.failures} failed, ${result.counts.pending} skipped` : '';
  const { memory: m } = result;
  let memory = '';
  if (m && (m.codeServerMiB || m.chromiumMiB)) {
    memory = `peak RSS: code-server tree ${m.codeServerMiB} MiB, chromium ${m.chromiumMiB} MiB, all ${m.totalMiB} MiB`;
  } else if (m && m.totalMiB) {
    memory = `peak RSS ${m.totalMiB} MiB`;
  }
  return [result.ok ? 'ok' : 'FAILED', `${result.seconds.toFixed(1)}s`, counts, memory, result.note].filter(Boolean).join(' | ');
}

function summaryLine() {
  const total = { passes: 0, failures: 0, pending: 0 };
  for (const result of results) {
    if (!result.counts) continue;
    total.passes += result.counts.passes;
    total.failures += result.counts.failures;
    total.pending += result.counts.pending;
  }
  const line = `${total.passes} passed, ${total.failures} failed${total.pending ? `, ${total.pending} skipped` : ''}`;
  return { line, total };
}

let reported = false;
function report(startedAt, interrupted) {
  if (reported) return 1;
  reported = true;
  const { line, total } = summaryLine();
  console.log('\n[test] ── summary ──');
  for (const result of results) console.log(`[test] ${result.name.padEnd(8)} ${describe(result)}`);
  const seconds = (Date.now() - startedAt) / 1000;
  console.log(`[test] total wall time ${seconds.toFixed(1)}s${interrupted ? ' (interrupted)' : ''}; logs in ${path.relative(ROOT, LOGS)}/`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(SUMMARY, `${line}\n`);
  fs.writeFileSync(path.join(ARTIFACTS, 'test-report.json'), `${JSON.stringify({ seconds, interrupted, total, stages: results }, null, 2)}\n`);
  console.log(line);
  return total.failures > 0 || interrupted ? 1 : 0;
}

async function main() {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => !TEST_STAGES.includes(arg));
  if (unknown.length) {
    console.error(`usage: node scripts/test-all.js [${TEST_STAGES.join('] [')}]   (unknown: ${unknown.join(' ')})`);
    return 2;
  }
  const selected = args.length ? args : TEST_STAGES;
  const startedAt = Date.now();
  fs.rmSync(LOGS, { recursive: true, force: true });
  if (selected.includes('ui')) fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
  fs.mkdirSync(LOGS, { recursive: true });
  fs.rmSync(SUMMARY, { force: true });

  let finished;
  const mainFinished = new Promise((resolve) => (finished = resolve));
  onShutdown(async () => {
    interrupted = true;
    // The stage's group gets SIGTERM (its own handlers stop what it started); the loop below then reports.
    if (current) await current.proc.stop(8000);
    await Promise.race([mainFinished, new Promise((resolve) => setTimeout(resolve, 5000))]);
    report(startedAt, true);
  });

  for (const stage of plan(selected)) {
    if (interrupted) break;
    const result = await runStage(stage);
    results.push(result);
    console.log(`[test] ${result.ok ? '✔' : '✘'} ${stage.name}: ${describe(result)}`);
  }
  const code = report(startedAt, interrupted);
  finished();
  return code;
}

main().then(
  (code) => process.exit(interrupted ? 130 : code),
  (error) => {
    console.error('[test] crashed:', error);
    results.push({ name: 'harness', ok: false, seconds: 0, counts: { passes: 0, failures: 1, pending: 0 }, note: String(error) });
    report(Date.now(), false);
    process.exit(1);
  },
);
