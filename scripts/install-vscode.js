#!/usr/bin/env node
// Installs the real-VS-Code test stack into .vscode-test/stack (git-ignored), using only apt and the npm registry:
//   Debian packages (chromium + the toolchain for native modules), node@24 from npm, code-server (VS Code in the browser).
// Idempotent: each step checks what is there (versions included) and skips. Usage:
//   node scripts/install-vscode.js [--stack DIR] [--force]
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { STACK } = require('./vscode/paths');
const {
  APT_PACKAGES,
  CHROMIUM,
  CODE_SERVER_VERSION,
  NODE_VERSION,
  VSCODE_VERSION,
  postinstallMarkers,
  readJson,
  stackLayout,
  stackProblem,
} = require('./vscode/stack');

const NOISE = /Unknown (user|env|cli|project) config|This will stop working in the next major version/;

function log(message) {
  console.log(`[install-vscode] ${message}`);
}

/** Runs a command, echoing its output minus npm's config chatter; throws on failure. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options });
  const output = `${result.stdout || ''}${result.stderr || ''}`;
  const kept = output.split('\n').filter((line) => line.trim() && !NOISE.test(line));
  if (options.quiet !== true || result.status !== 0) kept.slice(-40).forEach((line) => console.log(`  ${line}`));
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
  return output;
}

function commandExists(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function missingDebianPackages(packages) {
  return packages.filter((name) => {
    const result = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return result.status !== 0 || !result.stdout.includes('install ok installed');
  });
}

/** Installs the Debian packages that are missing (as root, or through password-less sudo). */
function ensureDebianPackages(packages) {
  if (!commandExists('dpkg-query') || !commandExists('apt-get')) {
    log(`not a Debian system: make sure these are installed yourself: ${packages.join(' ')}`);
    return;
  }
  const missing = missingDebianPackages(packages);
  if (missing.length === 0) {
    log(`Debian packages present: ${packages.join(' ')}`);
    return;
  }
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const prefix = isRoot ? [] : commandExists('sudo') ? ['sudo', '-n'] : undefined;
  if (!prefix) throw new Error(`missing Debian packages (${missing.join(' ')}); install them as root: apt-get install -y ${missing.join(' ')}`);
  log(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const [command, ...rest] = [...prefix, 'apt-get'];
  run(command, [...rest, 'update', '-qq'], { env, quiet: true });
  run(command, [...rest, 'install', '-y', '-qq', ...missing], { env, quiet: true });
  const still = missingDebianPackages(packages);
  if (still.length) throw new Error(`apt-get did not install: ${still.join(' ')}`);
}

function writePackageJson(dir, name, allowScripts) {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'package.json');
  const current = readJson(file) || {};
  // allowScripts: npm 11 runs dependency install scripts only with a notice unless approved; approve the ones we need.
  const next = { ...current, name, version: '1.0.0', private: true, allowScripts: { ...current.allowScripts, ...allowScripts } };
  delete next.scripts;
  fs.writeFileSync(file, `${JSON.stringify(next, null, 2)}\n`);
}

function nodeVersionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, '') : undefined;
}

function ensureNode24(layout) {
  const have = fs.existsSync(layout.node) ? nodeVersionOf(layout.node) : undefined;
  if (have === NODE_VERSION && fs.existsSync(path.join(layout.nodeHeaders, 'include', 'node', 'node.h'))) {
    log(`node ${have} present`);
    return;
  }
  log(`installing node@${NODE_VERSION} from npm (found: ${have || 'none'})`);
  writePackageJson(layout.nodeHome, 'promptreel-node24', { node: true });
  run('npm', ['install', '--no-fund', '--no-audit', '--foreground-scripts', `node@${NODE_VERSION}`], { cwd: layout.nodeHome, env: cleanNpmEnv(), quiet: true });
  const installed = nodeVersionOf(layout.node);
  if (installed !== NODE_VERSION) throw new Error(`node@${NODE_VERSION} install failed (binary reports ${installed})`);
}

function codeServerInstalled(layout) {
  const pkg = readJson(path.join(layout.codeServer, 'package.json'));
  return pkg && pkg.version === CODE_SERVER_VERSION && postinstallMarkers(layout).every((file) => fs.existsSync(file));
}

// Settings a user may give npm through the environment (mirrors, proxies, certificates); kept for the stack install.
const KEPT_NPM_SETTINGS = /^npm_config_(registry|cache|proxy|https_proxy|noproxy|cafile|strict_ssl|userconfig|globalconfig)$/i;

