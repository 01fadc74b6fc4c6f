import { randomBytes } from 'crypto';

/** A fresh nonce for one page: the only key that lets a script (or an inline style) run. */
export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface WebviewPageOptions {
  title: string;
  /** `webview.cspSource`: the origin of the extension's own files in the webview. */
  cspSource: string;
  nonce: string;
  /** What else the page may load from its own files besides images. */
  allow?: { fonts?: boolean; media?: boolean };
  /** A stylesheet of the extension, or an inline one (allowed by the nonce). */
  style: { href: string } | { inline: string };
  /** A script of the extension, or an inline one; both run by the nonce only. */
  script: { src: string } | { inline: string };
  /** The markup of the body, without the script. */
  body: string;
  /** The page's translations (key: the English text) and its language; English when absent. */
  l10n?: { language: string; strings: Record<string, string> };
}

/**
 * Every webview page of Promptreel: `default-src 'none'`, so nothing loads but what is listed here, all of it from
 * the extension itself; scripts run by nonce only, and there is no network at all.
 */
export function webviewPage(options: WebviewPageOptions): string {
  const { cspSource, nonce } = options;
  const csp = [
    "default-src 'none'",
    `style-src ${'href' in options.style ? cspSource : `'nonce-${nonce}'`}`,
    `img-src ${cspSource}`,
    options.allow?.fonts ? `font-src ${cspSource}` : '',
    options.allow?.media ? `media-src ${cspSource}` : '',
    `script-src 'nonce-${nonce}'`,
  ]
    .filter(Boolean)
    .join('; ');
  const style =
    'href' in options.style ? `<link rel="stylesheet" href="${escapeHtml(options.style.href)}">` : `<style nonce="${nonce}">${options.style.inline}</style>`;
  const script =
    'src' in options.script
      ? `<script nonce="${nonce}" src="${escapeHtml(options.script.src)}"></script>`
      : `<script nonce="${nonce}">${options.script.inline}</script>`;
  const strings = options.l10n && Object.keys(options.l10n.strings).length ? options.l10n.strings : undefined;
  // A JSON data block is never run; `<` is escaped so no text in it can close the element.
  const l10n = strings ? `<script type="application/json" id="promptreel-l10n">${JSON.stringify(strings).replace(/</g, '\\u003c')}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.l10n?.language ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
${style}
</head>
<body>
${options.body}
${l10n}${script}
</body>
</html>`;
}
