#!/usr/bin/env node
// `npm test`: lint (ESLint with the layer rules, Prettier, type checks), package, build and compile, unit tests (plain
// Node), the VS Code stack install (when missing), extension-host tests and UI tests (real VS Code in Chromium).
//
// Stages run as soon as what they need is done, in two lanes on the two cores a laptop has: the stack install (mostly
// download and unpack) beside package → build → compile → unit → lint; the host and UI tiers start once the stack and
// their builds are there (one after the other; both at once with --parallel), while unit and lint finish beside them.
// Each stage runs in its own process group with its log in .artifacts/logs/<stage>.log; its wall time, CPU time and
// peak memory are measured. One stage at a time writes to the console as it runs; the output of a stage running
// beside it is held and printed, whole, when the first one ends. Ends with ONE line `N passed, N failed[, N skipped]`
// (also written to .artifacts/test-summary.txt; .artifacts/test-report.json has the stages); exit code 1 if anything
// failed.
// Usage: node scripts/test-all.js [lint] [unit] [host] [ui] [--grep TEXT] [--parallel]     (no stage: every stage)
//   --grep TEXT  only the tests whose full title matches, in every tier (lint is skipped)
//   --parallel   the UI tier beside the host tier instead of after it (also PROMPTREEL_TEST_PARALLEL=1). Not the default:
//                on a busy 2-core machine the two workbenches side by side made timing-sensitive tests fail.
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

function usage(problem) {
  console.error(`usage: node scripts/test-all.js [${TEST_STAGES.join('] [')}] [--grep TEXT] [--parallel]${problem ? `   (${problem})` : ''}`);
  return 2;
}

function parseArgs(args) {
  const options = { stages: [], grep: undefined, serial: process.env.PROMPTREEL_TEST_PARALLEL !== '1' };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--grep' || arg === '-g') {
      options.grep = args[++i];
      if (!options.grep) return { problem: `${arg} needs a text` };
    } else if (arg.startsWith('--grep=')) options.grep = arg.slice('--grep='.length);
    else if (arg === '--parallel') options.serial = false;
    else if (arg === '--serial') options.serial = true;
    else if (TEST_STAGES.includes(arg)) options.stages.push(arg);
    else return { problem: `unknown: ${arg}` };
  }
  if (options.stages.length === 0) options.stages = options.grep ? TEST_STAGES.filter((stage) => stage !== 'lint') : TEST_STAGES;
  return { options };
}

/**
 * The stages: command, limit, whether it produces test counts, `needs` (stages that must have passed: a failed one
 * means not run) and `follows` (stages that must have ended first, passed or not: the order of a lane).
 * Limits are at least three times a stage's duration on an idle 2-core machine (docs/performance.md).
 */
