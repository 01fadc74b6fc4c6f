import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadCodeCached } from '../../../src/startup/codeCache';

const CODE_CACHE_MODULE = path.resolve(__dirname, '..', '..', '..', 'src', 'startup', 'codeCache.js');

interface WindowLoad {
  cache: string;
  cacheFile: string | null;
  answer: unknown;
  written: boolean;
}

/**
 * A window's start in a process of its own, as VS Code's extension host is: V8 keeps what it compiled per process,
 * so only a new process shows whether the cache on disk is used.
 */
function loadInNewProcess(bundle: string, cacheDir: string): WindowLoad {
  return JSON.parse(execFileSync(process.execPath, ['-e', windowScript(bundle, cacheDir)], { encoding: 'utf8' })) as WindowLoad;
}

function windowScript(bundle: string, cacheDir: string): string {
  return `
    const { loadCodeCached } = require(${JSON.stringify(CODE_CACHE_MODULE)});
    const loaded = loadCodeCached(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)}, module);
    const answer = loaded.exports.answer();
    const written = loaded.writeCache();
    process.stdout.write(JSON.stringify({ cache: loaded.cache, cacheFile: loaded.cacheFile ?? null, answer, written }));
  `;
}

/** `loadInNewProcess`, without blocking: two windows starting at the same time. */
function loadInNewProcessAsync(bundle: string, cacheDir: string): Promise<WindowLoad> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', windowScript(bundle, cacheDir)], { encoding: 'utf8' }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as WindowLoad),
    );
  });
}

