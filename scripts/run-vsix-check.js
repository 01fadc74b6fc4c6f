#!/usr/bin/env node
// `npm run test:vsix`: the extension as users get it, in the oldest VS Code `engines.vscode` allows and the newest.
//   1. `npm run package` (dist/promptreel.vsix) and the test build (tsc -p test);
//   2. `vsce ls`: only what a user needs (test/vsix/packageContents.ts), and every file the package names; a file left
//      in dist/ before packaging (not the build's) is gone;
//   3. for each pinned VS Code (scripts/vscode/stack.js: 1.104, then 1.139): the stack (installed on first use into
//      .vscode-test/, a few minutes), then scripts/run-host-tests.js --vsix: `code-server --install-extension` into a
//      fresh profile, and test/vsix in the real extension host (activation, Test Connection and a streamed chat
//      completion against the local service with a key, the views and the chat panel, no error in its log).
// Not part of `npm test`. Prints a result per step and version; ends with ONE line `N passed, N failed`.
// Usage: node scripts/run-vsix-check.js [--vscode 1.104] (default: every pinned version)
const { spawn, spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { ROOT, ARTIFACTS, LOGS, VSIX } = require('./vscode/paths');
const { STACKS } = require('./vscode/stack');

const node = process.execPath;
const bin = (relative) => path.join(ROOT, 'node_modules', relative);
const CONTENTS = path.join(ROOT, 'out', 'test', 'vsix', 'packageContents.js');
const LISTED = path.join(ARTIFACTS, 'vsix', 'listed.json');
const LEFT_IN_DIST = path.join(ROOT, 'dist', 'left-in-dist.js');
/** Oldest first: a problem there is the likelier one. */
const VERSIONS = Object.keys(STACKS).sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]));

const results = [];

function record(name, ok, detail, counts = { passes: ok ? 1 : 0, failures: ok ? 0 : 1 }) {
  results.push({ name, ok, detail, counts });
  console.log(`[vsix] ${ok ? '✔' : '✘'} ${name}${detail ? `: ${detail}` : ''}`);
}

const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)}s`;

/** Runs a step with its output in .artifacts/logs/<log>; on failure, its last lines on the console. */
function quietStep(log, command, args) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const output = `${result.stdout || ''}${result.stderr || ''}`;
  fs.writeFileSync(path.join(LOGS, log), output);
  const ok = result.status === 0;
  if (!ok) console.log(output.split('\n').slice(-30).join('\n'));
  return { ok, output, took: seconds(started) };
}

/** Runs a step with its output on the console (the stack install, the extension host's tests). */
function liveStep(command, args, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => resolve(code ?? signal));
  });
}

function checkPackageContents() {
  const ls = quietStep('vsix-ls.log', node, [bin('@vscode/vsce/vsce'), 'ls', '--no-dependencies']);
  if (!ls.ok) return record('vsce ls', false, 'failed (.artifacts/logs/vsix-ls.log)');
  const listed = ls.output
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  fs.mkdirSync(path.dirname(LISTED), { recursive: true });
  fs.writeFileSync(LISTED, `${JSON.stringify(listed, null, 1)}\n`);
  const { notForUsers, missingFiles } = require(CONTENTS);
  const strays = notForUsers(listed);
  record('vsce ls lists only what a user needs', strays.length === 0, strays.length ? `not for users: ${strays.join(', ')}` : `${listed.length} files`);
  const missing = missingFiles(listed, (file) => fs.readFileSync(path.join(ROOT, file), 'utf8'));
  record('the package holds every file it names (manifest paths, l10n bundles, required chunks)', missing.length === 0, missing.join(', '));
  const { size } = fs.statSync(VSIX);
  console.log(`[vsix]   ${path.relative(ROOT, VSIX)}: ${(size / 1024 / 1024).toFixed(2)} MB, ${listed.length} files`);
  return listed;
}

async function checkVersion(version) {
  const spec = STACKS[version];
  const label = `VS Code ${spec.vscode} (code-server ${spec.codeServer}, node ${spec.node})`;
  console.log(`\n[vsix] ── ${label} ──`);
  const installStarted = Date.now();
  const installed = await liveStep(node, [path.join(__dirname, 'install-vscode.js'), '--vscode', version]);
  record(`${label}: stack ready`, installed === 0, seconds(installStarted));
  if (installed !== 0) return;
  const statsFile = path.join(LOGS, `vsix-${version}.stats.json`);
  fs.rmSync(statsFile, { force: true });
  const runStarted = Date.now();
  const code = await liveStep(node, [path.join(__dirname, 'run-host-tests.js'), '--vsix', VSIX, '--vscode', version, '--stats-file', statsFile], {
    PROMPTREEL_VSIX_LISTED: LISTED,
  });
  let stats;
  try {
    stats = JSON.parse(fs.readFileSync(statsFile, 'utf8'));
  } catch {
    stats = { passes: 0, failures: 0 };
  }
  // A run that failed without a failed test (the install, code-server, the host) counts as one failure.
  const failures = stats.failures || (code === 0 ? 0 : 1);
  record(
    `${label}: installed VSIX in the extension host`,
    code === 0 && failures === 0,
    `${stats.passes} passed, ${failures} failed in ${seconds(runStarted)}`,
    {
      passes: stats.passes,
      failures,
    },
  );
}

async function main() {
  const only = process.argv.includes('--vscode') ? process.argv[process.argv.indexOf('--vscode') + 1] : undefined;
  const versions = only ? VERSIONS.filter((version) => only.startsWith(version)) : VERSIONS;
  if (versions.length === 0) throw new Error(`no VS Code ${only} is pinned (scripts/vscode/stack.js: ${VERSIONS.join(', ')})`);
  const started = Date.now();
  fs.mkdirSync(LOGS, { recursive: true });

  // A file the build does not write (an experiment's bundle, a file from an older build) must not reach the package.
  fs.mkdirSync(path.dirname(LEFT_IN_DIST), { recursive: true });
  fs.writeFileSync(LEFT_IN_DIST, '// left in dist/ by hand: npm run package must not ship it\n');
  const packaged = quietStep('vsix-package.log', 'npm', ['run', 'package']);
  const leftOver = fs.existsSync(LEFT_IN_DIST);
  fs.rmSync(LEFT_IN_DIST, { force: true });
  record('npm run package', packaged.ok, `${path.relative(ROOT, VSIX)} in ${packaged.took}`);
  if (packaged.ok)
    record('npm run package removes what it did not build from dist/', !leftOver, leftOver ? `${path.relative(ROOT, LEFT_IN_DIST)} is still there` : '');
  // tsc writes the tests even with type errors: those fail this step, and the steps after it still run.
  const compiled = quietStep('vsix-compile.log', node, [bin('typescript/bin/tsc'), '-p', 'test']);
  record('tsc -p test', compiled.ok, compiled.took);
  if (packaged.ok && fs.existsSync(CONTENTS)) {
    checkPackageContents();
    for (const version of versions) await checkVersion(version);
  }

  const total = results.reduce((sum, result) => ({ passes: sum.passes + result.counts.passes, failures: sum.failures + result.counts.failures }), {
    passes: 0,
    failures: 0,
  });
  console.log(`\n[vsix] ── summary (${seconds(started)}; logs in ${path.relative(ROOT, LOGS)}/) ──`);
  for (const result of results) console.log(`[vsix] ${result.ok ? 'ok    ' : 'FAILED'} ${result.name}${result.detail ? `: ${result.detail}` : ''}`);
  console.log(`${total.passes} passed, ${total.failures} failed`);
  return total.failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`[vsix] ${error instanceof Error ? error.stack : String(error)}`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);
