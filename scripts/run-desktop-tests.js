#!/usr/bin/env node
// `npm run test:desktop`: the extension-host suite (test/host) in desktop VS Code through @vscode/test-electron,
// for machines with internet access (it downloads VS Code into .vscode-test/) and a display (or xvfb-run).
// Set VSCODE_EXECUTABLE to use an installed VS Code, VSCODE_TEST_VERSION to pick a version (default: stable).
const dns = require('dns');
const fs = require('fs');
const path = require('path');
const { ROOT, CACHE, RUNS, EXTENSION_MAIN, HOST_TESTS_ENTRY } = require('./vscode/paths');
const { writeProfile, writeWorkspace } = require('./vscode/profile');

const DOWNLOAD_HOST = 'update.code.visualstudio.com';

function cachedVsCode() {
  if (!fs.existsSync(CACHE)) return undefined;
  return fs.readdirSync(CACHE).find((entry) => /^vscode-(linux|darwin|win32)/.test(entry));
}

function resolves(host, timeoutMs) {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    dns.lookup(host, (error) => {
      clearTimeout(timer);
      resolve(!error);
    });
  });
}

async function main() {
  for (const file of [EXTENSION_MAIN, `${HOST_TESTS_ENTRY}.js`]) {
    if (!fs.existsSync(file)) throw new Error(`missing ${path.relative(ROOT, file)}: run npm run build && npm run compile-tests`);
  }
  const vscodeExecutablePath = process.env.VSCODE_EXECUTABLE;
  if (!vscodeExecutablePath && !cachedVsCode() && !(await resolves(DOWNLOAD_HOST, 5000))) {
    console.error(
      `[desktop] offline: cannot reach ${DOWNLOAD_HOST} to download VS Code, and none is cached in ${path.relative(ROOT, CACHE)}/.\n` +
        '[desktop] Run this on a machine with internet access, or set VSCODE_EXECUTABLE to an installed VS Code binary.\n' +
        '[desktop] Offline, use `npm run test:host` (the same suite in code-server).',
    );
    return 1;
  }
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    console.warn('[desktop] no display: Electron will likely fail to start; run under `xvfb-run -a npm run test:desktop`');
  }
  const runDir = path.join(RUNS, 'desktop');
  fs.rmSync(runDir, { recursive: true, force: true });
  const profile = writeProfile(path.join(runDir, 'profile'));
  const workspace = writeWorkspace(path.join(runDir, 'workspace'));
  const statsFile = path.join(runDir, 'host-stats.json');

  const { runTests } = require('@vscode/test-electron');
  const code = await runTests({
    ...(vscodeExecutablePath ? { vscodeExecutablePath } : { version: process.env.VSCODE_TEST_VERSION || 'stable', cachePath: CACHE }),
    extensionDevelopmentPath: ROOT,
    extensionTestsPath: HOST_TESTS_ENTRY,
    extensionTestsEnv: { PROMPTREEL_HOST_STATS_FILE: statsFile },
    launchArgs: [
      workspace,
      '--user-data-dir',
      profile.userDataDir,
      '--extensions-dir',
      profile.extensionsDir,
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  }).catch((error) => {
    console.error('[desktop] VS Code failed to run the tests:', error instanceof Error ? error.message : error);
    return 1;
  });
  if (fs.existsSync(statsFile)) console.log(`[desktop] totals: ${fs.readFileSync(statsFile, 'utf8').trim()}`);
  return code === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[desktop] ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
