import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { buildScript, pageEntry } from '../../../../bench/support/buildScript';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');

describe("bench: the chat panel part finds the chat page through esbuild.js's PAGES (bench/support/buildScript.ts)", () => {
  it('finds the entry esbuild.js builds dist/webview/chat.js from', () => {
    assert.equal(pageEntry(buildScript().PAGES, 'chat.js', ROOT), 'src/chatPanel/webview/page/main.ts');
  });

  it('fails, naming the path, when the entry was moved without esbuild.js, or no page builds the bundle', () => {
    assert.throws(
      () => pageEntry({ 'src/webview/chat/main.ts': 'chat.js' }, 'chat.js', ROOT),
      /esbuild\.js builds dist\/webview\/chat\.js from src\/webview\/chat\/main\.ts, which does not exist/,
    );
    assert.throws(
      () => pageEntry({ 'src/video/gallery/page/main.ts': 'gallery.js' }, 'chat.js', ROOT),
      /esbuild\.js builds no dist\/webview\/chat\.js \(its PAGES: gallery\.js\)/,
    );
  });
});
