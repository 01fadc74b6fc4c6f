import { webviewPage } from '../../common/webviewPage';

/**
 * The gallery's page: our stylesheet and our script (by nonce) only, videos only from the webview's resource origin
 * (`media-src`), no inline script or style, no network. The cards arrive by message after the page says `ready`.
 */
export function galleryHtml(options: { cspSource: string; nonce: string; scriptSrc: string; styleHref: string }): string {
  return webviewPage({
    title: 'Promptreel Video Gallery',
    cspSource: options.cspSource,
    nonce: options.nonce,
    allow: { media: true },
    style: { href: options.styleHref },
    script: { src: options.scriptSrc },
    body: '<main id="gallery" aria-busy="true"><p class="empty">Loading the video tasks…</p></main>',
  });
}
