import { formatUsd } from '../../../api/account/prices';
import type { KeyHealthState } from './keyHealthMonitor';
import { keyProblem } from './keyWarnings';
import type { PriceQuote } from './priceBook';
import { t } from '../../../api/l10n';
import { joinSentences } from '../../../api/sentences';

/** What a request priced per call costs and what the key keeps, shown before it is sent. */
export interface ChargeQuote {
  /** US dollars; undefined when no per-call price is known (the confirm steps then say nothing about cost). */
  priceUsd?: number;
  /** What the key has left before and after, when the key's quota is known and limited. */
  leftUsd?: number;
  leftAfterUsd?: number;
  unlimited: boolean;
  /** Why the key may not cover it (expired, used up, too little left), or undefined. The user may still go on. */
  warning?: string;
}

export function chargeQuote(price: PriceQuote | undefined, state: KeyHealthState, now: number): ChargeQuote {
  const priceUsd = price?.kind === 'per-call' ? price.usd : undefined;
  const problem = keyProblem(state, now);
  if (state.kind !== 'known')
    return {
      ...(priceUsd !== undefined ? { priceUsd } : {}),
      unlimited: false,
      ...(problem ? { warning: likelyRefused(problem) } : {}),
    };
  const { health } = state;
  const quote: ChargeQuote = { unlimited: health.unlimited };
  if (priceUsd !== undefined) quote.priceUsd = priceUsd;
  if (!health.unlimited && health.leftUsd !== undefined) {
    quote.leftUsd = health.leftUsd;
    if (priceUsd !== undefined) quote.leftAfterUsd = health.leftUsd - priceUsd;
  }
  if (problem) quote.warning = likelyRefused(problem);
  else if (quote.leftUsd !== undefined && priceUsd !== undefined && quote.leftUsd < priceUsd)
    quote.warning = t('Your key has {0} left, less than the {1} this costs: the service may refuse it.', formatUsd(quote.leftUsd), formatUsd(priceUsd));
  return quote;
}

function likelyRefused(problem: string): string {
  return joinSentences([problem, t('The service will likely refuse it.')]);
}

/** `$0.40 · $2.80 left after`, `$0.40 · unlimited key`, `$0.40`, or undefined when the price is not known. */
export function describeChargeQuote(quote: ChargeQuote): string | undefined {
  if (quote.priceUsd === undefined) return undefined;
  const price = formatUsd(quote.priceUsd);
  if (quote.unlimited) return t('{0} · unlimited key', price);
  if (quote.leftAfterUsd !== undefined && quote.leftAfterUsd >= 0) return t('{0} · {1} left after', price, formatUsd(quote.leftAfterUsd));
  return price;
}
