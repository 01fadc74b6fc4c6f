import * as assert from 'node:assert/strict';
import { escapeHtml, newNonce, webviewPage } from '../../../src/common/webviewPage';
import { playerHtml } from '../../../src/video/core/playerPage';

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

describe('webview pages (one CSP for every webview)', () => {
  it('allows nothing by default, our files only, and scripts by nonce only', () => {
    const nonce = newNonce();
    const html = webviewPage({
      title: 'Chat',
      cspSource: SOURCE,
      nonce,
      allow: { fonts: true },
      style: { href: `${SOURCE}/chat.css` },
      script: { src: `${SOURCE}/chat.js` },
      body: '<main></main>',
    });
    const policy = csp(html);
    assert.equal(policy.get('default-src'), "'none'");
    assert.equal(policy.get('script-src'), `'nonce-${nonce}'`);
    assert.equal(policy.get('style-src'), SOURCE);
    assert.equal(policy.get('img-src'), SOURCE);
    assert.equal(policy.get('font-src'), SOURCE);
    assert.equal(policy.has('media-src'), false);
    assert.ok(!html.includes('unsafe-'), 'no unsafe-inline or unsafe-eval');
    assert.ok(html.includes(`<script nonce="${nonce}" src="${SOURCE}/chat.js"></script>`), html);
  });

  it('gives an inline style the nonce, and allows media only when asked', () => {
    const html = webviewPage({
      title: 'Player',
      cspSource: SOURCE,
      nonce: 'n1',
      allow: { media: true },
      style: { inline: 'body{}' },
      script: { inline: 'run()' },
      body: '',
    });
    const policy = csp(html);
    assert.equal(policy.get('style-src'), "'nonce-n1'");
    assert.equal(policy.get('media-src'), SOURCE);
    assert.equal(policy.has('font-src'), false);
    assert.match(html, /<style nonce="n1">body\{\}<\/style>/);
    assert.match(html, /<script nonce="n1">run\(\)<\/script>/);
  });

  it('makes a new nonce each time, long enough not to be guessed', () => {
    const nonces = new Set(Array.from({ length: 50 }, () => newNonce()));
    assert.equal(nonces.size, 50);
    for (const nonce of nonces) assert.ok(nonce.length >= 24, nonce);
  });

  it('escapes the title and the addresses', () => {
    const html = webviewPage({
      title: '<img src=x onerror=alert(1)>',
      cspSource: SOURCE,
      nonce: 'n',
      style: { href: 'a"b' },
      script: { src: 'c"d' },
      body: '',
    });
    assert.ok(!html.includes('<img'), html);
    assert.ok(html.includes(`<title>${escapeHtml('<img src=x onerror=alert(1)>')}</title>`));
    assert.ok(!html.includes('a"b') && !html.includes('c"d'));
  });

  it('the player page: a file path cannot end its script, the video comes from our files only', () => {
    const file = '/videos/</script><script>alert(1)</script>.mp4';
    const html = playerHtml({ videoSrc: `${SOURCE}/v.mp4`, cspSource: SOURCE, title: 'A "video"', nonce: 'n2', file });
    assert.equal(html.match(/<script/g)?.length, 1, 'one script: the page’s own');
    assert.equal(csp(html).get('media-src'), SOURCE);
    assert.ok(html.includes('\\u003c/script>'), 'the saved path keeps its < escaped');
  });
});
