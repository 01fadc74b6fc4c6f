// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
import { el } from '../../../webviewPage/dom';
import type { FrameScheduler } from './frameScheduler';
import type { Token, Tokens } from 'marked';
import { renderCodeLines, renderTokens } from './markdown';
import { normalizeNewlines, splitStreamingMarkdown } from './markdownParser';

/**
 * Renders a markdown text that grows while a reply streams, at most once per animation frame. Blocks the lexer
 * has closed (a later block follows them) are rendered once into the stable part and never touched again; only
 * the last, still-growing block is re-rendered each frame. A long reply therefore costs a small constant per
 * frame, not a re-render of the whole message per chunk. A fenced code block still growing (a long file, one block
 * until its closing fence) is not rendered again either: its new complete lines are highlighted and added, and only
 * its last, unfinished line is replaced (`GrowingCodeBlock`); once closed it is rendered whole, like any block. While
 * text is waiting to be rendered, the container carries `data-pending`.
 */
export class MarkdownStream {
  private source = '';
  /** The page does not show `source` yet. */
  private dirty = false;
  /** Characters of the (normalized) text already rendered into `stable`. */
  private stableChars = 0;
  private readonly stable: HTMLElement;
  private readonly tail: HTMLElement;
  private frames = 0;
  private stableBlocks = 0;
  /** The open block, when it is a fenced code block growing in place. */
  private growing: GrowingCodeBlock | undefined;
  /** Batches of lines added to growing code blocks in place (rather than the block rendered again). */
  private codeLinesAdded = 0;
  private readonly job = () => this.render();

  constructor(
    private readonly container: HTMLElement,
    private readonly scheduler: FrameScheduler,
    private readonly onRendered: () => void = () => undefined,
  ) {
    this.stable = el('div', { className: 'md-stable' });
    this.tail = el('div', { className: 'md-tail' });
    container.replaceChildren(this.stable, this.tail);
  }

  get text(): string {
    return this.source;
  }

  /** Replaces the whole text (a snapshot, or a conversation re-sent by the host). */
  set(text: string): void {
    if (text === this.source) return;
    if (!text.startsWith(this.source)) {
      // Not a continuation: what was rendered no longer holds.
      this.stableChars = 0;
      this.stable.replaceChildren();
    }
    this.source = text;
    this.dirty = true;
    this.schedule();
  }

  append(delta: string): void {
    if (!delta) return;
    this.source += delta;
    this.dirty = true;
    this.schedule();
  }

  /**
   * Renders what is pending at once (a finished message), and a code block left growing whole; nothing when the page
   * shows it already.
   */
  flush(): void {
    this.scheduler.cancel(this);
    if (this.dirty || this.growing) this.render(true);
  }

  dispose(): void {
    this.scheduler.cancel(this);
  }

  private schedule(): void {
    this.container.dataset.pending = '';
    this.scheduler.schedule(this, this.job);
  }

  /** `final`: the text is complete, its last block is rendered whole (as it will be shown from now on). */
  private render(final = false): void {
    this.frames++;
    this.dirty = false;
    const rest = normalizeNewlines(this.source).slice(this.stableChars);
    const split = splitStreamingMarkdown(rest);
    if (split.closed.length > 0) {
      this.stable.append(renderTokens(split.closed, split.links));
      this.stableChars += split.closedChars;
      this.stableBlocks += split.closed.length;
    }
    const code = final ? undefined : openFence(split.open);
    const added = code && this.growing?.grow(code);
    if (added !== undefined) {
      this.codeLinesAdded += added;
    } else {
      this.tail.replaceChildren(renderTokens(code ? [GrowingCodeBlock.settledPart(code)] : split.open, split.links));
      this.growing = code ? GrowingCodeBlock.inside(this.tail, code) : undefined;
    }
    // How much work rendering took, readable in the page (the UI tests check that long replies render incrementally).
    this.container.dataset.renderFrames = String(this.frames);
    this.container.dataset.stableBlocks = String(this.stableBlocks);
    this.container.dataset.codeLinesAdded = String(this.codeLinesAdded);
    delete this.container.dataset.pending;
    this.onRendered();
  }
}

/** The open block when it is a fenced code block (the blank lines after it aside), else undefined. */
function openFence(open: readonly Token[]): Tokens.Code | undefined {
  const blocks = open.filter((token) => token.type !== 'space');
  const [block] = blocks;
  return blocks.length === 1 && block.type === 'code' && /^ {0,3}(`{3,}|~{3,})/.test(block.raw) ? (block as Tokens.Code) : undefined;
}

/**
 * A fenced code block in the page while its text grows: its complete lines are highlighted once, as they come (each
 * batch on its own, so a string or comment spanning batches may show unhighlighted until the block closes and is
 * rendered whole), and its last line, still being written, is plain text replaced each frame.
 */
class GrowingCodeBlock {
  private constructor(
    private readonly code: HTMLElement,
    private readonly lang: string | undefined,
    /** The code's text rendered as complete lines. */
    private settled: string,
    private readonly partial: Text,
  ) {}

  /** The block as first rendered: its complete lines only (the last line is added as plain text). */
  static settledPart(token: Tokens.Code): Tokens.Code {
    return { ...token, text: token.text.slice(0, token.text.lastIndexOf('\n') + 1) };
  }

  static inside(tail: HTMLElement, token: Tokens.Code): GrowingCodeBlock | undefined {
    const code = tail.querySelector('pre > code');
    if (!(code instanceof HTMLElement)) return undefined;
    const settled = GrowingCodeBlock.settledPart(token).text;
    const partial = document.createTextNode(token.text.slice(settled.length));
    code.append(partial);
    return new GrowingCodeBlock(code, token.lang, settled, partial);
  }

  /**
   * Brings the block in line with `token`: the batches of lines it added (0 or 1), or undefined when `token` is not
   * this block grown (it is then rendered whole).
   */
  grow(token: Tokens.Code): number | undefined {
    // Highlighted again meanwhile (the highlighter arrived), or another block: rendered whole.
    if (token.lang !== this.lang || !token.text.startsWith(this.settled) || this.partial.parentNode !== this.code) return undefined;
    let added = 0;
    const settledEnd = token.text.lastIndexOf('\n') + 1;
    if (settledEnd > this.settled.length) {
      this.code.insertBefore(renderCodeLines(token.text.slice(this.settled.length, settledEnd), token.lang), this.partial);
      this.settled = token.text.slice(0, settledEnd);
      added = 1;
    }
    const rest = token.text.slice(this.settled.length);
    if (this.partial.data !== rest) this.partial.data = rest;
    return added;
  }
}

const WARM_UP_TEXT = 'A **warm-up** with `code`:\n\n- a [link](https://example.invalid)\n\n```ts\nconst ready: boolean = true;\n```\n\nDone.\n';

/**
 * Renders a little markdown the way replies are rendered, out of the page: the parser, the sanitizer and the
 * highlighter do their first-time work (compiling patterns, warming up) while the page waits for the host, not
 * while the user waits for the first screen.
 */
export function warmUpMarkdown(): void {
  const split = splitStreamingMarkdown(normalizeNewlines(WARM_UP_TEXT));
  renderTokens([...split.closed, ...split.open], split.links);
}
