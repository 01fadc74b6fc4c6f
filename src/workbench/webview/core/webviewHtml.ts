import { randomBytes } from 'crypto';

/** A fresh nonce for one page: the only key that lets a script run. */
export function newNonce(): string {
  return randomBytes(18).toString('base64');
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export interface WebviewHtmlOptions {
  title: string;
  /** `webview.cspSource`: the origin of the extension's own files in the webview. */
  cspSource: string;
  nonce: string;
  /** What else the page may load from its own files besides images. */
  allow?: { fonts?: boolean; media?: boolean };
  /** The stylesheet every page shares (media/page.css), loaded first; then the page's own, which may override it. */
  baseStyleHref?: string;
  /** The page's stylesheet, through the webview's resource origin. */
  styleHref: string;
  /** The page's bundle, through the webview's resource origin; it runs by the nonce only. */
  scriptSrc: string;
  /**
   * A bundle the page loads itself once its first screen shows (src/webviewPage/laterScript.ts), named on the page's
   * script element; it runs by the same nonce.
   */
  laterScriptSrc?: string;
  /** The markup of the body until the script runs, without the script. */
  body: string;
  /** The page's translations (key: the English text) and its language; English when absent. */
  l10n?: { language: string; strings: Record<string, string> };
  /**
   * The host's first message, in the page so its first screen needs no round trip to the host (a JSON data block,
   * read by the page's HostChannel; the host still answers `ready`).
   */
  firstMessage?: { id: string; message: unknown };
  /**
   * The page's bundle and stylesheets written into the page, by the nonce, so its first screen waits for no request to
   * the webview's resource loader (`scriptSrc`, `baseStyleHref` and `styleHref` are then not used). Text that could
   * end its element early is not written in: the page then loads the files as usual.
   */
  inline?: PageFiles;
}

/** A page's own files, as written into it. */
export interface PageFiles {
  script: string;
  /** The kit's stylesheet, then the page's. */
  styles: string[];
}

/**
 * Whether the files can be written into the page: nothing in them may end their element. In a script that means no
 * `</script` and no `<script` either (after a `<!--`, which the bundled libraries have in strings, a `<script` would
 * make the parser skip the next `</script>`).
 */
export function canInline(files: PageFiles): boolean {
  return !/<\/?script/i.test(files.script) && files.styles.every((style) => !/<\/style/i.test(style));
}

/** A JSON data block: never run; `<` is escaped so no text in it can close the element. */
function dataBlock(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>\n`;
}

/**
 * Every webview page of Promptreel: `default-src 'none'`, so nothing loads but what is listed here, all of it from
 * the extension itself; styles from its files (or written in by the nonce), scripts by nonce only, and no network.
 */
export function webviewHtml(options: WebviewHtmlOptions): string {
  const { cspSource, nonce } = options;
  const inline = options.inline && canInline(options.inline) ? options.inline : undefined;
  const csp = [
    "default-src 'none'",
    inline ? `style-src ${cspSource} 'nonce-${nonce}'` : `style-src ${cspSource}`,
    `img-src ${cspSource}`,
    options.allow?.fonts ? `font-src ${cspSource}` : '',
    options.allow?.media ? `media-src ${cspSource}` : '',
    `script-src 'nonce-${nonce}'`,
  ]
    .filter(Boolean)
    .join('; ');
  const strings = options.l10n && Object.keys(options.l10n.strings).length ? options.l10n.strings : undefined;
  const l10n = strings ? dataBlock('promptreel-l10n', strings) : '';
  const first = options.firstMessage ? dataBlock('promptreel-first-message', options.firstMessage) : '';
  const later = options.laterScriptSrc ? ` data-later-src="${escapeHtml(options.laterScriptSrc)}"` : '';
  const styles = inline
    ? inline.styles.map((style) => `<style nonce="${nonce}">${style}</style>`).join('\n')
    : `${options.baseStyleHref ? `<link rel="stylesheet" href="${escapeHtml(options.baseStyleHref)}">\n` : ''}<link rel="stylesheet" href="${escapeHtml(options.styleHref)}">`;
  const script = inline
    ? `<script nonce="${nonce}"${later}>${inline.script}</script>`
    : `<script nonce="${nonce}" src="${escapeHtml(options.scriptSrc)}"${later}></script>`;
  return `<!DOCTYPE html>
<html lang="${escapeHtml(options.l10n?.language ?? 'en')}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(options.title)}</title>
${styles}
</head>
<body>
${options.body}
${l10n}${first}${script}
</body>
</html>`;
}
