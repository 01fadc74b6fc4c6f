// Process groups: every long-lived process is started as the leader of its own group (setsid), so the whole tree
// (code-server, its extension hosts, file watchers, pty hosts) can be stopped at once with kill(-pgid).
const { spawn } = require('child_process');
const fs = require('fs');
const net = require('net');

/** Groups started by this process that are still running; stopped on exit and on SIGINT/SIGTERM/SIGHUP. */
const liveGroups = new Set();
const cleanups = new Set();

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `command` as a new session + process group. Output goes to `logFile` (appended) or is inherited.
 * Returns { child, pgid, exited: Promise<{code, signal}>, stop(graceMs) }.
 */
function spawnGroup(command, args, { cwd, env, logFile, stdio } = {}) {
  let out = 'ignore';
  if (logFile) out = fs.openSync(logFile, 'a');
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true, // setsid(): own session and process group
    stdio: stdio || ['ignore', out, out],
  });
  if (typeof out === 'number') fs.closeSync(out);
  const pgid = child.pid;
  if (pgid === undefined) throw new Error(`could not start ${command}`);
  liveGroups.add(pgid);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: -1, signal: null }));
  });
  return {
    child,
    pgid,
    exited,
    stop: (graceMs) => stopGroup(pgid, graceMs),
  };
}

/** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves when no member is left. */
async function stopGroup(pgid, graceMs = 3000) {
  if (groupAlive(pgid)) {
    signalGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(50);
    if (groupAlive(pgid)) {
      signalGroup(pgid, 'SIGKILL');
      while (groupAlive(pgid) && Date.now() < deadline + 2000) await sleep(50);
    }
  }
  liveGroups.delete(pgid);
}

/** Registers an async cleanup (e.g. closing a browser) that runs on SIGINT/SIGTERM before the groups are killed. */
function onShutdown(cleanup) {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.error(`\n[harness] ${signal}: stopping everything`);
  const timer = setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), 10000);
  for (const cleanup of cleanups) {
    try {
      await cleanup();
    } catch {
      // keep going: the groups below must still be stopped
    }
  }
  await Promise.all([...liveGroups].map((pgid) => stopGroup(pgid, 2000)));
  clearTimeout(timer);
  process.exit(signal === 'SIGINT' ? 130 : 143);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void shutdown(signal));
// Last resort on a normal or error exit: nothing may outlive us.
process.on('exit', () => {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
});

/** A free TCP port on 127.0.0.1 (or `preferred` when it is free). */
function freePort(preferred = 0) {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', (error) => {
      if (preferred !== 0 && error.code === 'EADDRINUSE') resolve(freePort(0));
      else reject(error);
    });
    server.listen(preferred, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Pids of processes whose environment carries `NAME=value` (how a run tags everything it starts). */
function taggedPids(name, value) {
  const wanted = `${name}=${value}`;
  const pids = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const environ = fs.readFileSync(`/proc/${entry}/environ`, 'latin1');
      if (environ.includes(wanted) && environ.split('\0').includes(wanted)) pids.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return pids;
}

/** Kills every process carrying the tag: a safety net for anything a crashed child left behind. Returns how many. */
function killTagged(name, value) {
  const pids = taggedPids(name, value);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  return pids.length;
}

module.exports = { spawnGroup, stopGroup, groupAlive, onShutdown, freePort, taggedPids, killTagged, sleep };
