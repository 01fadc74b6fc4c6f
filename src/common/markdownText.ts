// Text that did not come from Promptreel (a server, a model, a folder's settings, the user) put into Markdown: shown as
// it is, never as a link, an image or emphasis.

/** Text as text: every character Markdown gives a meaning is escaped. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~]/g, (char) => `\\${char}`);
}

/** One inline code span (no backtick or line break can end it early): for ids and names shown as they are. */
export function codeSpan(text: string): string {
  return `\`${text.replace(/`/g, "'").replace(/\s+/g, ' ')}\``;
}
