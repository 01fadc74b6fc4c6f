import { el } from '../../../webviewPage/dom';
import type { CostView } from '../protocol';

// Costs as the chat page writes them (the host writes their words and every figure: see CostView, TokenUsageView).

/** A cost (`$0.0044`, `≈ $0.0040 (estimated)`); `why` says, on hover, why an estimated one is estimated. */
export function costElement(cost: CostView, why: string): HTMLElement {
  return el('span', { className: 'cost', text: cost.text, dataset: { estimated: String(cost.estimated) }, attrs: { title: cost.estimated ? why : undefined } });
}
