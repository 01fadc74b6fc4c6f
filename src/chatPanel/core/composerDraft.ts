import type { ImageAttachment, Mention, SelectionContext } from './model';
import type { DraftView, HostToWebview } from './protocol';
import { draftView, type Draft } from './webviewViews';

/**
 * What waits next to one page's prompt box until the next turn is sent (the selection asked about, images), and
 * telling the page about it: at once when it is ready, with the focus asked for once it says ready.
 */
export class ComposerDraft {
  private draft: Draft = { images: [], mentions: [] };
  private focusWhenReady = false;

  constructor(
    private readonly post: (message: HostToWebview) => void,
    private readonly pageReady: () => boolean,
    /** The draft changed (the budget meter follows it). */
    private readonly changed: () => void = () => undefined,
  ) {}

  get mentions(): readonly Mention[] {
    return this.draft.mentions;
  }

  /** The draft as it is now (read-only use: the budget). */
  get current(): Draft {
    return this.draft;
  }

  get context(): SelectionContext | undefined {
    return this.draft.context;
  }

  get images(): readonly ImageAttachment[] {
    return this.draft.images;
  }

  get isEmpty(): boolean {
    return !this.draft.context && this.draft.images.length === 0 && this.draft.mentions.length === 0;
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
    delete this.draft.notice;
    this.show(false);
  }

  removeImage(index: number): void {
    this.draft.images.splice(index, 1);
    this.show(false);
  }

  /** Adds a mention; the same source mentioned again replaces the older chip (its text is read again). */
  addMention(mention: Mention): void {
    this.draft.mentions = [...this.draft.mentions.filter((known) => !sameSource(known, mention)), mention];
    delete this.draft.notice;
    this.show(false);
  }

  /** Tells the user something about the draft (shown above the prompt box until the draft changes). */
  setNotice(notice: string): void {
    this.draft.notice = notice;
    this.show(false);
  }

  removeMention(id: string): void {
    this.draft.mentions = this.draft.mentions.filter((mention) => mention.id !== id);
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
    this.draft = { images: [], mentions: [] };
    this.show(false);
    return taken;
  }

  private show(focus: boolean): void {
    this.changed();
    if (!this.pageReady()) return;
    this.post({ type: 'draft', draft: this.view(), focus });
    if (focus) this.focusWhenReady = false;
  }
}

function sameSource(a: Mention, b: Mention): boolean {
  return a.kind === b.kind && a.label === b.label && a.uri === b.uri;
}
