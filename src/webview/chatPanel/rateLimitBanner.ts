import type { RateLimitView } from '../../chatPanel/core/protocol';
import { button, el } from './dom';

/**
 * The wait after HTTP 429 inside a reply: a countdown to the next attempt, "Retry now" and "Cancel". The page counts
 * down by itself from the delay the host gave; the host ends the wait (or the reply) and says so.
 */
export class RateLimitBanner {
  readonly element: HTMLElement;
  private readonly text: HTMLElement;
  private deadline = 0;
  private wait: RateLimitView | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;

  constructor(actions: { retryNow(): void; cancel(): void }) {
    this.text = el('p', { className: 'rate-limit-text', attrs: { 'aria-live': 'polite' } });
    const retryNow = button('Retry now', { className: 'primary', dataset: { rateLimitAction: 'retryNow' } });
    const cancel = button('Cancel', { className: 'secondary', dataset: { rateLimitAction: 'cancel' } });
    retryNow.addEventListener('click', () => actions.retryNow());
    cancel.addEventListener('click', () => actions.cancel());
    this.element = el('div', { className: 'rate-limit', hidden: true, attrs: { role: 'status' } }, [
      this.text,
      el('div', { className: 'rate-limit-actions' }, [retryNow, cancel]),
    ]);
  }

  /** Shows a wait (counting down from now), or hides the banner when `wait` is undefined. */
  set(wait: RateLimitView | undefined): void {
    this.wait = wait;
    this.stopTicking();
    this.element.hidden = !wait;
    if (!wait) return;
    this.deadline = performance.now() + wait.delayMs;
    this.render();
    this.ticker = setInterval(() => this.render(), 250);
  }

  dispose(): void {
    this.stopTicking();
  }

  private render(): void {
    const wait = this.wait;
    if (!wait) return;
    const seconds = Math.max(0, Math.ceil((this.deadline - performance.now()) / 1000));
    const why = wait.fromService ? 'as the service asked' : 'backing off';
    const when = seconds > 0 ? `Retrying in ${seconds} s` : 'Retrying now';
    this.text.textContent = `Rate limited by the service (HTTP 429). ${when} (${why}; attempt ${wait.attempt} of ${wait.retries}).`;
    this.element.dataset.seconds = String(seconds);
  }

  private stopTicking(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}
