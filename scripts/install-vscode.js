#!/usr/bin/env node
// Installs the real-VS-Code test stack into .vscode-test/stack (git-ignored), using only apt and the npm registry:
//   Debian packages (chromium + the toolchain for native modules), node@24 from npm, code-server (VS Code in the browser).
// With --vscode 1.104, the oldest VS Code `engines.vscode` allows (code-server 4.104.0 on node@22) into
// .vscode-test/vscode-1.104 instead (`npm run test:vsix` checks the packaged extension there).
// Idempotent: each step checks what is there (versions included) and skips. Usage:
//   node scripts/install-vscode.js [--vscode 1.139|1.104] [--stack DIR] [--force]
const { spawnSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { APT_PACKAGES, CHROMIUM, NEWEST, STACKS, postinstallMarkers, readJson, ripgrepBinary, stackFor, stackLayout, stackProblem } = require('./vscode/stack');

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

function ensureNode(layout) {
  const want = layout.spec.node;
  const have = fs.existsSync(layout.node) ? nodeVersionOf(layout.node) : undefined;
  if (have === want && fs.existsSync(path.join(layout.nodeHeaders, 'include', 'node', 'node.h'))) {
    log(`node ${have} present`);
    return;
  }
  log(`installing node@${want} from npm (found: ${have || 'none'})`);
  writePackageJson(layout.nodeHome, `promptreel-${path.basename(layout.nodeHome)}`, { node: true });
  run('npm', ['install', '--no-fund', '--no-audit', '--foreground-scripts', `node@${want}`], { cwd: layout.nodeHome, env: cleanNpmEnv(), quiet: true });
  const installed = nodeVersionOf(layout.node);
  if (installed !== want) throw new Error(`node@${want} install failed (binary reports ${installed})`);
}

function codeServerInstalled(layout) {
  const pkg = readJson(path.join(layout.codeServer, 'package.json'));
  return pkg && pkg.version === layout.spec.codeServer && postinstallMarkers(layout).every((file) => fs.existsSync(file));
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

/**
 * npm on the stack's node (code-server's postinstall checks the node version in npm's user agent), building against
 * that node's headers.
 */
function stackNodeEnv(layout) {
  return {
    ...cleanNpmEnv(),
    PATH: `${layout.nodeBinDir}${path.delimiter}${cleanNpmEnv().PATH}`,
    npm_config_nodedir: layout.nodeHeaders, // ~/.npmrc may say nodedir=/usr, i.e. node 20's headers
    npm_config_update_notifier: 'false',
    // code-server 4.104's postinstall refuses to run as root without it (npm 11 has no --unsafe-perm flag).
    npm_config_unsafe_perm: 'true',
    // node-pty 1.1.0-beta33's postinstall (VS Code 1.104) runs `npx node-gyp configure`, which without a terminal
    // fetches node-gyp from the npm registry only when told yes.
    npm_config_yes: 'true',
    // node-gyp compiles each native module with one job unless told: on a fresh machine the stack's install is the
    // longest thing before the host tests can start, and most of it is compiling.
    JOBS: 'max',
  };
}

/**
 * VS Code's own dependencies without their scripts, Debian's `rg` where `@vscode/ripgrep` would download one (its
 * postinstall skips the download when `bin/` exists), then every script: the native modules build for the stack's node.
 * code-server's postinstall, which runs after, then finds lib/vscode installed.
 */
function installVsCodeModulesWithDebianRipgrep(layout, env) {
  const vscodeDir = path.join(layout.codeServer, 'lib', 'vscode');
  run('npm', ['install', '--no-fund', '--no-audit', '--omit=dev', '--ignore-scripts'], { cwd: vscodeDir, env, quiet: true });
  const rg = ripgrepBinary(layout);
  fs.mkdirSync(path.dirname(rg), { recursive: true });
  fs.rmSync(rg, { force: true });
  fs.symlinkSync(RIPGREP, rg);
  run('npm', ['rebuild', '--foreground-scripts'], { cwd: vscodeDir, env, quiet: true });
}

const RIPGREP = '/usr/bin/rg';

function ensureCodeServer(layout) {
  const { codeServer: version, vscode } = layout.spec;
  if (codeServerInstalled(layout)) {
    log(`code-server ${version} present`);
    return;
  }
  log(`installing code-server@${version} (VS Code ${vscode}); a few minutes on 2 cores`);
  const env = stackNodeEnv(layout);
  writePackageJson(layout.dir, 'promptreel-vscode-stack', { 'code-server': true, argon2: true });
  // Without scripts first, then the two packages' scripts explicitly and in the foreground:
  // code-server's postinstall runs `npm install` in lib/vscode and compiles native modules for the stack's node.
  run('npm', ['install', '--no-fund', '--no-audit', '--ignore-scripts', `code-server@${version}`], { cwd: layout.dir, env, quiet: true });
  if (layout.spec.ripgrepFromDebian) installVsCodeModulesWithDebianRipgrep(layout, env);
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
  if (!output.includes(layout.spec.codeServer) || !output.includes(`Code ${layout.spec.vscode}`)) {
    throw new Error(`unexpected code-server --version output: ${output.trim()}`);
  }
  return output.trim().split('\n').pop();
}

function main() {
  const args = process.argv.slice(2);
  const option = (name) => {
    const index = args.indexOf(name);
    return index >= 0 ? args[index + 1] : undefined;
  };
  const wanted = option('--vscode');
  const spec = wanted ? stackFor(wanted) : NEWEST;
  if (!spec) throw new Error(`no stack is pinned for VS Code ${wanted} (pinned: ${Object.keys(STACKS).join(', ')})`);
  const stackDir = option('--stack') ? path.resolve(option('--stack')) : spec.dir;
  const force = args.includes('--force');
  const started = Date.now();

  ensureDebianPackages([...APT_PACKAGES, ...(spec.ripgrepFromDebian ? ['ripgrep'] : [])]);
  if (!fs.existsSync(CHROMIUM)) throw new Error(`chromium not found at ${CHROMIUM} (set CHROMIUM to its path)`);

  const layout = stackLayout(stackDir, spec);
  if (!force && !stackProblem(stackDir, spec)) {
    log(`stack ready: code-server ${spec.codeServer} (VS Code ${spec.vscode}) on node ${spec.node} in ${stackDir}`);
    return;
  }
  fs.rmSync(layout.stamp, { force: true });
  ensureNode(layout);
  ensureCodeServer(layout);
  const version = checkCodeServerVersion(layout);
  fs.writeFileSync(
    layout.stamp,
    `${JSON.stringify({ node: spec.node, codeServer: spec.codeServer, vscode: spec.vscode, installedAt: new Date().toISOString() }, null, 2)}\n`,
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
