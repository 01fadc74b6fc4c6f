#!/usr/bin/env node
// Runs test/host (mocha) inside the real VS Code extension host: code-server with the smoke-test driver, a fresh
// profile and workspace, and Chromium opening the workbench with a `payload` naming the extension under development
// (this repo) and the tests entry (out/test/host/index). Exit code 0 only when every test passed.
// Usage: node scripts/run-host-tests.js [--stats-file FILE] [--timings-file FILE] [--timeout-ms N]   (build + compile-tests first)
//   --vsix FILE      the packaged extension instead of this repo: installed with `code-server --install-extension` into the
//                    fresh profile, and the suite of test/vsix (out/test/vsix/index) run against it (`npm run test:vsix`)
//   --vscode 1.104   another pinned VS Code than the newest (scripts/vscode/stack.js)
// The limit for the whole suite (default 20 minutes, at least three times its idle duration) only catches a host that
// stopped answering: each test has its own limit (test/host/index.ts), which fails it by name.
const fs = require('fs');
const path = require('path');
const util = require('util');
const { ROOT, RUNS, LOGS, EXTENSION_MAIN, HOST_TESTS_ENTRY } = require('./vscode/paths');
const { addLanguagePack, writeProfile, writeWorkspace } = require('./vscode/profile');
const { startCodeServer } = require('./vscode/server');
const { launchBrowser } = require('./vscode/browser');
const { OFFLINE_NOISE } = require('./vscode/offlineNoise');
const { onShutdown } = require('./vscode/processes');
const { NEWEST, requireStack, readJson, stackFor } = require('./vscode/stack');
const { installExtension } = require('./vscode/server');

const STATS_MARKER = 'PROMPTREEL_HOST_STATS ';
/**
 * The host tests read VS Code's API, not the screen: a small window. Chromium's compositor works per pixel drawn
 * (its GPU process took 10.3 CPU s at 1280×720 and 3.8 s at 640×480 over the editor suites, the tests unchanged).
 */
const HOST_VIEWPORT = { width: 640, height: 480 };
const TOOL_FIXTURE = path.join(ROOT, 'test', 'host', 'fixtures', 'tool-extension');
/**
 * With --vsix: the extension under development is this empty one, so the installed Promptreel is the one that runs
 * (this repo as the development path would take its place), and test/vsix is the suite.
 */
const VSIX_DRIVER = path.join(ROOT, 'test', 'vsix', 'driver');
const VSIX_TESTS_ENTRY = path.join(ROOT, 'out', 'test', 'vsix', 'index');
const SERVICE_ENTRY = path.join(ROOT, 'out', 'test', 'service', 'index.js');

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

function payloadUrl(server, folder, { developmentPath, testsEntry }) {
  const authority = new URL(server.url).host;
  const remote = (file) => `vscode-remote://${authority}${file}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(developmentPath)],
    ['extensionTestsPath', remote(testsEntry)],
  ]);
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(payload)}`;
}

// Offline, the workbench's extension-gallery queries fail; that is expected (recipe pitfall 11).

