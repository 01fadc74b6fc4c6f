// Pinned by `npm run bench -- --only startup`: Promptreel's own activation in the real VS Code host.
// What VS Code loads (package.json `main`): compiles dist/extension.js with the V8 code cache of the last window
// (src/startup/codeCache.ts) and hands activation to it. Only Node's modules load here; `vscode` is the bundle's.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as vscode from 'vscode';
import type * as Extension from './extension';
import { loadCodeCached } from './startup/codeCache';
import type { StartupReport } from './startup/startupReport';

/**
 * The cache is written once activation has returned, so it holds what `activate()` compiled and little else: V8 takes
 * longer to read a larger cache, and what runs later is off the activation path. Once per version of the bundle.
 */
const CACHE_WRITE_DELAY_MS = 0;

let extension: typeof Extension | undefined;
let cancelCacheWrite: (() => void) | undefined;

export function activate(context: vscode.ExtensionContext): ReturnType<typeof Extension.activate> {
  const started = performance.now();
  const startedCpu = cpuMs();
  // The global storage of a Node extension host is on the host's own disk; any other scheme gets no cache.
  const storage = context.globalStorageUri;
  const cacheDir = storage.scheme === 'file' ? join(storage.fsPath, 'code-cache') : undefined;
  const located = performance.now();
  const loaded = loadCodeCached(require.resolve('./extension.js'), cacheDir, module);
  extension = loaded.exports as typeof Extension;
  const cacheWritten = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(loaded.writeCache()), CACHE_WRITE_DELAY_MS);
    cancelCacheWrite = () => {
      clearTimeout(timer);
      resolve(false);
    };
  });
  const phases = { locate: located - started, ...loaded.phases, activate: 0, cpu: 0 };
  const startup: StartupReport = { codeCache: loaded.cache, cacheFile: loaded.cacheFile, cacheWritten, phases };
  const activating = performance.now();
  const handles = extension.activate(context, startup);
  phases.activate = performance.now() - activating;
  phases.cpu = cpuMs() - startedCpu;
  return handles;
}

/** CPU time of this thread (Node 23.9+), else of the process, in ms: what activation cost beside the machine's load. */
function cpuMs(): number {
  const usage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage?.() ?? process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

export function deactivate(): ReturnType<typeof Extension.deactivate> {
  cancelCacheWrite?.();
  return extension?.deactivate();
}
