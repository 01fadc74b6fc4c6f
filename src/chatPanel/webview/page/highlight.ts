// Syntax highlighting of code blocks. highlight.js is a third of the page's code, so it is a bundle of its own
// (dist/webview/chat-highlight.js: highlightJs.ts, from highlighterMain.ts) that the page loads once its first screen is shown:
// until then code blocks show as plain text, and those already rendered are highlighted when it arrives (markdown.ts).

/** Highlighted HTML of `code` in the language a fence names, or undefined when the highlighter does not know it. */
export type Highlighter = (code: string, language: string) => string | undefined;

/** The event the highlighter's bundle dispatches on `document` when it has run; its `detail` is the Highlighter. */
export const HIGHLIGHTER_READY = 'promptreel-highlighter-ready';

let highlighter: Highlighter | undefined;

/** From now on, code blocks are highlighted with it. */
export function useHighlighter(value: Highlighter): void {
  highlighter = value;
}

export function hasHighlighter(): boolean {
  return highlighter !== undefined;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The language a fence names (`ts`, `python title="x"` → `python`), lower case; empty when it names none. */
export function fenceLanguage(fence: string | undefined): string {
  return (fence ?? '').trim().split(/\s+/)[0].toLowerCase();
}

/**
 * Highlighted HTML for a code block: escaped text for an unknown language, or while the highlighter has not loaded.
 * The caller sanitizes it with the rest.
 */
export function highlightCode(code: string, fence: string | undefined): { html: string; language: string | undefined } {
  const name = fenceLanguage(fence);
  const html = name && highlighter ? highlighter(code, name) : undefined;
  return html === undefined ? { html: escapeHtml(code), language: undefined } : { html, language: name };
}
