import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './extension';

/** The host's first message as the page carries it (WebviewHost.showPage), if it does. */
export function firstMessageIn(html: string): { id: string; message: unknown } | undefined {
  const block = /<script type="application\/json" id="promptreel-first-message">([^<]*)<\/script>/.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as { id: string; message: unknown });
}

/**
 * Checks the page a webview serves (its HTML as set by the host): `default-src 'none'`, images and styles (and media or
 * fonts when asked) from the webview's resource origin only, one script, the page's bundle, by nonce; no other inline
 * script or style. With `inline`, the bundle and the stylesheets (`media/page.css`, then `media/<inline.style>`) are
 * written into the page by the nonce, exactly as the extension has them. Resolves with the HTML.
 */
export function assertStrictPage(
  webview: vscode.Webview,
  bundle: string,
  allow: { media?: boolean; fonts?: boolean } = {},
  written: {
    /** The bundle the page loads itself after its first screen, named on its script (by the same nonce). */
    later?: string;
    /** The page's own stylesheet, when its files are written into it. */
    inline?: { style: string };
  } = {},
): string {
  const html = webview.html;
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the page declares a CSP');
  const csp = Object.fromEntries(
    content
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name ?? '', values.join(' ')]),
  );
  const nonce = /^'nonce-([^']+)'$/.exec(csp['script-src'] ?? '')?.[1];
  assert.ok(nonce, `scripts run by nonce: ${content}`);
  const source = webview.cspSource;
  assert.deepEqual(csp, {
    'default-src': "'none'",
    'style-src': written.inline ? `${source} 'nonce-${nonce}'` : source,
    'img-src': source,
    ...(allow.fonts ? { 'font-src': source } : {}),
    ...(allow.media ? { 'media-src': source } : {}),
    'script-src': `'nonce-${nonce}'`,
  });
  // What is written in is the extension's own files, whole; the rest of the page is checked without them.
  let rest = html;
  if (written.inline) {
    for (const file of [`dist/webview/${bundle}`, 'media/page.css', `media/${written.inline.style}`]) {
      const text = fs.readFileSync(path.join(extensionPath(), file), 'utf8');
      assert.ok(rest.includes(text), `${file} is written into the page`);
      rest = rest.replace(text, '');
    }
  }
  const scripts = [...rest.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('type="application/json"'));
  assert.equal(scripts.length, 1, `one script: ${scripts.join(' ')}`);
  const escapedNonce = nonce.replace(/[+/=]/g, (char) => `\\${char}`);
  const laterSrc = written.later ? ` data-later-src="[^"]+/dist/webview/${written.later}"` : '';
  const src = written.inline ? '' : ` src="[^"]+/dist/webview/${bundle}"`;
  assert.match(scripts[0] ?? '', new RegExp(`^<script nonce="${escapedNonce}"${src}${laterSrc}>$`));
  if (written.inline) {
    assert.ok(rest.includes(`${scripts[0]}</script>`), 'the inline script is the bundle alone');
    assert.deepEqual(rest.match(/<style\b[^>]*>[^<]*<\/style>/g), [`<style nonce="${nonce}"></style>`, `<style nonce="${nonce}"></style>`]);
    assert.ok(!rest.includes('<link'), 'no stylesheet to load');
  } else {
    assert.ok(!html.includes('<style'), 'no inline style');
  }
  return html;
}

function extensionPath(): string {
  const extension = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is loaded`);
  return extension.extensionPath;
}
