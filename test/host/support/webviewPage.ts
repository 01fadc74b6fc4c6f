import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';

/** The host's first message as the page carries it (WebviewHost.showPage), if it does. */
export function firstMessageIn(html: string): { id: string; message: unknown } | undefined {
  const block = /<script type="application\/json" id="promptreel-first-message">([^<]*)<\/script>/.exec(html)?.[1];
  return block === undefined ? undefined : (JSON.parse(block) as { id: string; message: unknown });
}

/**
 * Checks the page a webview serves (its HTML as set by the host): `default-src 'none'`, images and styles (and media or
 * fonts when asked) from the webview's resource origin only, one script, the page's bundle, by nonce; no inline script
 * or style. Resolves with the HTML.
 */
export function assertStrictPage(
  webview: vscode.Webview,
  bundle: string,
  allow: { media?: boolean; fonts?: boolean } = {},
  /** The bundle the page loads itself after its first screen, named on its script (by the same nonce). */
  later?: string,
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
    'style-src': source,
    'img-src': source,
    ...(allow.fonts ? { 'font-src': source } : {}),
    ...(allow.media ? { 'media-src': source } : {}),
    'script-src': `'nonce-${nonce}'`,
  });
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]).filter((tag) => !tag.includes('type="application/json"'));
  assert.equal(scripts.length, 1, `one script: ${scripts.join(' ')}`);
  const laterSrc = later ? ` data-later-src="[^"]+/dist/webview/${later}"` : '';
  assert.match(
    scripts[0] ?? '',
    new RegExp(`^<script nonce="${nonce.replace(/[+/=]/g, (char) => `\\${char}`)}" src="[^"]+/dist/webview/${bundle}"${laterSrc}>$`),
  );
  assert.ok(!html.includes('<style'), 'no inline style');
  return html;
}
