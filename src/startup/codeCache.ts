// Pinned by `npm run bench -- --only startup`: a profile's next window, which uses the cache this module writes.
// Loads a CommonJS bundle the way `require` does, but compiled with a V8 code cache kept on disk: a window that starts
// after the first one skips compiling the bundle and the functions its activation ran (issue 28.1, pinned by
// `npm run bench -- --only startup`). Node's own compile cache (`module.enableCompileCache`) would do this for every
// module of the extension host, other extensions' too: this one is ours alone.
//
// Node's fs, synchronously, on purpose: the bundle cannot run before its cache is read, and the cache lives in the
// extension's global storage on the extension host's own disk (see src/start.ts).
// Named imports only: what VS Code loads first stays small (no interop helpers in dist/start.js).
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Script } from 'node:vm';

/** What the cache did for one load: `used` (V8 took it), `rejected` (it did not fit), `none` (there was none). */
export type CodeCacheUse = 'used' | 'rejected' | 'none';

export interface CodeCachedModule {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
  /** Where the load's time went, in ms: reading the bundle and its cache, V8 compiling (or deserializing) it, its top level. */
  readonly phases: { readonly read: number; readonly compile: number; readonly run: number };
  /** The cache file for this bundle's exact text and this V8 (undefined when there is no cache folder). */
  readonly cacheFile: string | undefined;
  /**
   * Writes the cache when it was missing or rejected: what V8 compiled until now, so call it after the bundle's
   * activation ran. Removes the caches of other versions of the bundle. Returns whether a file was written; never throws.
   */
  writeCache(): boolean;
}

// On a line of its own, taken back by `lineOffset`: errors name the bundle's own lines and columns.
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_END = '\n})';

/**
 * Runs `file` as `require(file)` would from `parent` (same module object in `require.cache`, same `require` for what
 * it requires), compiled with the cache in `cacheDir` when there is one that V8 accepts. A bundle already loaded is
 * returned as it is. Without `cacheDir` it only compiles.
 */
export function loadCodeCached(file: string, cacheDir: string | undefined, parent: NodeModule): CodeCachedModule {
  const filename = resolve(file);
  const loaded = require.cache[filename];
  if (loaded) return { exports: loaded.exports, cache: 'none', phases: { read: 0, compile: 0, run: 0 }, cacheFile: undefined, writeCache: () => false };
  const started = performance.now();
  const source = readFileSync(filename, 'utf8');
  const stem = basename(filename, '.js');
  const cacheFile = cacheDir === undefined ? undefined : join(cacheDir, cacheFileName(stem, source));
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const read = performance.now();
  const script = new Script(WRAPPER_START + source + WRAPPER_END, { filename, lineOffset: -1, cachedData });
  const cache: CodeCacheUse = cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';

  const compiled = performance.now();
  const module = new Module(filename, parent as Module);
  module.filename = filename;
  module.paths = parent.paths;
  require.cache[filename] = module;
  try {
    const run = script.runInThisContext() as (...args: unknown[]) => void;
    run.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
  } catch (error) {
    delete require.cache[filename];
    throw error;
  }
  module.loaded = true;
  const phases = { read: read - started, compile: compiled - read, run: performance.now() - compiled };

  let written = false;
  return {
    exports: module.exports,
    cache,
    phases,
    cacheFile,
    writeCache: () => {
      if (cacheFile === undefined || cache === 'used' || written) return false;
      written = writeAtomically(cacheFile, script.createCachedData());
      if (written) removeOtherCaches(cacheFile, stem);
      return written;
    },
  };
}

/**
 * One name per bundle text and V8 version: V8 checks its version and flags itself, but of the source only its length.
 * In one call: a Hash object (createHash().update().digest()) cost a window 2 ms more, in plain Node 24.
 */
function cacheFileName(stem: string, source: string): string {
  const digest = hash('sha256', source).slice(0, 16);
  return `${stem}-${digest}-v8-${process.versions.v8.replace(/[^\w.]/g, '_')}.cache`;
}

function readIfPresent(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Two windows may write the same cache at once: each writes its own file and renames it over the name. */
function writeAtomically(file: string, data: Buffer): boolean {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(temporary, data);
    renameSync(temporary, file);
    return true;
  } catch {
    try {
      rmSync(temporary, { force: true });
    } catch {
      // The folder is not there to hold it either.
    }
    return false;
  }
}

function removeOtherCaches(kept: string, stem: string): void {
  try {
    for (const name of readdirSync(dirname(kept))) {
      if (name !== basename(kept) && name.startsWith(`${stem}-`) && name.endsWith('.cache')) {
        rmSync(join(dirname(kept), name), { force: true });
      }
    }
  } catch {
    // Another window may be removing them too.
  }
}