describe('loadCodeCached: the bundle compiled with the V8 code cache of the last window (src/start.ts)', () => {
  let dir: string;
  let cacheDir: string;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-code-cache-'));
    cacheDir = path.join(dir, 'global-storage', 'code-cache');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function writeBundle(name: string, text: string): string {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  }

  const bundleText = (answer: string) =>
    `const dep = require('./dep.js');\n` +
    `globalThis.__codeCacheRuns = (globalThis.__codeCacheRuns ?? 0) + 1;\n` +
    `exports.answer = () => dep.prefix + ${JSON.stringify(answer)};\n` +
    `exports.file = __filename; exports.dir = __dirname; exports.self = module;\n`;

  it('runs the bundle as require would: one module in require.cache, its own require, __filename and __dirname', () => {
    writeBundle('dep.js', "exports.prefix = 'from dep: ';");
    const bundle = writeBundle('extension.js', bundleText('one'));
    const holder = globalThis as { __codeCacheRuns?: number };
    delete holder.__codeCacheRuns;
    try {
      const loaded = loadCodeCached(bundle, undefined, module);
      const exports = loaded.exports as { answer(): string; file: string; dir: string; self: NodeModule };
      assert.equal(exports.answer(), 'from dep: one');
      assert.equal(exports.file, bundle);
      assert.equal(exports.dir, dir);
      assert.equal(require.cache[bundle], exports.self);
      assert.equal(exports.self.loaded, true);
      assert.equal(loaded.cache, 'none');
      assert.equal(loaded.cacheFile, undefined);
      assert.equal(loaded.writeCache(), false, 'no cache folder: nothing written');
      // A chunk requiring the bundle gets this module, not a second run of it.
      assert.equal(require(bundle), exports);
      assert.equal(loadCodeCached(bundle, cacheDir, module).exports, exports);
      assert.equal(holder.__codeCacheRuns, 1);
    } finally {
      delete require.cache[bundle];
      delete require.cache[path.join(dir, 'dep.js')];
      delete holder.__codeCacheRuns;
    }
  });

  it("writes the cache after the first window's start; the next window's V8 takes it", () => {
    writeBundle('dep.js', "exports.prefix = '';");
    const bundle = writeBundle('extension.js', bundleText('cached'));
    const first = loadInNewProcess(bundle, cacheDir);
    assert.deepEqual({ cache: first.cache, answer: first.answer, written: first.written }, { cache: 'none', answer: 'cached', written: true });
    assert.ok(first.cacheFile && fs.statSync(first.cacheFile).size > 0, `a cache file: ${first.cacheFile}`);
    assert.equal(path.dirname(first.cacheFile), cacheDir);
    assert.match(path.basename(first.cacheFile), /^extension-[0-9a-f]{16}-v8-[\w.]+\.cache$/);

    const next = loadInNewProcess(bundle, cacheDir);
    assert.deepEqual(next, { ...first, cache: 'used', written: false });
  });

  it('keys the cache by the bundle’s text: a new version compiles afresh, and its cache replaces the old one', () => {
    writeBundle('dep.js', "exports.prefix = '';");
    const bundle = writeBundle('extension.js', bundleText('old'));
    const old = loadInNewProcess(bundle, cacheDir);
    // Same length, other text: V8 itself would take the old cache for it (it checks only the source's length).
    writeBundle('extension.js', bundleText('new'));
    const updated = loadInNewProcess(bundle, cacheDir);
    assert.equal(updated.cache, 'none');
    assert.equal(updated.answer, 'new');
    assert.notEqual(updated.cacheFile, old.cacheFile);
    assert.deepEqual(fs.readdirSync(cacheDir), [path.basename(String(updated.cacheFile))]);
  });

  it('windows starting together leave one cache the next window takes, and no temporary file', async () => {
    writeBundle('dep.js', "exports.prefix = '';");
    const bundle = writeBundle('extension.js', bundleText('together'));
    // Whichever way they interleave (both compile and write, or one finds the other's cache), each runs the bundle.
    const windows = await Promise.all([1, 2, 3].map(() => loadInNewProcessAsync(bundle, cacheDir)));
    assert.deepEqual(
      windows.map((window) => window.answer),
      ['together', 'together', 'together'],
    );
    assert.ok(
      windows.some((window) => window.written),
      'a cache was written',
    );
    assert.deepEqual(
      fs.readdirSync(cacheDir).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left behind',
    );
    assert.equal(loadInNewProcess(bundle, cacheDir).cache, 'used');
  });

  it('compiles without a cache V8 refuses, and writes a good one in its place', () => {
    writeBundle('dep.js', "exports.prefix = '';");
    const bundle = writeBundle('extension.js', bundleText('rejected'));
    const first = loadInNewProcess(bundle, cacheDir);
    fs.writeFileSync(String(first.cacheFile), Buffer.from('not a code cache'));
    const broken = loadInNewProcess(bundle, cacheDir);
    assert.deepEqual({ cache: broken.cache, answer: broken.answer, written: broken.written }, { cache: 'rejected', answer: 'rejected', written: true });
    assert.equal(loadInNewProcess(bundle, cacheDir).cache, 'used');
  });

  it('still loads when the cache cannot be written (the storage folder is a file)', () => {
    writeBundle('dep.js', "exports.prefix = '';");
    const bundle = writeBundle('extension.js', bundleText('unwritable'));
    fs.mkdirSync(path.dirname(cacheDir), { recursive: true });
    fs.writeFileSync(cacheDir, 'in the way');
    const loaded = loadInNewProcess(bundle, cacheDir);
    assert.deepEqual({ cache: loaded.cache, answer: loaded.answer, written: loaded.written }, { cache: 'none', answer: 'unwritable', written: false });
    assert.deepEqual(
      fs.readdirSync(path.dirname(cacheDir)).filter((name) => name.endsWith('.tmp')),
      [],
      'no temporary file left behind',
    );
  });

  it('leaves no half-loaded module behind when the bundle throws, and the error names the line and column in the file', () => {
    const bundle = writeBundle('extension.js', "exports.early = true; throw new Error('broken bundle');\n");
    assert.throws(
      () => loadCodeCached(bundle, cacheDir, module),
      (error: unknown) => error instanceof Error && /broken bundle/.test(error.message) && error.stack?.includes(`${bundle}:1:29`) === true,
    );
    assert.equal(require.cache[bundle], undefined);
  });
});
