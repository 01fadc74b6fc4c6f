import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { listFiles, PackageManager } from '@vscode/vsce';
import { apiUrl } from '../../../src/api/baseUrl';
import { canInline } from '../../../src/workbench/webview/core/webviewHtml';
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
      // The extension host's split is written into an outdir (dist) beside the other bundles, as in dist.
      const name = options.splitting ? 'extension.js' : path.basename(String(options.outfile));
      const out = options.outdir ? { outdir: dir } : { outfile: path.join(dir, name) };
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

  /** The host's split: each of its files (in `dir`) by name. */
  function hostOutputs(): Map<string, esbuild.Metafile['outputs'][string]> {
    return new Map(Object.entries(metafile('extension.js').outputs).map(([file, output]) => [path.basename(file), output]));
  }

  /** The files (in `dir`) that activation loads: extension.js and what it imports statically. */
  function loadedAtActivation(): Set<string> {
    const outputs = hostOutputs();
    const loaded = new Set<string>();
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      for (const imported of outputs.get(file)?.imports ?? []) {
        if (imported.kind === 'import-statement' && !imported.external) visit(path.basename(imported.path));
      }
    };
    visit('extension.js');
    return loaded;
  }

  function inputsLoadedAtActivation(): string[] {
    const loaded = loadedAtActivation();
    return [...hostOutputs()]
      .filter(([file]) => loaded.has(file))
      .flatMap(([, output]) => Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0))
      .map(([file]) => file.replace(/\\/g, '/'));
  }

  function hostChunks(): string[] {
    return [...hostOutputs().keys()].filter((file) => file.endsWith('.js'));
  }

  it('writes the extension host as CommonJS chunks: dist/extension.js requires the ones it needs, vscode once', () => {
    assert.ok(hostChunks().includes('extension.js'));
    let vscodeRequires = 0;
    for (const chunk of hostChunks()) {
      const text = fs.readFileSync(path.join(dir, chunk), 'utf8');
      assert.doesNotMatch(text, /(^|[;}])\s*(import|export)\s*[{*\w"']/m, `${chunk} has no ES module syntax left`);
      assert.doesNotMatch(text, /\bimport\(/, `${chunk} loads other chunks by require, not import()`);
      vscodeRequires += text.match(/\("vscode"\)/g)?.length ?? 0;
    }
    // The API object itself, required once and shared by every chunk (see vscodeApiObject in esbuild.js).
    assert.equal(vscodeRequires, 1);
    const entry = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    assert.match(entry, /require\("\.\/chatFeature-[A-Z0-9]{8}\.js"\)/, 'the chat panel is required on first use');
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
      // The client's requests, schemas and SSE decoding load with its first call (connection/lazyClient.ts).
      'src/api/client.ts',
      'src/api/transport.ts',
      'src/api/chat/sse.ts',
      'src/api/video/download.ts',
    ];
    const all = inputsOf(metafile('extension.js'));
    for (const module of lazy) {
      assert.ok(!atActivation.includes(module), `${module} is not loaded at activation`);
      assert.ok(all.includes(module), `${module} is bundled`);
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

  it("issue 28.1: keeps zod's utilities out of activation: no schema at activation uses z.catch (src/api/tolerant.ts)", () => {
    // zod/mini's catch reads `core.util.constantCatch`, which makes esbuild build the whole `util` namespace (13 KB).
    const activation = fs.readFileSync(path.join(dir, 'extension.js'), 'utf8');
    assert.doesNotMatch(activation, /BIGINT_FORMAT_RANGES/, "zod's util namespace is not in dist/extension.js");
    assert.ok(inputsLoadedAtActivation().includes('node_modules/zod/v4/core/util.js'), 'the utilities the schemas call are');
  });

  it('keeps undici out of the extension, which requires undici.js only from the lazy loader', () => {
    assert.deepEqual(
      inputsOf(metafile('extension.js')).filter((input) => input.includes('node_modules/undici/')),
      [],
    );
    const requires = hostChunks().map((chunk) => fs.readFileSync(path.join(dir, chunk), 'utf8').split('("./undici.js")').length - 1);
    assert.equal(
      requires.reduce((sum, count) => sum + count, 0),
      1,
      'one require of ./undici.js',
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
    const zod = inputsOf(metafile('extension.js')).filter((input) => input.includes('node_modules/zod/'));
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
    assert.deepEqual(pages.map((entry) => path.basename(String(entry.outfile))).sort(), [
      'chat-highlight.js',
      'chat.js',
      'film.js',
      'gallery.js',
      'player.js',
      'usage.js',
    ]);
    const highlightJs = (inputs: string[]) => inputs.filter((input) => input.includes('node_modules/highlight.js/'));
    for (const options of pages) {
      const name = path.basename(String(options.outfile));
      const result = await esbuild.build({ ...options, outfile: path.join(dir, 'webview', name), metafile: true });
      const inputs = inputsOf(result.metafile);
      if (name === 'chat-highlight.js') {
        // highlight.js alone, which the chat page loads after its first screen.
        assert.ok(highlightJs(inputs).length > 0, inputs.join(', '));
        continue;
      }
      assert.deepEqual(highlightJs(inputs), [], `${name} leaves highlight.js to chat-highlight.js`);
      if (name === 'chat.js') {
        // The chat page is written into its HTML (WebviewHost.pageFiles): nothing in it may end its element early.
        const script = fs.readFileSync(path.join(dir, 'webview', name), 'utf8');
        const styles = ['page.css', 'chat.css'].map((file) => fs.readFileSync(path.join(ROOT, 'media', file), 'utf8'));
        assert.ok(canInline({ script, styles }), 'the chat page can be written into its HTML');
      }
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
      // The split's files are named by esbuild: its entry, and a chunk as esbuild names them.
      const bundles = buildOptions({ production: true }).flatMap((options) =>
        options.splitting ? [`${options.outdir}/extension.js`, `${options.outdir}/chunk-ABCDEFGH.js`] : [String(options.outfile)],
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
