// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
import { el } from '../../../webviewPage/dom';
import type { FrameScheduler } from './frameScheduler';
import { renderTokens } from './markdown';
import { normalizeNewlines, splitStreamingMarkdown } from './markdownParser';

/**
 * Renders a markdown text that grows while a reply streams, at most once per animation frame. Blocks the lexer
 * has closed (a later block follows them) are rendered once into the stable part and never touched again; only
 * the last, still-growing block is re-rendered each frame. A long reply therefore costs a small constant per
 * frame, not a re-render of the whole message per chunk. While text is waiting to be rendered, the container
 * carries `data-pending`.
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

  /** Renders what is pending at once (a finished message); nothing when the page shows it already. */
  flush(): void {
    this.scheduler.cancel(this);
    if (this.dirty) this.render();
  }

  dispose(): void {
    this.scheduler.cancel(this);
  }

  private schedule(): void {
    this.container.dataset.pending = '';
    this.scheduler.schedule(this, this.job);
  }

  private render(): void {
    this.frames++;
    this.dirty = false;
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
    delete this.container.dataset.pending;
    this.onRendered();
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
