import type { GalleryCard } from '../protocol';
import { el } from '../../../webviewPage/dom';
import { Text } from './text';

/** Two downloaded videos side by side, with their prompts and settings; Play Both starts them together. */
export class CompareView {
  readonly element = el('section', { className: 'compare', attrs: { 'aria-label': Text.compareTitle } });
  private videos: HTMLVideoElement[] = [];

  constructor(private readonly onClose: () => void) {
    this.element.hidden = true;
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  show(cards: readonly GalleryCard[]): void {
    this.videos = [];
    const panes = cards.map((card) => {
      const video = el('video', { attrs: { src: card.videoSrc ?? '', controls: '', playsinline: '', preload: 'auto', 'aria-label': card.prompt } });
      video.muted = true;
      this.videos.push(video);
      return el('figure', { className: 'pane', attrs: { 'data-id': card.id } }, [
        video,
        el('figcaption', {}, [
          el('p', { className: 'prompt', text: card.prompt }),
          el('div', { className: 'facts', text: [card.model, card.duration, card.price, card.created].filter(Boolean).join(' · ') }),
        ]),
      ]);
    });
    const playBoth = el('button', { className: 'primary', text: Text.playBoth, attrs: { type: 'button' } });
    playBoth.addEventListener('click', () => this.playBoth());
    const close = el('button', { className: 'secondary', text: Text.closeCompare, attrs: { type: 'button' } });
    close.addEventListener('click', () => this.close());
    this.element.replaceChildren(
      el('div', { className: 'compare-bar' }, [el('h2', { text: Text.compareTitle }), playBoth, close]),
      el('div', { className: 'panes' }, panes),
    );
    this.element.hidden = false;
    this.element.scrollIntoView({ block: 'start' });
  }

  close(): void {
    for (const video of this.videos) video.pause();
    this.videos = [];
    this.element.replaceChildren();
    this.element.hidden = true;
    this.onClose();
  }

  private playBoth(): void {
    for (const video of this.videos) {
      video.currentTime = 0;
      void video.play().catch(() => undefined);
    }
  }
}
