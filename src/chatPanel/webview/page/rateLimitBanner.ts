import type { RateLimitView } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { button, el } from '../../../webviewPage/dom';

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
    const retryNow = button(t('Retry now'), { className: 'primary', dataset: { rateLimitAction: 'retryNow' } });
    const cancel = button(t('Cancel'), { className: 'secondary', dataset: { rateLimitAction: 'cancel' } });
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
    this.text.textContent = waitText(seconds, wait);
    this.element.dataset.seconds = String(seconds);
  }

  private stopTicking(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
  }
}

/** Whole sentences: when the next attempt goes, and why it waits (the service asked, or the client backs off). */
function waitText(seconds: number, wait: RateLimitView): string {
  const { attempt, retries } = wait;
  if (seconds > 0) {
    return wait.fromService
      ? t('Rate limited by the service (HTTP 429). Retrying in {0} s (as the service asked; attempt {1} of {2}).', seconds, attempt, retries)
      : t('Rate limited by the service (HTTP 429). Retrying in {0} s (backing off; attempt {1} of {2}).', seconds, attempt, retries);
  }
  return wait.fromService
    ? t('Rate limited by the service (HTTP 429). Retrying now (as the service asked; attempt {0} of {1}).', attempt, retries)
    : t('Rate limited by the service (HTTP 429). Retrying now (backing off; attempt {0} of {1}).', attempt, retries);
}
