import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { listFiles, PackageManager } from '@vscode/vsce';
import { apiUrl } from '../../../src/api/baseUrl';
import type * as Slim from '../../../src/api/undici/slim';
import { startLocalProxy, type LocalProxy } from '../../service/proxy';
import { useLocalService } from '../support/localService';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface BuildScript {
  buildOptions(options: { production: boolean }): esbuild.BuildOptions[];
}

// esbuild.js only exports its options when required: these are the bundles `npm run package` ships.
const { buildOptions } = require(path.join(ROOT, 'esbuild.js')) as BuildScript;

/** The source files (relative to the repository, `/` separated) that put code into a bundle. */
function inputsOf(metafile: esbuild.Metafile): string[] {
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([file]) => file.replace(/\\/g, '/')),
  );
}

describe('the shipped bundles (esbuild.js)', function () {
  this.timeout(60_000);
  const ctx = useLocalService();
  const metafiles = new Map<string, esbuild.Metafile>();
  let dir: string;
  let proxy: LocalProxy;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-bundles-'));
    for (const options of buildOptions({ production: true }).filter((entry) => entry.platform === 'node')) {
      // The extension's ES modules are split into chunks under an outdir (dist/host); the others are one file each.
      const name = options.outdir ? path.basename(options.outdir) : path.basename(String(options.outfile));
      const out = options.outdir ? { outdir: path.join(dir, name) } : { outfile: path.join(dir, name) };
      const result = await esbuild.build({ ...options, ...out, metafile: true });
      metafiles.set(name, result.metafile);
    }
    proxy = await startLocalProxy();
  });

  after(async () => {
    await proxy.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function metafile(name: string): esbuild.Metafile {
    const found = metafiles.get(name);
    assert.ok(found, `esbuild.js builds ${name}`);
    return found;
  }

  /** The chunks of dist/host (relative to it) that activation loads: the entry and what it imports statically. */
  function loadedAtActivation(): Set<string> {
    const outputs = metafile('host').outputs;
    const key = (file: string) => Object.keys(outputs).find((candidate) => candidate.replace(/\\/g, '/').endsWith(`/host/${file}`)) ?? file;
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of outputs[key(file)]?.imports ?? []) {
        if (imported.kind === 'import-statement' && !imported.external) visit(path.basename(imported.path));
      }
    };
    visit('extension.mjs');
    return loaded;
  }

  function inputsLoadedAtActivation(): string[] {
    const outputs = metafile('host').outputs;
    const loaded = loadedAtActivation();
    return Object.entries(outputs)
      .filter(([file]) => loaded.has(path.basename(file)))
      .flatMap(([, output]) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0))
      .map(([file]) => file.replace(/\\/g, '/'));
  }

  it('is a CommonJS door (dist/extension.js) to ES module chunks, which VS Code can load', () => {
    assert.deepEqual(inputsOf(metafile('extension.js')), ['src/main.ts']);
    const door = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    assert.match(door, /import\(\w+\)/, 'imports the ES modules at activation');
    assert.match(door, /"\.\/host\/extension\.mjs"/);
    assert.ok(fs.existsSync(path.join(dir, 'host', 'extension.mjs')));
    for (const chunk of fs.readdirSync(path.join(dir, 'host')).filter((file) => file.endsWith('.mjs'))) {
      const text = fs.readFileSync(path.join(dir, 'host', chunk), 'utf8');
      // `vscode` and undici.js come through the extension host's require, which an ES module has only by createRequire.
      assert.ok(text.startsWith("import { createRequire as __createRequire } from 'node:module'"), `${chunk} makes its require`);
      assert.doesNotMatch(text, /from\s*["']vscode["']/, `${chunk} does not import vscode as an ES module`);
    }
  });

  it('loads at activation what every window needs, and each feature on its first use, from chunks of its own', () => {
    const atActivation = inputsLoadedAtActivation();
    const lazy = [
      'src/chatPanel/chatFeature.ts',
      'src/chatPanel/core/chatController.ts',
      'src/chatPanel/webview/chatSession.ts',
      'src/editorStream/editorStreamCommands.ts',
      'src/video/videoFlows.ts',
      'src/video/gallery/videoGallery.ts',
      'src/video/player/videoPlayer.ts',
      'src/video/createVideoFlow.ts',
      'src/doctor/core/connectionDoctor.ts',
      'src/participant/answerHandler.ts',
    ];
    for (const module of lazy) {
      assert.ok(!atActivation.includes(module), `${module} is not loaded at activation`);
      assert.ok(inputsOf(metafile('host')).includes(module), `${module} is bundled`);
    }
    for (const module of [
      'src/extension.ts',
      'src/video/videoRuntime.ts',
      'src/video/core/videoPoller.ts',
      'src/video/taskTreeProvider.ts',
      'src/statusBar/chatModelStatusBar.ts',
    ]) {
      assert.ok(atActivation.includes(module), `${module} is loaded at activation`);
    }
  });

  it('keeps undici out of the extension, which requires undici.js only from the lazy loader', () => {
    assert.deepEqual(
      inputsOf(metafile('host')).filter((input) => input.includes('node_modules/undici/')),
      [],
    );
    const chunks = fs.readdirSync(path.join(dir, 'host')).filter((file) => file.endsWith('.mjs'));
    const requires = chunks.map((chunk) => fs.readFileSync(path.join(dir, 'host', chunk), 'utf8').split('("../undici.js")').length - 1);
    assert.equal(
      requires.reduce((sum, count) => sum + count, 0),
      1,
      "one require of ../undici.js (dist/undici.js seen from dist/host; minified, through esbuild's __require)",
    );
  });

  it('builds undici.js from the parts of undici the client uses: no fetch, WebSocket, caches or mocks', () => {
    const inputs = inputsOf(metafile('undici.js'));
    assert.ok(inputs.includes('node_modules/undici/lib/dispatcher/env-http-proxy-agent.js'), inputs.join('\n'));
    // client-h1/h2 keep a lazy require of fetch's body.js (for FormData bodies): that part of lib/web stays.
    const unused = /node_modules\/undici\/lib\/(web\/fetch\/index\.js|web\/(websocket|eventsource|cache|cookies)\/|mock\/|cache\/|interceptor\/)/;
    assert.deepEqual(
      inputs.filter((input) => unused.test(input)),
      [],
    );
  });

  it('bundles zod/mini with the locales of the languages Promptreel speaks only (English, Simplified Chinese): no classic zod', () => {
    const zod = inputsOf(metafile('host')).filter((input) => input.includes('node_modules/zod/'));
    assert.deepEqual(zod.filter((input) => input.includes('/zod/v4/locales/')).sort(), [
      'node_modules/zod/v4/locales/en.js',
      'node_modules/zod/v4/locales/zh-CN.js',
    ]);
    assert.deepEqual(
      zod.filter((input) => input.includes('/zod/v4/classic/')),
      [],
    );
    assert.ok(
      zod.some((input) => input.includes('/zod/v4/mini/')),
      zod.join('\n'),
    );
  });

  it('undici.js as bundled sends requests directly and through a proxy', async () => {
    const slim = require(path.join(dir, 'undici.js')) as typeof Slim;
    const url = apiUrl(ctx.service.baseUrl, 'models');
    const headers = { authorization: `Bearer ${ctx.service.demoKey}` };
    const direct = new slim.Agent();
    const proxied = new slim.EnvHttpProxyAgent({ httpProxy: proxy.url, httpsProxy: proxy.url, noProxy: '' });
    try {
      const answer = await slim.request(url, { method: 'GET', headers, dispatcher: direct });
      assert.equal(answer.statusCode, 200);
      assert.ok(Array.isArray(((await answer.body.json()) as { data?: unknown }).data));
      assert.equal(proxy.records.length, 0);
      const throughProxy = await slim.request(url, { method: 'GET', headers, dispatcher: proxied });
      assert.equal(throughProxy.statusCode, 200);
      await throughProxy.body.dump();
      assert.ok(
        proxy.records.some((record) => record.target.includes(new URL(url).host)),
        JSON.stringify(proxy.records),
      );
    } finally {
      await Promise.all([direct.destroy(), proxied.destroy()]);
    }
  });

  it("builds each webview's page into its own browser bundle from page code only: no zod, no extension-host code", async () => {
    const pages = buildOptions({ production: true }).filter((entry) => entry.platform === 'browser');
    assert.deepEqual(pages.map((entry) => path.basename(String(entry.outfile))).sort(), ['chat.js', 'gallery.js', 'player.js', 'usage.js']);
    for (const options of pages) {
      const name = path.basename(String(options.outfile));
      const result = await esbuild.build({ ...options, outfile: path.join(dir, 'webview', name), metafile: true });
      const inputs = inputsOf(result.metafile);
      const hostCode = inputs.filter((input) => input.startsWith('src/') && !/^src\/(webviewPage\/|[^/]+\/[^/]+\/page\/)/.test(input));
      assert.deepEqual(hostCode, [], `${name} takes only the types of its protocol`);
      assert.deepEqual(
        inputs.filter((input) => input.includes('node_modules/zod/')),
        [],
        name,
      );
      assert.ok(
        inputs.some((input) => input.startsWith('src/webviewPage/')),
        `${name} uses the page kit: ${inputs.join(', ')}`,
      );
    }
  });

  it('packages every bundle and no source map (.vscodeignore)', async () => {
    const staged = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-vsix-'));
    try {
      for (const file of ['package.json', '.vscodeignore']) fs.copyFileSync(path.join(ROOT, file), path.join(staged, file));
      // An outdir's files are named by esbuild: its entry, and a chunk as esbuild names them.
      const bundles = buildOptions({ production: true }).flatMap((options) =>
        options.outdir ? [`${options.outdir}/extension.mjs`, `${options.outdir}/chunk-ABCDEFGH.mjs`] : [String(options.outfile)],
      );
      for (const bundle of [...bundles, ...bundles.map((file) => `${file}.map`)]) {
        fs.mkdirSync(path.dirname(path.join(staged, bundle)), { recursive: true });
        fs.writeFileSync(path.join(staged, bundle), '');
      }
      const listed = (await listFiles({ cwd: staged, packageManager: PackageManager.None })).map((file) => file.replace(/\\/g, '/'));
      for (const bundle of bundles) assert.ok(listed.includes(bundle), `${bundle} is in the VSIX: ${listed.join(', ')}`);
      assert.deepEqual(
        listed.filter((file) => file.endsWith('.map')),
        [],
      );
    } finally {
      fs.rmSync(staged, { recursive: true, force: true });
    }
  });
});
