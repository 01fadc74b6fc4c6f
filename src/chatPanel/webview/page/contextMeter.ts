import type { ContextBudgetView } from '../protocol';
import { t } from '../../../webviewPage/l10n';
import { el } from '../../../webviewPage/dom';
import { shortTokens } from './mentionChips';

/**
 * The context-window meter under the prompt box: what the chat, the draft and what is being typed take of the
 * model's window, and what would be cut to fit (never silently).
 */
export class ContextMeter {
  private budget: ContextBudgetView | undefined;
  private typedTokens = 0;

  constructor(private readonly container: HTMLElement) {}

  set(budget: ContextBudgetView | undefined): void {
    this.budget = budget;
    this.render();
  }

  /** What is typed counts as the host counts text: about four characters a token. */
  setTyped(text: string): void {
    const tokens = Math.ceil(text.length / 4);
    if (tokens === this.typedTokens) return;
    this.typedTokens = tokens;
    this.render();
  }

  trimmedTo(id: string): number | undefined {
    return this.budget?.trims.find((trim) => trim.id === id)?.toTokens;
  }

  private render(): void {
    const budget = this.budget;
    this.container.hidden = !budget;
    if (!budget) return;
    const input = budget.contextWindow - budget.reservedForReply;
    const used = budget.historyTokens + budget.draftTokens + this.typedTokens;
    const over = budget.overflowTokens + Math.max(0, used - input - budget.overflowTokens);
    const share = Math.min(100, Math.round((used / Math.max(1, input)) * 100));
    const state = over > 0 ? 'over' : budget.trims.length ? 'trimmed' : share >= 80 ? 'high' : 'ok';
    const bar = el('div', {
      className: 'meter-bar',
      attrs: {
        role: 'meter',
        'aria-valuemin': '0',
        'aria-valuemax': String(input),
        'aria-valuenow': String(Math.min(used, input)),
        'aria-label': t('Context window used'),
      },
    });
    const fill = el('div', { className: 'meter-fill' });
    // Through the CSSOM: the page's CSP allows no inline style attributes.
    fill.style.width = `${share}%`;
    bar.append(fill);
    const figures = t(
      '{0} / {1} tokens ({2}: {3} window, {4} kept for the reply)',
      shortTokens(used),
      shortTokens(input),
      budget.model || t('no model'),
      shortTokens(budget.contextWindow),
      shortTokens(budget.reservedForReply),
    );
    const lines: HTMLElement[] = [el('span', { className: 'meter-figures', text: figures })];
    if (budget.trims.length) {
      const cuts = budget.trims.map((trim) => `${trim.label} (${shortTokens(trim.fromTokens)} → ${shortTokens(trim.toTokens)})`).join(', ');
      lines.push(
        el('p', {
          className: 'meter-warning',
          attrs: { role: 'status' },
          text: t('Too long for the window: to fit, Promptreel will cut {0}, largest first. Remove a chip to send it whole.', cuts),
        }),
      );
    }
    if (over > 0) {
      lines.push(
        el('p', {
          className: 'meter-warning over',
          attrs: { role: 'alert' },
          text: t('About {0} tokens over the window even after cutting: remove chips or start a new chat.', shortTokens(over)),
        }),
      );
    }
    this.container.dataset.state = state;
    this.container.replaceChildren(bar, ...lines);
  }
}
