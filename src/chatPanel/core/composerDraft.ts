import type { ImageAttachment, Mention, SelectionContext } from './model';
import type { DraftView } from '../webview/protocol';
import { draftView, type Draft } from './webviewViews';

/**
 * What waits next to one page's prompt box until the next turn is sent: the selection asked about, the mentions,
 * the images, and a notice about them. The page's host tells the page after each change.
 */
export class ComposerDraft {
  private draft: Draft = { images: [], mentions: [] };

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

  setContext(context: SelectionContext): void {
    this.draft.context = context;
  }

  addImage(image: ImageAttachment): void {
    this.draft.images.push(image);
    delete this.draft.notice;
  }

  removeImage(index: number): void {
    this.draft.images.splice(index, 1);
  }

  /** Adds a mention; the same source mentioned again replaces the older chip (its text is read again). */
  addMention(mention: Mention): void {
    this.draft.mentions = [...this.draft.mentions.filter((known) => !sameSource(known, mention)), mention];
    delete this.draft.notice;
  }

  /** Something to tell the user about the draft (shown above the prompt box until the draft changes). */
  setNotice(notice: string): void {
    this.draft.notice = notice;
  }

  removeMention(id: string): void {
    this.draft.mentions = this.draft.mentions.filter((mention) => mention.id !== id);
  }

  clearContext(): void {
    delete this.draft.context;
  }

  /** The draft, for the turn being sent; the composer starts empty again. */
  take(): Draft {
    const taken = this.draft;
    this.draft = { images: [], mentions: [] };
    return taken;
  }
}

function sameSource(a: Mention, b: Mention): boolean {
  return a.kind === b.kind && a.label === b.label && a.uri === b.uri;
}
