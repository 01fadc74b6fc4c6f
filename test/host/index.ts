// Entry point VS Code loads in the extension host (extensionTestsPath): runs every *.test.js below this folder.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

/** The runner finds the totals by this prefix in the forwarded console output. */
const STATS_MARKER = 'PROMPTREEL_HOST_STATS';
/** The longest a single host test may take before it fails with its name (a hang is caught here, not by the runner). */
const TEST_TIMEOUT_MS = 30_000;

interface HostStats {
  passes: number;
  failures: number;
  pending: number;
}

function findTestFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return findTestFiles(full);
      return entry.name.endsWith('.test.js') ? [full] : [];
    })
    .sort();
}

function repoRoot(): string {
  for (let dir = __dirname; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'vscode', 'stats-reporter.js'))) return dir;
  }
  throw new Error(`no scripts/vscode above ${__dirname}`);
}

function report(stats: HostStats): void {
  console.log(`${STATS_MARKER} ${JSON.stringify(stats)}`);
  const file = process.env.PROMPTREEL_HOST_STATS_FILE;
  if (!file) return;
  let streamed: object = {};
  try {
    streamed = JSON.parse(fs.readFileSync(file, 'utf8')) as object; // the reporter's, with the failures' titles
  } catch {
    // no test ran
  }
  fs.writeFileSync(file, `${JSON.stringify({ ...streamed, ...stats, finished: true })}\n`);
}

function runMocha(mocha: Mocha): Promise<HostStats> {
  return new Promise((resolve) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      resolve({ passes: stats?.passes ?? 0, failures: stats?.failures ?? failures, pending: stats?.pending ?? 0 });
    });
  });
}

export function run(): Promise<void> {
  return runTestsBelow(__dirname);
}

/** Runs every *.test.js below `dir` in this extension host (test/vsix/index.ts runs its own suite with it too). */
export async function runTestsBelow(dir: string): Promise<void> {
  const grep = process.env.PROMPTREEL_HOST_GREP;
  const root = repoRoot();
  // The spec output, plus the totals after each test (the runner reads them when its limit for the whole suite runs
  // out) and each test's duration.
  const reporter = require(path.join(root, 'scripts', 'vscode', 'stats-reporter.js')) as typeof Mocha.reporters.Base;
  const reporterOptions = { statsFile: process.env.PROMPTREEL_HOST_STATS_FILE, timingsFile: process.env.PROMPTREEL_HOST_TIMINGS_FILE, root };
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: TEST_TIMEOUT_MS, forbidOnly: true, reporter, reporterOptions, ...(grep ? { grep } : {}) });
  // PROMPTREEL_HOST_FILTER=chat,video runs only the files whose path below test/host contains one of those words.
  const filters = (process.env.PROMPTREEL_HOST_FILTER ?? '').split(',').filter(Boolean);
  for (const file of findTestFiles(dir)) {
    const relative = path.relative(dir, file);
    if (filters.length === 0 || relative.startsWith('smoke') || filters.some((filter) => relative.includes(filter))) mocha.addFile(file);
  }
  let stats: HostStats;
  try {
    stats = await runMocha(mocha);
  } catch (error) {
    // A test file that fails to load throws here, before any test ran.
    console.error('extension host tests could not start:', error);
    stats = { passes: 0, failures: 1, pending: 0 };
  }
  report(stats);
  if (stats.failures > 0) throw new Error(`${stats.failures} extension host test(s) failed`);
}