function plan({ stages: selected, grep, serial }) {
  const wants = (stage) => selected.includes(stage);
  const grepArgs = grep ? ['--grep', grep] : [];
  const stages = [];
  if (wants('ui')) stages.push({ name: 'package', command: ['npm', 'run', 'package'], timeoutMs: 5 * MINUTE });
  // After `package` (a minified build): the host tests load dist/ straight from the repo and get source maps.
  if (wants('host')) stages.push({ name: 'build', command: [node, path.join(ROOT, 'esbuild.js')], timeoutMs: 3 * MINUTE, follows: ['package'] });
  // tsc emits the tests even with type errors: those fail the stage, not the tiers after it.
  stages.push({
    name: 'compile',
    command: [node, bin('typescript/bin/tsc'), '-p', 'test'],
    timeoutMs: 5 * MINUTE,
    blocking: false,
    follows: ['package', 'build'],
  });
  if (wants('unit')) {
    stages.push({
      name: 'unit',
      command: [node, bin('mocha/bin/mocha.js'), '--config', 'test/.mocharc.unit.json', '--reporter', reporter, ...grepArgs],
      timeoutMs: 10 * MINUTE,
      counts: true,
      testDir: 'out/test/unit',
      needs: ['compile'],
    });
  }
  // Each check counts as one test: a violation fails `npm test` (and CI) like a failed test.
  if (wants('lint')) {
    stages.push({ name: 'lint', command: [node, path.join(__dirname, 'lint.js')], timeoutMs: 10 * MINUTE, counts: true, follows: ['compile', 'unit'] });
  }
  if (wants('host') || wants('ui')) stages.push({ name: 'install', command: [node, path.join(__dirname, 'install-vscode.js')], timeoutMs: 20 * MINUTE });
  if (wants('host')) {
    stages.push({
      name: 'host',
      command: [node, path.join(__dirname, 'run-host-tests.js'), '--stats-file', statsFile('host'), '--timings-file', timingsFile('host')],
      env: grep ? { PROMPTREEL_HOST_GREP: grep } : {},
      timeoutMs: 35 * MINUTE,
      counts: true,
      needs: ['build', 'compile', 'install'],
    });
  }
  if (wants('ui')) {
    stages.push({
      name: 'ui',
      command: [node, bin('mocha/bin/mocha.js'), '--config', 'test/.mocharc.ui.json', '--reporter', reporter, ...grepArgs],
      timeoutMs: 35 * MINUTE,
      counts: true,
      testDir: 'out/test/ui',
      needs: ['package', 'compile', 'install'],
      follows: serial ? ['host'] : [],
    });
  }
  const names = new Set(stages.map((stage) => stage.name));
  for (const stage of stages) {
    stage.needs = (stage.needs || []).filter((name) => names.has(name));
    stage.follows = (stage.follows || []).filter((name) => names.has(name));
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
    return {
      passes: Number(stats.passes) || 0,
      failures: Number(stats.failures) || 0,
      pending: Number(stats.pending) || 0,
      running: typeof stats.running === 'string' ? stats.running : undefined,
      failed: Array.isArray(stats.failed) ? stats.failed : [],
    };
  } catch {
    return undefined;
  }
}

/**
 * The console: one stage (the one running longest) writes as it goes; the output of the others is held, and each
 * held stage is printed whole, with its header, when the writing stage ends.
 */
class Console {
  constructor() {
    this.writer = undefined;
    /** Stages whose output is held, in the order they started. */
    this.held = [];
  }

  header(stage) {
    return `\n[test] ▶ ${stage.name} (at +${stage.startedAt.toFixed(0)}s): ${stage.shown}\n`;
  }

  started(stage) {
    stage.output = [];
    if (!this.writer) {
      this.writer = stage;
      process.stdout.write(this.header(stage));
    } else {
      this.held.push(stage);
      process.stdout.write(`[test] ▷ ${stage.name} started beside ${this.writer.name} (its output is held, printed whole after ${this.writer.name}'s)\n`);
    }
  }

  write(stage, stream, chunk) {
    if (stage === this.writer) (stream === 'stderr' ? process.stderr : process.stdout).write(chunk);
    else stage.output.push([stream, chunk]);
  }

  /** A one-line result, printed at once for a stage that did not run; after its output for one that did. */
  ended(stage, line) {
    stage.resultLine = line;
    if (stage === this.writer) {
      console.log(line);
      this.writer = undefined;
      this.handOver();
    } else if (!this.held.includes(stage)) {
      console.log(line);
    }
  }

  handOver() {
    // First every held stage that has ended, then the earliest one still running, which goes on writing live.
    for (const stage of [...this.held]) {
      if (stage.resultLine === undefined) continue;
      this.held.splice(this.held.indexOf(stage), 1);
      this.flush(stage);
      console.log(stage.resultLine);
    }
    const next = this.held.shift();
    if (next) {
      this.writer = next;
      this.flush(next);
    }
  }

  flush(stage) {
    process.stdout.write(this.header(stage));
    for (const [stream, chunk] of stage.output) (stream === 'stderr' ? process.stderr : process.stdout).write(chunk);
    stage.output = [];
  }

  /** On an interruption: everything held, as it is. */
  drain() {
    if (this.writer) this.writer = undefined;
    for (const stage of this.held.splice(0)) {
      this.flush(stage);
      if (stage.resultLine) console.log(stage.resultLine);
    }
  }
}

const results = [];
const running = new Set();
let interrupted = false;
let startedAt = Date.now();
const terminal = new Console();

