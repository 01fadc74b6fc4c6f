import { Marked, type Token, type TokensList } from 'marked';
import { escapeHtml, highlightCode } from './highlight';

// Markdown → HTML strings with `marked` (no DOM here, so Node tests can run it). The HTML is not safe yet:
// markdown.ts sanitizes it before it reaches the page.

/**
 * Marks the `<pre>` of fenced code blocks, the only ones that get a toolbar. Random per page load: a reply's own HTML
 * cannot guess it, so it cannot dress its markup up as a code block whose buttons do something else.
 */
export const CODE_BLOCK_MARK = globalThis.crypto.randomUUID();

const marked = new Marked({
  gfm: true,
  breaks: false,
  renderer: {
    code({ text, lang }) {
      const { html, language } = highlightCode(text, lang);
      const fence = (lang ?? '').trim().split(/\s+/)[0];
      return `<pre data-block="${CODE_BLOCK_MARK}"><code class="hljs${language ? ` language-${language}` : ''}" data-lang="${escapeHtml(fence)}">${html}</code></pre>\n`;
    },
    // Images would load from anywhere; the page's CSP blocks them anyway, so show a link instead of a broken picture.
    image({ href, text }) {
      return `<a href="${escapeHtml(href)}">${escapeHtml(text || href)}</a>`;
    },
  },
});

export function lex(markdown: string): TokensList {
  return marked.lexer(markdown);
}

export function tokensToHtml(tokens: Token[], links: TokensList['links']): string {
  return marked.parser(Object.assign([...tokens], { links }) as TokensList);
}

export function markdownToHtml(markdown: string): string {
  return marked.parse(markdown, { async: false });
}

export interface StreamSplit {
  /** Blocks a later block has closed: they will not change any more. */
  closed: Token[];
  /** Characters of the text the closed blocks cover. */
  closedChars: number;
  /** The last block, still growing (and the blank lines after it). */
  open: Token[];
  links: TokensList['links'];
}

/**
 * Splits the not-yet-rendered part of a growing markdown text into closed blocks and the open last one.
 * Nothing is closed when the tokens do not cover the text exactly (their lengths would not say where the open
 * block starts).
 */
export function splitStreamingMarkdown(rest: string): StreamSplit {
  const tokens = lex(rest);
  let last = tokens.length - 1;
  while (last > 0 && tokens[last].type === 'space') last--;
  if (last > 0) {
    const closed = tokens.slice(0, last);
    const raw = closed.map((token) => token.raw).join('');
    if (rest.startsWith(raw)) return { closed, closedChars: raw.length, open: tokens.slice(last), links: tokens.links };
  }
  return { closed: [], closedChars: 0, open: [...tokens], links: tokens.links };
}

/** CR and CRLF become LF (as marked does); a CR at the very end waits, it may be the first half of a CRLF. */
export function normalizeNewlines(source: string): string {
  const settled = source.endsWith('\r') ? source.slice(0, -1) : source;
  return settled.replace(/\r\n?/g, '\n');
}