/**
 * The environment minus what an outer `npm test`/`npm start` exported (its user agent naming node 20, the
 * project's prefix, lifecycle data): with those, a nested npm would act on the project instead of the stack.
 */
function cleanNpmEnv() {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_/i.test(key) && !KEPT_NPM_SETTINGS.test(key)) continue;
    if (key === 'NODE' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  // npm run also prepends every node_modules/.bin up the tree and its node-gyp shim.
  env.PATH = (process.env.PATH || '')
    .split(path.delimiter)
    .filter((dir) => dir && !dir.endsWith(`${path.sep}node_modules${path.sep}.bin`) && !dir.endsWith(`${path.sep}node-gyp-bin`))
    .join(path.delimiter);
  return env;
}

/** npm on node 24 (code-server's postinstall checks the node version in npm's user agent), building against node 24's headers. */
function node24Env(layout) {
  return {
    ...cleanNpmEnv(),
    PATH: `${layout.nodeBinDir}${path.delimiter}${cleanNpmEnv().PATH}`,
    npm_config_nodedir: layout.nodeHeaders, // ~/.npmrc may say nodedir=/usr, i.e. node 20's headers
    npm_config_update_notifier: 'false',
  };
}

function ensureCodeServer(layout) {
  if (codeServerInstalled(layout)) {
    log(`code-server ${CODE_SERVER_VERSION} present`);
    return;
  }
  log(`installing code-server@${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}); about 2 minutes on 2 cores`);
  const env = node24Env(layout);
  writePackageJson(layout.dir, 'promptreel-vscode-stack', { 'code-server': true, argon2: true });
  // Without scripts first, then the two packages' scripts explicitly and in the foreground:
  // code-server's postinstall runs `npm install` in lib/vscode and compiles native modules for node 24.
  run('npm', ['install', '--no-fund', '--no-audit', '--ignore-scripts', `code-server@${CODE_SERVER_VERSION}`], { cwd: layout.dir, env, quiet: true });
  run('npm', ['rebuild', '--foreground-scripts', 'argon2', 'code-server'], { cwd: layout.dir, env, quiet: true });
  if (!codeServerInstalled(layout)) {
    const missing = postinstallMarkers(layout).filter((file) => !fs.existsSync(file));
    throw new Error(`code-server postinstall did not build its native modules (missing ${missing.join(', ')})`);
  }
}

function checkCodeServerVersion(layout) {
  // --config with an empty file, or code-server writes ~/.config/code-server/config.yaml.
  const emptyConfig = path.join(layout.dir, 'empty-config.yaml');
  fs.writeFileSync(emptyConfig, '');
  const output = run(layout.node, [layout.codeServerEntry, '--config', emptyConfig, '--version'], { quiet: true });
  if (!output.includes(CODE_SERVER_VERSION) || !output.includes(`Code ${VSCODE_VERSION}`)) {
    throw new Error(`unexpected code-server --version output: ${output.trim()}`);
  }
  return output.trim().split('\n').pop();
}

function main() {
  const args = process.argv.slice(2);
  const stackIndex = args.indexOf('--stack');
  const stackDir = stackIndex >= 0 ? path.resolve(args[stackIndex + 1]) : STACK;
  const force = args.includes('--force');
  const started = Date.now();

  ensureDebianPackages(APT_PACKAGES);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (set CHROMIUM to its path)`);

  const layout = stackLayout(stackDir);
  if (!force && !stackProblem(stackDir)) {
    log(`stack ready: code-server ${CODE_SERVER_VERSION} (VS Code ${VSCODE_VERSION}) on node ${NODE_VERSION} in ${stackDir}`);
    return;
  }
  fs.rmSync(layout.stamp, { force: true });
  ensureNode24(layout);
  ensureCodeServer(layout);
  const version = checkCodeServerVersion(layout);
  fs.writeFileSync(
    layout.stamp,
    `${JSON.stringify({ node: NODE_VERSION, codeServer: CODE_SERVER_VERSION, vscode: VSCODE_VERSION, installedAt: new Date().toISOString() }, null, 2)}\n`,
  );
  log(`code-server ${version}`);
  log(`stack ready in ${((Date.now() - started) / 1000).toFixed(1)}s: ${stackDir}`);
}

try {
  main();
} catch (error) {
  console.error(`[install-vscode] FAILED: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
