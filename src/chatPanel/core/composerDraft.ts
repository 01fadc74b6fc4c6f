import type { ImageAttachment, SelectionContext } from './model';
import type { DraftView, HostToWebview } from './protocol';
import { draftView, type Draft } from './webviewViews';

/**
 * What waits next to one page's prompt box until the next turn is sent (the selection asked about, images), and
 * telling the page about it: at once when it is ready, with the focus asked for once it says ready.
 */
export class ComposerDraft {
  private draft: Draft = { images: [] };
  private focusWhenReady = false;

  constructor(
    private readonly post: (message: HostToWebview) => void,
    private readonly pageReady: () => boolean,
  ) {}

  get context(): SelectionContext | undefined {
    return this.draft.context;
  }

  get images(): readonly ImageAttachment[] {
    return this.draft.images;
  }

  get isEmpty(): boolean {
    return !this.draft.context && this.draft.images.length === 0;
  }

  view(): DraftView {
    return draftView(this.draft);
  }

  setContext(context: SelectionContext, focus: boolean): void {
    this.draft.context = context;
    this.focusWhenReady = focus;
    this.show(focus);
  }

  addImage(image: ImageAttachment): void {
    this.draft.images.push(image);
    this.show(false);
  }

  removeImage(index: number): void {
    this.draft.images.splice(index, 1);
    this.show(false);
  }

  clearContext(): void {
    delete this.draft.context;
    this.show(false);
  }

  /** The page said ready: the focus asked for before it was goes to the composer now. */
  onPageReady(): void {
    if (this.focusWhenReady) this.show(true);
  }

  /** Puts a message the user decided not to send back in the composer (the draft stays). */
  giveBack(text: string): void {
    if (this.pageReady()) this.post({ type: 'draft', draft: { ...this.view(), text }, focus: true });
  }

  /** The draft, for the turn being sent; the composer starts empty again. */
  take(): Draft {
    const taken = this.draft;
    this.draft = { images: [] };
    this.show(false);
    return taken;
  }

  private show(focus: boolean): void {
    if (!this.pageReady()) return;
    this.post({ type: 'draft', draft: this.view(), focus });
    if (focus) this.focusWhenReady = false;
  }
}
