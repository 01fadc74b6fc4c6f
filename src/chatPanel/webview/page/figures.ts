import { el } from '../../../webviewPage/dom';
import { pageLocale } from '../../../webviewPage/l10n';
import type { CostView } from '../protocol';

// Token counts and costs as the chat page writes them.

/**
 * One formatter for the page, in its language (made on first use): `toLocaleString` builds a new one per call, which
 * shows when 500 messages render.
 */
let tokenFormat: Intl.NumberFormat | undefined;

export function formatTokens(count: number): string {
  tokenFormat ??= new Intl.NumberFormat(pageLocale());
  return tokenFormat.format(count);
}

/** A cost (`$0.0044`, `≈ $0.0040 (estimated)`); `why` says, on hover, why an estimated one is estimated. */
export function costElement(cost: CostView, why: string): HTMLElement {
  return el('span', { className: 'cost', text: cost.text, dataset: { estimated: String(cost.estimated) }, attrs: { title: cost.estimated ? why : undefined } });
}
