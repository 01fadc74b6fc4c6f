// Entry point VS Code loads in the extension host (extensionTestsPath): runs every *.test.js below this folder.
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';

/** The runner finds the totals by this prefix in the forwarded console output. */
const STATS_MARKER = 'PROMPTREEL_HOST_STATS';

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

function report(stats: HostStats): void {
  console.log(`${STATS_MARKER} ${JSON.stringify(stats)}`);
  const file = process.env.PROMPTREEL_HOST_STATS_FILE;
  if (file) fs.writeFileSync(file, `${JSON.stringify(stats)}\n`);
}

function runMocha(mocha: Mocha): Promise<HostStats> {
  return new Promise((resolve) => {
    const runner = mocha.run((failures) => {
      const stats = runner.stats;
      resolve({ passes: stats?.passes ?? 0, failures: stats?.failures ?? failures, pending: stats?.pending ?? 0 });
    });
  });
}

export async function run(): Promise<void> {
  const grep = process.env.PROMPTREEL_HOST_GREP;
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000, forbidOnly: true, reporter: 'spec', ...(grep ? { grep } : {}) });
  // PROMPTREEL_HOST_FILTER=chat,video runs only the files whose path below test/host contains one of those words.
  const filters = (process.env.PROMPTREEL_HOST_FILTER ?? '').split(',').filter(Boolean);
  for (const file of findTestFiles(__dirname)) {
    const relative = path.relative(__dirname, file);
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
