// Samples the resident memory of everything a test stage runs: code-server's tree, Chromium, and the rest
// (test runners, the local service). RSS sums count shared pages more than once, so they overstate a little.
// Also the CPU time its processes used (each process's user + system time at its last sample: a process that lived
// less than a sampling interval, or the part of one after its last sample, is missed), to tell waiting from working.
const fs = require('fs');
const { taggedPids } = require('./processes');

const PAGE_KIB = 4;
const CLOCK_TICKS_PER_SECOND = 100;

function readProcess(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' '); // fields[0] is the state (field 3 of stat)
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    const cpuTicks = Number(fields[11]) + Number(fields[12]); // utime + stime
    return { pid, ppid: Number(fields[1]), comm, cmd, rssKiB: Number(fields[21]) * PAGE_KIB, cpuTicks, started: fields[19] };
  } catch {
    return undefined;
  }
}

function classify(proc) {
  if (/chrom/i.test(proc.comm) || proc.cmd.includes('/chromium')) return 'chromium';
  if (proc.cmd.includes('code-server')) return 'codeServer';
  return 'other';
}

/** `rootPid`, the processes below it (by parent links) and those tagged with the run's environment variable. */
function sampleOnce(rootPid, tag, cpu = new Map()) {
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
  const picked = new Set(all.has(rootPid) ? [rootPid] : []);
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
    if (!proc) continue;
    totals[classify(proc)] += proc.rssKiB;
    cpu.set(`${pid}:${proc.started}`, { kind: classify(proc), ticks: proc.cpuTicks }); // keyed with the start time: pids are reused
  }
  return totals;
}

/** Starts sampling; `stop()` returns the peaks in MiB and the CPU seconds used. */
function startMemorySampler({ rootPid = process.pid, tag, intervalMs = 500 } = {}) {
  const peak = { codeServer: 0, chromium: 0, total: 0 };
  const cpu = new Map();
  const take = () => {
    try {
      const sample = sampleOnce(rootPid, tag, cpu);
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
      const seconds = (kind) => {
        const ticks = [...cpu.values()].filter((entry) => !kind || entry.kind === kind).reduce((sum, entry) => sum + entry.ticks, 0);
        return Math.round((ticks / CLOCK_TICKS_PER_SECOND) * 10) / 10;
      };
      return {
        codeServerMiB: mib(peak.codeServer),
        chromiumMiB: mib(peak.chromium),
        totalMiB: mib(peak.total),
        cpuSeconds: seconds(),
        codeServerCpuSeconds: seconds('codeServer'),
        chromiumCpuSeconds: seconds('chromium'),
      };
    },
  };
}

module.exports = { startMemorySampler, sampleOnce };
