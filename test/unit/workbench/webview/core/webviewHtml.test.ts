import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { escapeHtml, newNonce, webviewHtml, type WebviewHtmlOptions } from '../../../../../src/workbench/webview/core/webviewHtml';

const SOURCE = 'https://file+.vscode-resource.vscode-cdn.net';

function csp(html: string): Map<string, string> {
  const content = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  assert.ok(content, 'the page declares a CSP');
  return new Map(
    content
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .map(([name, ...values]) => [name ?? '', values.join(' ')]),
  );
}

function page(options: Partial<WebviewHtmlOptions> = {}): string {
  return webviewHtml({
    title: 'Chat',
    cspSource: SOURCE,
    nonce: 'n0nce',
    styleHref: `${SOURCE}/media/chat.css`,
    scriptSrc: `${SOURCE}/dist/webview/chat.js`,
    body: '<main></main>',
    ...options,
  });
}

describe('webview pages (one CSP for every webview, src/workbench/webview)', () => {
  it('allows nothing by default, our files only, and scripts by nonce only', () => {
    const nonce = newNonce();
    const html = page({ nonce, allow: { fonts: true } });
    const policy = csp(html);
    assert.equal(policy.get('default-src'), "'none'");
    assert.equal(policy.get('script-src'), `'nonce-${nonce}'`);
    assert.equal(policy.get('style-src'), SOURCE);
    assert.equal(policy.get('img-src'), SOURCE);
    assert.equal(policy.get('font-src'), SOURCE);
    assert.equal(policy.has('media-src'), false);
    assert.ok(!html.includes('unsafe-'), 'no unsafe-inline or unsafe-eval');
    assert.ok(html.includes(`<script nonce="${nonce}" src="${SOURCE}/dist/webview/chat.js"></script>`), html);
    assert.ok(html.includes(`<link rel="stylesheet" href="${SOURCE}/media/chat.css">`), html);
  });

  it('names the bundle the page loads after its first screen on its script element, for the same nonce', () => {
    const html = page({ laterScriptSrc: `${SOURCE}/dist/webview/chat-highlight.js` });
    assert.ok(
      html.includes(`<script nonce="n0nce" src="${SOURCE}/dist/webview/chat.js" data-later-src="${SOURCE}/dist/webview/chat-highlight.js"></script>`),
      html,
    );
    assert.equal(csp(html).get('script-src'), "'nonce-n0nce'");
    assert.ok(!page().includes('data-later-src'), 'none named unless given');
  });

  it("carries the host's first message as a JSON data block that no text in it can close, before the script", () => {
    const message = { type: 'snapshot', text: '</script><script>alert(1)</script> & <!--' };
    const html = page({ firstMessage: { id: 'p1', message } });
    const block = /<script type="application\/json" id="promptreel-first-message">([^<]*)<\/script>\n<script nonce/.exec(html);
    assert.ok(block, html);
    assert.deepEqual(JSON.parse(block[1] ?? ''), { id: 'p1', message });
    assert.equal((html.match(/<\/script>/g) ?? []).length, 2, 'only the data block and the page script close');
    assert.ok(!page().includes('promptreel-first-message'), 'none unless given');
  });

  it('writes the bundle and the stylesheets into the page by the nonce, loading none of them', () => {
    const inline = { script: 'console.log(1 < 2);', styles: ['body { color: red; }', 'main { margin: 0; }'] };
    const html = page({ nonce: 'n0nce', baseStyleHref: `${SOURCE}/media/page.css`, inline, laterScriptSrc: `${SOURCE}/dist/webview/later.js` });
    assert.equal(csp(html).get('style-src'), `${SOURCE} 'nonce-n0nce'`);
    assert.equal(csp(html).get('script-src'), "'nonce-n0nce'");
    assert.ok(html.includes(`<style nonce="n0nce">body { color: red; }</style>\n<style nonce="n0nce">main { margin: 0; }</style>\n</head>`), html);
    assert.ok(html.includes(`<script nonce="n0nce" data-later-src="${SOURCE}/dist/webview/later.js">console.log(1 < 2);</script>`), html);
    assert.ok(!html.includes('<link') && !html.includes(' src='), 'nothing to load');
    // As the bundled sanitizer and markdown parser have it: harmless without a `<script` after it.
    const comment = page({ nonce: 'n0nce', inline: { script: 'const empty = "<!-->";', styles: [] } });
    assert.ok(comment.includes('<script nonce="n0nce">const empty = "<!-->";</script>'), comment);
  });

  it('loads the files as usual when their text could end its element early', () => {
    for (const inline of [
      { script: 'const s = "</script><img src=x onerror=alert(1)>";', styles: [] },
      { script: 'const comment = "<!--"; const tag = "<script>";', styles: [] },
      { script: 'ok()', styles: ['a::after { content: "</style><script>alert(1)</script>"; }'] },
    ]) {
      const html = page({ nonce: 'n0nce', inline });
      assert.equal(csp(html).get('style-src'), SOURCE, JSON.stringify(inline));
      assert.ok(html.includes(`<script nonce="n0nce" src="${SOURCE}/dist/webview/chat.js"></script>`), html);
      assert.ok(!html.includes('<style'), html);
    }
  });

  it("loads the kit's shared stylesheet before the page's own, so the page's rules win", () => {
    const html = page({ baseStyleHref: `${SOURCE}/media/page.css` });
    const base = html.indexOf(`<link rel="stylesheet" href="${SOURCE}/media/page.css">`);
    const own = html.indexOf(`<link rel="stylesheet" href="${SOURCE}/media/chat.css">`);
    assert.ok(base > 0 && own > base, html);
  });

  it('allows media only when asked, and no inline script or style at all', () => {
    const html = page({ allow: { media: true } });
    const policy = csp(html);
    assert.equal(policy.get('media-src'), SOURCE);
    assert.equal(policy.has('font-src'), false);
    assert.ok(!/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")/.test(html), 'no inline script');
    assert.ok(!html.includes('<style'), 'no inline style');
    assert.ok(!/https?:\/\/(?!file\+\.vscode-resource)/.test(html), 'no remote content');
  });

  it('makes a new nonce each time, long enough not to be guessed', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.ok(nonce.length >= 24, nonce);
  });

  it('escapes the title and the addresses', () => {
    const html = page({ title: '<img src=x onerror=alert(1)>', styleHref: 'a"b', scriptSrc: 'c"d', body: '' });
    assert.ok(!html.includes('<img'), html);
    assert.ok(html.includes(`<title>${escapeHtml('<img src=x onerror=alert(1)>')}</title>`));
    assert.ok(!html.includes('a"b') && !html.includes('c"d'));
  });

  it("gives a page the user's language and its translations, never as markup or a script", () => {
    const hostile = '</script><img src=x onerror=alert(1)>';
    const html = page({ l10n: { language: 'zh-CN', strings: { 'Video Gallery': '视频库', Compare: hostile } } });
    assert.match(html, /<html lang="zh-CN"/);
    assert.ok(html.includes('视频库'), 'the translations reach the page');
    assert.ok(!html.includes(hostile) && !html.includes('<img'), 'a translation cannot end its block or add markup');
    assert.equal(html.match(/<script/g)?.length, 2, 'the translations (a JSON data block, never run) and the page’s own script');
    assert.ok(html.includes('<script type="application/json" id="promptreel-l10n">'));
  });

  it("stops every endless animation of the pages' stylesheets for a user who asks for reduced motion", () => {
    const media = path.join(__dirname, '..', '..', '..', '..', '..', '..', 'media');
    const sheets = fs.readdirSync(media).filter((name) => name.endsWith('.css'));
    assert.ok(sheets.includes('chat.css'), `the stylesheets are read from ${media}`);
    for (const sheet of sheets) {
      const css = fs.readFileSync(path.join(media, sheet), 'utf8');
      const reduced = [...css.matchAll(/@media \(prefers-reduced-motion: reduce\) \{([\s\S]*?)\n\}/g)].map((block) => block[1]).join('\n');
      const endless = [...css.matchAll(/([^{}]+)\{[^}]*animation:[^;}]*infinite[^}]*\}/g)].map((rule) => rule[1].trim());
      for (const selector of endless) {
        const stopped = new RegExp(`${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\{[^}]*animation: none`);
        assert.match(reduced, stopped, `${sheet}: "${selector}" keeps moving under prefers-reduced-motion`);
      }
    }
  });
});
