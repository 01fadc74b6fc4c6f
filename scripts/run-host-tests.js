#!/usr/bin/env node
// Runs test/host (mocha) inside the real VS Code extension host: code-server with the smoke-test driver, a fresh
// profile and workspace, and Chromium opening the workbench with a `payload` naming the extension under development
// (this repo) and the tests entry (out/test/host/index). Exit code 0 only when every test passed.
// Usage: node scripts/run-host-tests.js [--stats-file FILE] [--timings-file FILE] [--timeout-ms N]   (build + compile-tests first)
// The limit for the whole suite (default 20 minutes, at least three times its idle duration) only catches a host that
// stopped answering: each test has its own limit (test/host/index.ts), which fails it by name.
const fs = require('fs');
const path = require('path');
const util = require('util');
const { ROOT, RUNS, LOGS, EXTENSION_MAIN, HOST_TESTS_ENTRY } = require('./vscode/paths');
const { addLanguagePack, writeProfile, writeWorkspace } = require('./vscode/profile');
const { startCodeServer } = require('./vscode/server');
const { launchBrowser } = require('./vscode/browser');
const { onShutdown } = require('./vscode/processes');
const { requireStack, readJson } = require('./vscode/stack');

const STATS_MARKER = 'PROMPTREEL_HOST_STATS ';
const TOOL_FIXTURE = path.join(ROOT, 'test', 'host', 'fixtures', 'tool-extension');

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

function payloadUrl(server, folder) {
  const authority = new URL(server.url).host;
  const remote = (file) => `vscode-remote://${authority}${file}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(ROOT)],
    ['extensionTestsPath', remote(HOST_TESTS_ENTRY)],
  ]);
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(payload)}`;
}

// Offline, the workbench's extension-gallery queries fail; that is expected (recipe pitfall 11).
const OFFLINE_NOISE = /getaddrinfo ENOTFOUND (open-vsx\.org|\S*marketplace|\S*visualstudio)|authentication provider 'github'/;

async function main() {
  const statsOut = option('--stats-file');
  const timingsOut = option('--timings-file');
  const timeoutMs = Number(option('--timeout-ms', process.env.PROMPTREEL_HOST_TIMEOUT_MS || 20 * 60_000));
  requireStack();
  for (const file of [EXTENSION_MAIN, `${HOST_TESTS_ENTRY}.js`]) {
    if (!fs.existsSync(file)) throw new Error(`missing ${path.relative(ROOT, file)}: run npm run build && npm run compile-tests`);
  }
  // Per process, so two runs in one checkout do not share a profile; removed afterwards unless PROMPTREEL_KEEP_RUNS=1.
  const runDir = path.join(RUNS, `host-${process.pid}`);
  fs.rmSync(runDir, { recursive: true, force: true });
  fs.mkdirSync(LOGS, { recursive: true });
  const profile = writeProfile(path.join(runDir, 'profile'));
  // Another extension's language model tool, as the chat's tool tests need one (VS Code lists it like an installed one).
  fs.cpSync(TOOL_FIXTURE, path.join(profile.extensionsDir, 'promptreel-tests.tool-fixture-0.0.1'), { recursive: true });
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
      smokeDriver: true, // VS Code ignores `payload` without it
      locale: process.env.PROMPTREEL_HOST_LOCALE,
      env: { PROMPTREEL_HOST_STATS_FILE: hostStatsFile, PROMPTREEL_HOST_TIMINGS_FILE: timingsOut || path.join(LOGS, 'host.timings.json') },
      logFile: path.join(LOGS, 'host-code-server.log'),
    });
    console.log(`[host] code-server ${server.url} (pgid ${server.pgid}) up in ${(server.startedInMs / 1000).toFixed(2)}s`);
    browser = await launchBrowser();
    const page = await browser.newPage();
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
    await page.goto(payloadUrl(server, workspace));
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
