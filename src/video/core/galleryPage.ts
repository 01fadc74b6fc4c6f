import { t } from '../../api/l10n';
import { escapeHtml, webviewPage } from '../../common/webviewPage';

/**
 * The gallery's page: our stylesheet and our script (by nonce) only, videos only from the webview's resource origin
 * (`media-src`), no inline script or style, no network. The cards arrive by message after the page says `ready`;
 * the page's texts come with it as a JSON data block (`l10n`), read by the page's `t()`.
 */
export function galleryHtml(options: {
  cspSource: string;
  nonce: string;
  scriptSrc: string;
  styleHref: string;
  l10n?: { language: string; strings: Record<string, string> };
}): string {
  return webviewPage({
    title: t('Promptreel Video Gallery'),
    cspSource: options.cspSource,
    nonce: options.nonce,
    allow: { media: true },
    style: { href: options.styleHref },
    script: { src: options.scriptSrc },
    body: `<main id="gallery" aria-busy="true"><p class="empty">${escapeHtml(t('Loading the video tasks…'))}</p></main>`,
    ...(options.l10n ? { l10n: options.l10n } : {}),
  });
}
