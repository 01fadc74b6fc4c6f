import type { GalleryAction, GalleryCard } from '../protocol';
import { el } from '../../../webviewPage/dom';
import { ACTION_LABELS, Text } from './text';

export interface CardHandlers {
  action(action: GalleryAction, id: string): void;
  poster(id: string, video: HTMLVideoElement, error?: string): void;
  select(id: string, selected: boolean): void;
}

/**
 * One task's card, kept across snapshots (keyed by task id) so a playing video is not interrupted: its texts and
 * buttons are updated in place, its video replaced only when the file changes.
 */
export class CardView {
  readonly element: HTMLElement;
  card: GalleryCard;
  private readonly media = el('div', { className: 'media' });
  private readonly state = el('div', { className: 'state' });
  private readonly prompt = el('p', { className: 'prompt' });
  private readonly facts = el('div', { className: 'facts' });
  private readonly note = el('p', { className: 'note' });
  private readonly actions = el('div', { className: 'actions' });
  private readonly checkbox = el('input', { attrs: { type: 'checkbox' } });
  private readonly selectLabel = el('label', { className: 'select', attrs: { title: Text.selectHint } }, [
    this.checkbox,
    document.createTextNode(` ${Text.select}`),
  ]);
  private video: HTMLVideoElement | undefined;
  /** The file shown; `null` before the first update, so a card without a video gets its placeholder too. */
  private shownSrc: string | undefined | null = null;
  private shownActions = '';

  constructor(
    card: GalleryCard,
    private readonly handlers: CardHandlers,
  ) {
    this.card = card;
    this.element = el('article', { className: 'card', attrs: { 'data-id': card.id } }, [
      this.media,
      el('div', { className: 'meta' }, [this.state, this.prompt, this.facts, this.note]),
      el('div', { className: 'footer' }, [this.selectLabel, this.actions]),
    ]);
    this.checkbox.addEventListener('change', () => handlers.select(this.card.id, this.checkbox.checked));
    this.element.addEventListener('mouseenter', () => void this.video?.play().catch(() => undefined));
    this.element.addEventListener('mouseleave', () => this.rewind());
    this.update(card, false);
  }

  update(card: GalleryCard, selected: boolean): void {
    this.card = card;
    this.element.className = `card state-${card.state}${card.elsewhere ? ' elsewhere' : ''}`;
    this.state.textContent = card.stateLabel;
    this.prompt.textContent = card.prompt;
    this.prompt.title = card.prompt;
    this.facts.textContent = [card.model, card.duration, card.price, card.created].filter(Boolean).join(' · ');
    this.note.textContent = card.note ?? '';
    this.note.hidden = !card.note;
    this.selectLabel.hidden = !card.videoSrc;
    this.checkbox.checked = selected && !!card.videoSrc;
    this.element.setAttribute('aria-label', `${card.stateLabel}: ${card.prompt}`);
    if (card.videoSrc !== this.shownSrc) this.showMedia(card);
    const actions = card.actions.join(',');
    if (actions !== this.shownActions) {
      this.shownActions = actions;
      this.actions.replaceChildren(
        ...card.actions.map((action) => {
          const button = el('button', { className: action === 'open' || action === 'download' ? 'primary' : 'secondary', text: ACTION_LABELS[action] });
          button.type = 'button';
          button.dataset.action = action;
          button.addEventListener('click', () => this.handlers.action(action, this.card.id));
          return button;
        }),
      );
    }
  }

  private showMedia(card: GalleryCard): void {
    this.shownSrc = card.videoSrc;
    this.video = undefined;
    if (!card.videoSrc) {
      this.media.replaceChildren(el('div', { className: 'placeholder', text: Text.notDownloaded(card.stateLabel) }));
      return;
    }
    const video = posterVideo(card.videoSrc, Text.playHint(card.fileName), (shown, error) => {
      if (error) this.media.replaceChildren(el('div', { className: 'placeholder error', text: Text.cannotPlay(error) }));
      this.handlers.poster(this.card.id, shown, error);
    });
    video.addEventListener('click', () => (video.paused ? void video.play().catch(() => undefined) : video.pause()));
    video.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' && event.key !== ' ') return;
      event.preventDefault();
      video.click();
    });
    this.video = video;
    this.media.replaceChildren(video);
  }

  private rewind(): void {
    const video = this.video;
    if (!video || video.paused) return;
    video.pause();
    video.currentTime = Math.min(0.05, (video.duration || 0) / 2);
  }
}

/** A muted video that shows its first frame as a poster (a seek just past 0 makes the browser paint one). */
function posterVideo(src: string, label: string, onPoster: (video: HTMLVideoElement, error?: string) => void): HTMLVideoElement {
  const video = el('video', { attrs: { src, preload: 'metadata', playsinline: '', 'aria-label': label, tabindex: '0' } });
  video.muted = true;
  video.loop = true;
  let reported = false;
  const report = (error?: string) => {
    if (reported) return;
    reported = true;
    if (!error) video.dataset.poster = 'ready';
    onPoster(video, error);
  };
  video.addEventListener('loadedmetadata', () => {
    video.currentTime = Math.min(0.05, (video.duration || 0) / 2);
  });
  video.addEventListener('seeked', () => report(), { once: true });
  video.addEventListener('error', () => report(video.error?.message || `media error ${video.error?.code ?? 0}`));
  return video;
}