/** Runs one stage in its own process group; output goes to the console (live or held) and to its log. */
async function runStage(stage) {
  const logFile = path.join(LOGS, `${stage.name}.log`);
  const tag = { name: 'PROMPTREEL_RUN_TAG', value: `${process.pid}-${stage.name}-${Date.now()}` };
  const result = { name: stage.name, ok: false, blocking: stage.blocking !== false, startedAt: 0, seconds: 0, counts: undefined, memory: undefined, note: '' };
  const blocked = stage.needs.filter((name) => results.some((r) => r.name === name && !r.ok && r.blocking));
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
  stage.shown = stage.command.map((part) => (part === node ? 'node' : path.isAbsolute(part) ? path.relative(ROOT, part) : part)).join(' ');
  stage.startedAt = result.startedAt = (Date.now() - startedAt) / 1000;
  fs.rmSync(statsFile(stage.name), { force: true });
  fs.rmSync(timingsFile(stage.name), { force: true });
  const log = fs.createWriteStream(logFile);
  const started = Date.now();
  const proc = spawnGroup(stage.command[0], stage.command.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...stage.env,
      [tag.name]: tag.value,
      PROMPTREEL_STATS_FILE: statsFile(stage.name),
      PROMPTREEL_TIMINGS_FILE: timingsFile(stage.name),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const sampler = startMemorySampler({ rootPid: proc.pgid, tag });
  const entry = { proc, stage };
  running.add(entry);
  terminal.started(stage);
  for (const [name, stream] of [
    ['stdout', proc.child.stdout],
    ['stderr', proc.child.stderr],
  ]) {
    stream.on('data', (chunk) => {
      log.write(chunk);
      terminal.write(stage, name, chunk);
    });
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    const stats = stage.counts ? readStats(statsFile(stage.name)) : undefined;
    const where = stats && stats.running ? ` while running "${stats.running}"` : '';
    const so = stats ? ` (${stats.passes} passed, ${stats.failures} failed so far)` : '';
    terminal.write(stage, 'stderr', `[test] ${stage.name} ran out of its ${stage.timeoutMs / 1000}s${where}${so}: stopping it\n`);
    void proc.stop(5000);
  }, stage.timeoutMs);
  const { code, signal } = await proc.exited;
  clearTimeout(timer);
  await proc.stop(3000); // members of the group that outlived its leader
  const leftovers = killTagged(tag.name, tag.value);
  running.delete(entry);
  await new Promise((resolve) => log.end(resolve));
  result.memory = sampler.stop();
  result.seconds = (Date.now() - started) / 1000;
  result.ok = code === 0 && !timedOut;
  if (leftovers) result.note = `${leftovers} leftover process(es) killed`;
  if (interrupted) result.note = 'interrupted';
  else if (timedOut) result.note = `timed out after ${stage.timeoutMs / 1000}s`;
  else if (code !== 0) result.note = `exit ${code ?? signal}`;
  if (stage.counts) {
    const stats = readStats(statsFile(stage.name));
    const counts = stats ? { passes: stats.passes, failures: stats.failures, pending: stats.pending } : { passes: 0, failures: 0, pending: 0 };
    // A stage stopped in a test counts that test; one that crashed or failed without failed tests counts one failure.
    if ((timedOut || interrupted) && stats && stats.running) {
      counts.failures += 1;
      result.note += `, in "${stats.running}"`;
    } else if (!result.ok && counts.failures === 0) counts.failures = 1;
    result.counts = counts;
    result.failed = stats ? stats.failed : [];
  } else if (!result.ok) {
    result.counts = { passes: 0, failures: 1, pending: 0 };
  }
  return result;
}

