// Starting code-server (VS Code in the browser, real Node extension host) for tests and the demo.
const fs = require('fs');
const http = require('http');
const path = require('path');
const { spawnGroup, freePort, sleep } = require('./processes');
const { requireStack } = require('./stack');

/** The environment code-server and its extension hosts get: node 24 first, no inherited VS Code IPC variables. */
function serverEnv(layout, extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    // Inside a VS Code terminal these would make code-server forward to that window instead of serving.
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') continue;
    // code-server reads these itself (PORT wins over --bind-addr; PASSWORD/HASHED_PASSWORD turn on auth).
    if (['PORT', 'PASSWORD', 'HASHED_PASSWORD', 'CODE_SERVER_CONFIG'].includes(key)) continue;
    env[key] = value;
  }
  return { ...env, PATH: `${layout.nodeBinDir}${path.delimiter}${process.env.PATH}`, ...extra };
}

function profileArgs(profile) {
  return ['--config', profile.configFile, '--user-data-dir', profile.userDataDir, '--extensions-dir', profile.extensionsDir];
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** `code-server --install-extension <vsix|id>` into the profile's extensions dir (of `layout`'s stack; default the newest). */
async function installExtension(profile, vsix, { logFile, timeoutMs = 120000, layout = requireStack() } = {}) {
  const proc = spawnGroup(layout.node, [layout.codeServerEntry, ...profileArgs(profile), '--install-extension', vsix, '--force'], {
    env: serverEnv(layout),
    logFile,
  });
  const timer = setTimeout(() => void proc.stop(), timeoutMs);
  const { code } = await proc.exited;
  clearTimeout(timer);
  await proc.stop(500);
  if (code !== 0) throw new Error(`installing ${vsix} failed (exit ${code}):\n${tail(logFile)}`);
}

function healthy(url) {
  return new Promise((resolve) => {
    const request = http.get(`${url}/healthz`, (response) => {
      response.resume();
      resolve(response.statusCode === 200);
    });
    request.on('error', () => resolve(false));
    request.setTimeout(1000, () => request.destroy());
  });
}

/**
 * Starts code-server on 127.0.0.1 in its own process group and waits until it answers.
 * smokeDriver: needed for `?payload=` (extension tests) and also suppresses notification toasts.
 * locale: VS Code's display language (`zh-cn`), as `--locale` sets it.
 * layout: the stack to run (stack.js; default the newest).
 * Returns { url, port, pgid, startedInMs, exited, folderUrl(folder), stop() }.
 */
async function startCodeServer({ profile, workspace, port, smokeDriver = false, env = {}, logFile, startTimeoutMs = 60000, locale, layout = requireStack() }) {
  // code-server 4.104 has neither option (its VS Code takes `?payload=` without the smoke-test driver).
  const { cliOptions } = layout.spec;
  const chosenPort = port || (await freePort());
  const url = `http://127.0.0.1:${chosenPort}`;
  const args = [
    layout.codeServerEntry,
    ...profileArgs(profile),
    '--bind-addr',
    `127.0.0.1:${chosenPort}`,
    '--auth',
    'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    // A closed tab otherwise keeps its extension host alive for 3 hours.
    ...(cliOptions ? ['--reconnection-grace-time', '30'] : []),
    ...(smokeDriver && cliOptions ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    // VS Code's display language (its own strings stay English without a language pack; extensions' are translated).
    ...(locale ? ['--locale', locale] : []),
    workspace,
  ];
  const started = Date.now();
  const proc = spawnGroup(layout.node, args, { env: serverEnv(layout, env), logFile });
  let exited = false;
  void proc.exited.then(() => (exited = true));
  while (!(await healthy(url))) {
    if (exited || Date.now() - started > startTimeoutMs) {
      await proc.stop(1000);
      throw new Error(`code-server did not start on ${url} (${exited ? 'exited' : 'timeout'}):\n${tail(logFile)}`);
    }
    await sleep(100);
  }
  return {
    url,
    port: chosenPort,
    pgid: proc.pgid,
    startedInMs: Date.now() - started,
    exited: proc.exited,
    folderUrl: (folder) => `${url}/?folder=${encodeURIComponent(folder)}`,
    stop: () => proc.stop(3000),
  };
}

module.exports = { serverEnv, installExtension, startCodeServer };
