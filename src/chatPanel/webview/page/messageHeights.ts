// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
import type { MessageView } from '../protocol';

// How tall a message not rendered yet probably is: the spacers stand for such messages, and the page renders as many
// as it guesses fill the view. A guess off by half costs one more pass in the same frame, not a wrong screen; a
// message measures itself once rendered. Figures of chat.css at VS Code's default 13 px font.

const LINE = 19;
const CODE_LINE = 18;
const CHARACTER = 7;
/** The article's padding and border, its header, and the gap below it. */
const FRAME = 16 + 2 + 24 + 8;
/** The toolbar and padding of a code block. */
const CODE_BLOCK = 44;
/** Space between two blocks of markdown (paragraphs, list items). */
const BLOCK_GAP = 8;
/** A line of chips, a usage line, a summary line. */
const ROW = 24;

/** Lines a paragraph of `text` wraps into at `width` pixels. */
function wrappedLines(text: string, width: number): number {
  const perLine = Math.max(8, Math.floor(width / CHARACTER));
  return Math.max(1, Math.ceil(text.length / perLine));
}

/** The height of markdown: code blocks line by line, other text wrapped, a gap per block. */
export function estimateMarkdownHeight(text: string, width: number): number {
  let height = 0;
  let inCode = false;
  let blank = true;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (!inCode) height += CODE_BLOCK;
      inCode = !inCode;
      blank = true;
      continue;
    }
    if (inCode) {
      height += CODE_LINE;
      continue;
    }
    if (!line.trim()) {
      blank = true;
      continue;
    }
    // A list item or a heading starts a block even without a blank line before it.
    if (blank || /^\s*([-*+]|\d+[.)]|#{1,6})\s/.test(line)) height += BLOCK_GAP;
    blank = false;
    height += wrappedLines(line, width) * LINE;
  }
  return height;
}

/** The slot of a message not rendered yet: its article and the gap below it, in pixels, for a list `width` wide. */
export function estimateSlotHeight(message: MessageView, width: number): number {
  const textWidth = Math.max(120, width - 24);
  if (message.role === 'user') {
    const rows = (message.context ? 1 : 0) + (message.mentions.length ? 1 : 0) + (message.images.length ? 1 : 0);
    const lines = message.text.split('\n').reduce((sum, line) => sum + wrappedLines(line, textWidth), 0);
    return FRAME + rows * ROW + lines * LINE;
  }
  const rows = (message.usage || message.cost ? 1 : 0) + (message.reasoning ? 1 : 0) + (message.error ? 2 : 0) + message.toolCalls.length * 2;
  return FRAME + rows * ROW + estimateMarkdownHeight(message.text, textWidth);
}