function describe(result) {
  const counts = result.counts ? `${result.counts.passes} passed, ${result.counts.failures} failed, ${result.counts.pending} skipped` : '';
  const { memory: m } = result;
  let resources = '';
  if (m && (m.codeServerMiB || m.chromiumMiB)) {
    resources = `CPU ${m.cpuSeconds}s (code-server ${m.codeServerCpuSeconds}s, chromium ${m.chromiumCpuSeconds}s), peak RSS: code-server tree ${m.codeServerMiB} MiB, chromium ${m.chromiumMiB} MiB, all ${m.totalMiB} MiB`;
  } else if (m && m.totalMiB) {
    resources = `CPU ${m.cpuSeconds}s, peak RSS ${m.totalMiB} MiB`;
  }
  const when = result.seconds ? `${result.seconds.toFixed(1)}s (from +${result.startedAt.toFixed(0)}s)` : '';
  return [result.ok ? 'ok' : 'FAILED', when, counts, resources, result.note].filter(Boolean).join(' | ');
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
function report(options, stopped) {
  if (reported) return 1;
  reported = true;
  const { line, total } = summaryLine();
  const failed = results.flatMap((result) => (result.failed || []).map((failure) => ({ stage: result.name, ...failure })));
  if (failed.length) {
    console.log('\n[test] ── failed ──');
    for (const { stage, title, message } of failed) console.log(`[test] ${stage}: ${title}\n         ${String(message).split('\n').join('\n         ')}`);
  }
  console.log('\n[test] ── summary ──');
  for (const result of results) console.log(`[test] ${result.name.padEnd(8)} ${describe(result)}`);
  const seconds = (Date.now() - startedAt) / 1000;
  const how = [options.grep ? `--grep ${JSON.stringify(options.grep)}` : '', options.serial ? '' : 'parallel'].filter(Boolean).join(', ');
  console.log(
    `[test] total wall time ${seconds.toFixed(1)}s${how ? ` (${how})` : ''}${stopped ? ' (interrupted)' : ''}; logs in ${path.relative(ROOT, LOGS)}/`,
  );
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  fs.writeFileSync(SUMMARY, `${line}\n`);
  const report = { seconds, interrupted: stopped, grep: options.grep, serial: options.serial, total, stages: results };
  fs.writeFileSync(path.join(ARTIFACTS, 'test-report.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(line);
  return total.failures > 0 || stopped ? 1 : 0;
}

/** Starts every stage whose `needs` and `follows` have ended; resolves when all have ended. */
async function runAll(stages) {
  const ended = new Set();
  const launched = new Set();
  await new Promise((resolve) => {
    const launch = () => {
      if (ended.size === stages.length || (interrupted && running.size === 0)) return resolve();
      if (interrupted) return;
      for (const stage of stages) {
        if (launched.has(stage.name) || ![...stage.needs, ...stage.follows].every((name) => ended.has(name))) continue;
        launched.add(stage.name);
        void runStage(stage).then(
          (result) => {
            results.push(result);
            ended.add(stage.name);
            terminal.ended(stage, `[test] ${result.ok ? '✔' : '✘'} ${stage.name}: ${describe(result)}`);
            launch();
          },
          (error) => {
            results.push({ name: stage.name, ok: false, seconds: 0, counts: { passes: 0, failures: 1, pending: 0 }, note: String(error) });
            ended.add(stage.name);
            launch();
          },
        );
      }
    };
    launch();
  });
  // In the order of the plan, whatever order they ended in.
  results.sort((a, b) => stages.findIndex((s) => s.name === a.name) - stages.findIndex((s) => s.name === b.name));
}

async function main() {
  const { options, problem } = parseArgs(process.argv.slice(2));
  if (problem) return usage(problem);
  startedAt = Date.now();
  fs.rmSync(LOGS, { recursive: true, force: true });
  if (options.stages.includes('ui')) fs.rmSync(SCREENSHOTS, { recursive: true, force: true });
  fs.mkdirSync(LOGS, { recursive: true });
  fs.rmSync(SUMMARY, { force: true });

  let finished;
  const mainFinished = new Promise((resolve) => (finished = resolve));
  onShutdown(async () => {
    interrupted = true;
    // Each stage's group gets SIGTERM (its own handlers stop what it started); the stages then report.
    await Promise.all([...running].map(({ proc }) => proc.stop(8000)));
    await Promise.race([mainFinished, new Promise((resolve) => setTimeout(resolve, 5000))]);
    terminal.drain();
    report(options, true);
  });

  await runAll(plan(options));
  const code = report(options, interrupted);
  finished();
  return code;
}

main().then(
  (code) => process.exit(interrupted ? 130 : code),
  (error) => {
    console.error('[test] crashed:', error);
    results.push({ name: 'harness', ok: false, seconds: 0, counts: { passes: 0, failures: 1, pending: 0 }, note: String(error) });
    report({}, false);
    process.exit(1);
  },
);
