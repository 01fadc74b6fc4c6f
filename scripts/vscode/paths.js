// Where the harness keeps things. Everything here is git-ignored (.vscode-test/, .artifacts/).
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const CACHE = path.join(ROOT, '.vscode-test');
const ARTIFACTS = path.join(ROOT, '.artifacts');

module.exports = {
  ROOT,
  CACHE,
  /** node@24 + code-server; PROMPTREEL_VSCODE_STACK points elsewhere (e.g. a scratch install). */
  STACK: process.env.PROMPTREEL_VSCODE_STACK ? path.resolve(process.env.PROMPTREEL_VSCODE_STACK) : path.join(CACHE, 'stack'),
  /** Fresh profiles and workspaces of test runs, wiped at the start of each run. */
  RUNS: path.join(CACHE, 'runs'),
  /** The persistent profile of `npm start`. */
  DEMO: path.join(CACHE, 'demo'),
  ARTIFACTS,
  LOGS: path.join(ARTIFACTS, 'logs'),
  SCREENSHOTS: path.join(ARTIFACTS, 'screenshots'),
  SUMMARY: path.join(ARTIFACTS, 'test-summary.txt'),
  VSIX: path.join(ROOT, 'dist', 'promptreel.vsix'),
  EXTENSION_MAIN: path.join(ROOT, 'dist', 'extension.js'),
  HOST_TESTS_ENTRY: path.join(ROOT, 'out', 'test', 'host', 'index'),
};
