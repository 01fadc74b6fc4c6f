import { el } from './dom';
import { renderTokens } from './markdown';
import { normalizeNewlines, splitStreamingMarkdown } from './markdownParser';

/**
 * Renders a markdown text that grows while a reply streams, at most once per animation frame. Blocks the lexer
 * has closed (a later block follows them) are rendered once into the stable part and never touched again; only
 * the last, still-growing block is re-rendered each frame. A long reply therefore costs a small constant per
 * frame, not a re-render of the whole message per chunk.
 */
export class MarkdownStream {
  private source = '';
  /** Characters of the (normalized) text already rendered into `stable`. */
  private stableChars = 0;
  private readonly stable: HTMLElement;
  private readonly tail: HTMLElement;
  private frame: number | undefined;
  private frames = 0;
  private stableBlocks = 0;

  constructor(private readonly container: HTMLElement, private readonly onRendered: () => void = () => undefined) {
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
    if (text.startsWith(this.source)) {
      this.append(text.slice(this.source.length));
      return;
    }
    this.source = text;
    this.stableChars = 0;
    this.stable.replaceChildren();
    this.schedule();
  }

  append(delta: string): void {
    if (!delta) return;
    this.source += delta;
    this.schedule();
  }

  /** Renders what is pending at once (a finished message, or a message shown for the first time). */
  flush(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
    this.render();
  }

  dispose(): void {
    if (this.frame !== undefined) cancelAnimationFrame(this.frame);
    this.frame = undefined;
  }

  private schedule(): void {
    if (this.frame === undefined) this.frame = requestAnimationFrame(() => {
      this.frame = undefined;
      this.render();
    });
  }

  private render(): void {
    this.frames++;
    const rest = normalizeNewlines(this.source).slice(this.stableChars);
    const split = splitStreamingMarkdown(rest);
    if (split.closed.length > 0) {
      this.stable.append(renderTokens(split.closed, split.links));
      this.stableChars += split.closedChars;
      this.stableBlocks += split.closed.length;
    }
    this.tail.replaceChildren(renderTokens(split.open, split.links));
    // How much work rendering took, readable in the page (the UI tests check that long replies render incrementally).
    this.container.dataset.renderFrames = String(this.frames);
    this.container.dataset.stableBlocks = String(this.stableBlocks);
    this.onRendered();
  }
}
