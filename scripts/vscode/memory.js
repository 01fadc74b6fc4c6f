// Samples the resident memory of everything a test stage runs: code-server's tree, Chromium, and the rest
// (test runners, the local service). RSS sums count shared pages more than once, so they overstate a little.
const fs = require('fs');
const { taggedPids } = require('./processes');

const PAGE_KIB = 4;

function readProcess(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' '); // fields[0] is the state (field 3 of stat)
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { pid, ppid: Number(fields[1]), comm, cmd, rssKiB: Number(fields[21]) * PAGE_KIB };
  } catch {
    return undefined;
  }
}

function classify(proc) {
  if (/chrom/i.test(proc.comm) || proc.cmd.includes('/chromium')) return 'chromium';
  if (proc.cmd.includes('code-server')) return 'codeServer';
  return 'other';
}

/** Processes below `rootPid` (by parent links) plus those tagged with the run's environment variable. */
function sampleOnce(rootPid, tag) {
  const all = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const proc = readProcess(Number(entry));
    if (proc) all.set(proc.pid, proc);
  }
  const children = new Map();
  for (const proc of all.values()) {
    if (!children.has(proc.ppid)) children.set(proc.ppid, []);
    children.get(proc.ppid).push(proc.pid);
  }
  const picked = new Set();
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    for (const child of children.get(pid) || []) {
      if (!picked.has(child)) {
        picked.add(child);
        stack.push(child);
      }
    }
  }
  if (tag) for (const pid of taggedPids(tag.name, tag.value)) if (all.has(pid)) picked.add(pid);
  const totals = { codeServer: 0, chromium: 0, other: 0 };
  for (const pid of picked) {
    const proc = all.get(pid);
    if (proc) totals[classify(proc)] += proc.rssKiB;
  }
  return totals;
}

/** Starts sampling; `stop()` returns the peaks in MiB. */
function startMemorySampler({ rootPid = process.pid, tag, intervalMs = 500 } = {}) {
  const peak = { codeServer: 0, chromium: 0, total: 0 };
  const take = () => {
    try {
      const sample = sampleOnce(rootPid, tag);
      peak.codeServer = Math.max(peak.codeServer, sample.codeServer);
      peak.chromium = Math.max(peak.chromium, sample.chromium);
      peak.total = Math.max(peak.total, sample.codeServer + sample.chromium + sample.other);
    } catch {
      // /proc unavailable: report zeros
    }
  };
  const timer = setInterval(take, intervalMs);
  timer.unref();
  take();
  return {
    stop() {
      clearInterval(timer);
      const mib = (kib) => Math.round(kib / 1024);
      return { codeServerMiB: mib(peak.codeServer), chromiumMiB: mib(peak.chromium), totalMiB: mib(peak.total) };
    },
  };
}

module.exports = { startMemorySampler, sampleOnce };
