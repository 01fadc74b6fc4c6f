// Mocha reporter: the usual `spec` output, plus two files for scripts/test-all.js (the unit and UI tiers, and the host
// tier inside the extension host):
//   statsFile   the totals as JSON, rewritten when a test or hook starts and when a test ends, with the title of what
//               is running and the failures so far (title, first lines of the error): a run stopped by a time limit
//               or a signal still tells what passed, what failed and which test it stopped in;
//   timingsFile each test's, each suite's and each slow hook's duration, rewritten at each suite's end.
// Files from the reporter options `statsFile`/`timingsFile`, else $PROMPTREEL_STATS_FILE/$PROMPTREEL_TIMINGS_FILE.
const fs = require('fs');
const path = require('path');
const Mocha = require('mocha');

const { EVENT_RUN_END, EVENT_SUITE_BEGIN, EVENT_SUITE_END, EVENT_TEST_BEGIN, EVENT_TEST_END, EVENT_HOOK_BEGIN, EVENT_HOOK_END, EVENT_TEST_FAIL } =
  Mocha.Runner.constants;
/** Hooks shorter than this are left out of the timings (every test has its quick afterEach). */
const SLOW_HOOK_MS = 500;
const MAX_FAILURES_KEPT = 50;

function writeAtomically(file, value) {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 1)}\n`);
  fs.renameSync(temporary, file);
}

class StatsReporter extends Mocha.reporters.Spec {
  constructor(runner, options = {}) {
    super(runner, options);
    const reporterOptions = options.reporterOption || options.reporterOptions || {};
    const statsFile = reporterOptions.statsFile || process.env.PROMPTREEL_STATS_FILE;
    const timingsFile = reporterOptions.timingsFile || process.env.PROMPTREEL_TIMINGS_FILE;
    const root = reporterOptions.root || process.cwd();
    const fileOf = (runnable) => (runnable.file ? path.relative(root, runnable.file) : undefined);
    let running;
    const failed = [];
    const writeStats = (finished = false) => {
      if (!statsFile) return;
      const { passes, failures, pending } = this.stats;
      try {
        writeAtomically(statsFile, { passes, failures, pending, finished, running: finished ? undefined : running, failed });
      } catch {
        // a missing folder must not fail the tests
      }
    };
    const timings = { tests: [], suites: [], hooks: [] };
    const writeTimings = () => {
      if (!timingsFile) return;
      try {
        writeAtomically(timingsFile, timings);
      } catch {
        // as above
      }
    };
    const suiteStarted = new Map();
    const hookStarted = new Map();

    runner.on(EVENT_SUITE_BEGIN, (suite) => suiteStarted.set(suite, Date.now()));
    runner.on(EVENT_SUITE_END, (suite) => {
      if (!suite.root) timings.suites.push({ title: suite.fullTitle(), file: fileOf(suite), ms: Date.now() - (suiteStarted.get(suite) ?? Date.now()) });
      writeTimings();
    });
    runner.on(EVENT_HOOK_BEGIN, (hook) => {
      hookStarted.set(hook, Date.now());
      if (/"before (all|each)"/.test(hook.title)) {
        running = hook.fullTitle();
        writeStats();
      }
    });
    runner.on(EVENT_HOOK_END, (hook) => {
      const ms = Date.now() - (hookStarted.get(hook) ?? Date.now());
      if (ms >= SLOW_HOOK_MS) timings.hooks.push({ title: hook.fullTitle(), file: fileOf(hook), ms });
    });
    runner.on(EVENT_TEST_BEGIN, (test) => {
      running = test.fullTitle();
      writeStats();
    });
    runner.on(EVENT_TEST_END, (test) => {
      timings.tests.push({ title: test.fullTitle(), file: fileOf(test), state: test.state ?? 'pending', ms: test.duration ?? 0 });
      running = undefined;
      writeStats();
    });
    runner.on(EVENT_TEST_FAIL, (runnable, error) => {
      const message = String((error && error.message) || error)
        .split('\n')
        .filter((line) => line.trim())
        .slice(0, 4)
        .join('\n');
      if (failed.length < MAX_FAILURES_KEPT) failed.push({ title: runnable.fullTitle(), message: message.slice(0, 400) });
      // A failed hook is a failure without a `test end`.
      if (runnable.type === 'hook') writeStats();
    });
    runner.once(EVENT_RUN_END, () => {
      writeStats(true);
      writeTimings();
    });
  }
}

module.exports = StatsReporter;