async function main() {
  const statsOut = option('--stats-file');
  const timingsOut = option('--timings-file');
  const timeoutMs = Number(option('--timeout-ms', process.env.PROMPTREEL_HOST_TIMEOUT_MS || 30 * 60_000));
  const vsix = option('--vsix') && path.resolve(option('--vsix'));
  const spec = option('--vscode') ? stackFor(option('--vscode')) : NEWEST;
  if (!spec) throw new Error(`no VS Code stack is pinned for ${option('--vscode')} (scripts/vscode/stack.js)`);
  const layout = requireStack(spec.dir, spec);
  const target = vsix
    ? { developmentPath: VSIX_DRIVER, testsEntry: VSIX_TESTS_ENTRY, needs: [vsix, `${VSIX_TESTS_ENTRY}.js`, SERVICE_ENTRY] }
    : { developmentPath: ROOT, testsEntry: HOST_TESTS_ENTRY, needs: [EXTENSION_MAIN, `${HOST_TESTS_ENTRY}.js`] };
  for (const file of target.needs) {
    if (!fs.existsSync(file)) throw new Error(`missing ${path.relative(ROOT, file)}: run npm run build (or package) && npm run compile-tests`);
  }
  // Per process, so two runs in one checkout do not share a profile; removed afterwards unless PROMPTREEL_KEEP_RUNS=1.
  const runDir = path.join(RUNS, `host-${process.pid}`);
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.mkdirSync(LOGS, { recursive: true });
  const profile = writeProfile(path.join(runDir, 'profile'));
  const logFile = path.join(LOGS, vsix ? `vsix-${spec.vscode}-code-server.log` : 'host-code-server.log');
  const env = {};
  if (vsix) {
    const installStarted = Date.now();
    await installExtension(profile, vsix, { logFile, layout }).catch((error) => {
      if (process.env.PROMPTREEL_KEEP_RUNS !== '1') fs.rmSync(runDir, { recursive: true, force: true });
      throw error;
    });
    console.log(`[host] ${path.relative(ROOT, vsix)} installed with code-server --install-extension in ${((Date.now() - installStarted) / 1000).toFixed(1)}s`);
    // The key as a user without stored keys gives it (the local service, which the suite starts, accepts it).
    Object.assign(env, {
      PROMPTREEL_API_KEY: require(SERVICE_ENTRY).DEMO_KEY,
      PROMPTREEL_VSIX_EXTENSIONS_DIR: profile.extensionsDir,
      PROMPTREEL_VSIX_USER_DATA_DIR: profile.userDataDir,
      PROMPTREEL_VSIX_VSCODE_VERSION: spec.vscode,
    });
  } else {
    // Another extension's language model tool, as the chat's tool tests need one (VS Code lists it like an installed one).
    fs.cpSync(TOOL_FIXTURE, path.join(profile.extensionsDir, 'promptreel-tests.tool-fixture-0.0.1'), { recursive: true });
  }
  if (process.env.PROMPTREEL_HOST_LOCALE) addLanguagePack(profile, process.env.PROMPTREEL_HOST_LOCALE);
  const workspace = writeWorkspace(path.join(runDir, 'workspace'));
  // The host's reporter streams its totals there (a run stopped from outside leaves what passed so far).
  const hostStatsFile = statsOut || path.join(runDir, 'host-stats.json');

  const started = Date.now();
  let server;
  let browser;
  const stopAll = async () => {
    if (browser) await browser.close().catch(() => {});
    if (server) await server.stop();
    browser = undefined;
    server = undefined;
    if (process.env.PROMPTREEL_KEEP_RUNS !== '1') fs.rmSync(runDir, { recursive: true, force: true });
  };
  onShutdown(stopAll);
  let result = { exitCode: 'not started', stats: undefined };
  try {
    server = await startCodeServer({
      profile,
      workspace,
      layout,
      smokeDriver: true, // VS Code ignores `payload` without it
      locale: process.env.PROMPTREEL_HOST_LOCALE,
      env: {
        ...env,
        PROMPTREEL_HOST_STATS_FILE: hostStatsFile,
        PROMPTREEL_HOST_TIMINGS_FILE: timingsOut || path.join(LOGS, vsix ? 'vsix.timings.json' : 'host.timings.json'),
      },
      logFile,
    });
    console.log(
      `[host] code-server ${spec.codeServer} (VS Code ${spec.vscode}) ${server.url} (pgid ${server.pgid}) up in ${(server.startedInMs / 1000).toFixed(2)}s`,
    );
    browser = await launchBrowser();
    // Reduced motion (as in the UI tier): no endless animation repaints the workbench while the suites run.
    const page = await browser.newPage({ viewport: HOST_VIEWPORT, reducedMotion: 'reduce' });
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    let loggedStats;
    // Console output of the extension host reaches the page in smoke-driver mode and is handed to these hooks.
    await page.exposeFunction('codeAutomationLog', (type, args) => {
      // Arguments as given to console.log, format string first (mocha's reporter uses %s and %d).
      const line = util.format(...(Array.isArray(args) ? args : [args]));
      if (OFFLINE_NOISE.test(line)) return;
      for (const part of line.split('\n')) {
        if (part.startsWith(STATS_MARKER)) loggedStats = JSON.parse(part.slice(STATS_MARKER.length));
      }
      (type === 'error' ? console.error : console.log)(line);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    page.on('pageerror', (error) => console.error(`[host] page error: ${error.message}`));
    // PROMPTREEL_HOST_CPU_PROFILE=<file>: a CPU profile of the workbench's renderer over the run (where its time goes).
    const profileFile = process.env.PROMPTREEL_HOST_CPU_PROFILE;
    const cdp = profileFile ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await cdp.send('Profiler.start');
    }
    await page.goto(payloadUrl(server, workspace, target));
    const timer = new Promise((resolve) => setTimeout(() => resolve('timeout'), timeoutMs));
    const exitCode = await Promise.race([finished, timer]);
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      fs.writeFileSync(profileFile, JSON.stringify(profile));
      console.log(`[host] CPU profile of the workbench renderer: ${profileFile}`);
    }
    // Written by the host's reporter when each test starts and ends: after a timeout, what passed so far and the test
    // that was running.
    const streamed = readJson(hostStatsFile);
    if (exitCode === 'timeout') {
      const so = streamed ? `${streamed.passes} passed, ${streamed.failures} failed so far` : 'no test had started';
      const where = streamed && streamed.running ? ` while running "${streamed.running}"` : '';
      console.error(`[host] the limit for the whole suite (${timeoutMs / 1000}s) ran out${where}; ${so}`);
    }
    const stats = (streamed && streamed.finished ? streamed : undefined) || loggedStats || streamed;
    result = { exitCode, stats };
  } finally {
    await stopAll();
  }

  const seconds = (Date.now() - started) / 1000;
  let { stats } = result;
  if (!stats) {
    console.error(`[host] no test totals reported (exit code ${result.exitCode})`);
    stats = { passes: 0, failures: 1, pending: 0 };
  } else if (result.exitCode === 'timeout') {
    stats = { passes: stats.passes, failures: stats.failures + 1, pending: stats.pending }; // the test that never ended
  } else if (result.exitCode !== 0 && stats.failures === 0) {
    stats = { ...stats, failures: 1 }; // the host failed after the tests
  }
  console.log(`[host] exit code ${result.exitCode}; ${stats.passes} passed, ${stats.failures} failed, ${stats.pending} pending in ${seconds.toFixed(1)}s`);
  if (statsOut) {
    const { passes, failures, pending, failed = [] } = stats;
    fs.writeFileSync(statsOut, `${JSON.stringify({ passes, failures, pending, finished: true, failed })}\n`);
  }
  return result.exitCode === 0 && stats.failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[host] ${error instanceof Error ? error.stack : String(error)}`);
    process.exit(1);
  },
);
