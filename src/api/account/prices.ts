import type { PricingAnswer } from './accountReader';
import { t } from '../l10n';

/** The price of one model for the key's group, in US dollars. */
export type ModelPrice =
  | { kind: 'per-call'; usd: number }
  /** A video model charged by the second of video asked for (only the user's `perSecond` setting says so: `/api/pricing` has no such kind). */
  | { kind: 'per-second'; usd: number }
  | {
      kind: 'per-token';
      promptUsdPerMillion: number;
      completionUsdPerMillion: number;
      /** Cached prompt tokens, where the service publishes a `cache_ratio`; else they cost what a prompt token costs. */
      cachedPromptUsdPerMillion?: number;
    };

/** The group a key belongs to is not exposed; `default` is the usual one. */
export const DEFAULT_GROUP = 'default';

/**
 * SERVICE.md: per call, a request costs `model_price × group_ratio` dollars; per token, 1M prompt tokens cost
 * `model_ratio × 2 × group_ratio` dollars and completion tokens `completion_ratio` times that.
 */
export function modelPrices(pricing: PricingAnswer, group = DEFAULT_GROUP): Map<string, ModelPrice> {
  const ratio = pricing.groupRatio[group] ?? 1;
  const prices = new Map<string, ModelPrice>();
  for (const entry of pricing.models) {
    if (entry.quota_type === 1) {
      if (entry.model_price !== undefined) prices.set(entry.model_name, { kind: 'per-call', usd: entry.model_price * ratio });
      continue;
    }
    if (entry.model_ratio === undefined) continue;
    const prompt = entry.model_ratio * 2 * ratio;
    prices.set(entry.model_name, {
      kind: 'per-token',
      promptUsdPerMillion: prompt,
      completionUsdPerMillion: prompt * (entry.completion_ratio ?? 1),
      ...(entry.cache_ratio !== undefined ? { cachedPromptUsdPerMillion: prompt * entry.cache_ratio } : {}),
    });
  }
  return prices;
}

/** A price a chat request can have: per second is a video model's. */
export type ChatPrice = Exclude<ModelPrice, { kind: 'per-second' }>;

/**
 * What a request costs: per call, the price; per token, from the tokens the service counted. The cached tokens are
 * part of the prompt tokens (as `prompt_tokens_details` counts them): at the cached price where one is published.
 */
export function costOf(price: ChatPrice, usage: { promptTokens?: number; completionTokens?: number; cachedTokens?: number } = {}): number {
  if (price.kind === 'per-call') return price.usd;
  const prompt = usage.promptTokens ?? 0;
  const cached = Math.min(usage.cachedTokens ?? 0, prompt);
  const cachedPrice = price.cachedPromptUsdPerMillion ?? price.promptUsdPerMillion;
  return ((prompt - cached) * price.promptUsdPerMillion + cached * cachedPrice + (usage.completionTokens ?? 0) * price.completionUsdPerMillion) / 1_000_000;
}

/**
 * What one video task costs: per call, the price; per second, the price times the seconds asked for. Undefined when
 * that cannot be known (no price, a price per token, a price per second without a duration).
 */
export function videoCost(price: ModelPrice | undefined, seconds: number | string | undefined): number | undefined {
  if (price?.kind === 'per-call') return price.usd;
  if (price?.kind !== 'per-second' || seconds === undefined || seconds === '') return undefined;
  const count = Number(seconds);
  return Number.isFinite(count) && count >= 0 ? price.usd * count : undefined;
}

/** Dollars as people read them: cents from $0.01 up, two significant digits below (a reply often costs $0.0004). */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00';
  const sign = usd < 0 ? '-' : '';
  const amount = Math.abs(usd);
  if (amount >= 0.01) return `${sign}$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  return `${sign}$${Number(amount.toPrecision(2))}`;
}

export function describePrice(price: ModelPrice): string {
  switch (price.kind) {
    case 'per-call':
      return t('{0} per request', formatUsd(price.usd));
    case 'per-second':
      return t('{0} per second of video', formatUsd(price.usd));
    case 'per-token':
      return t('{0} in / {1} out per 1M tokens', formatUsd(price.promptUsdPerMillion), formatUsd(price.completionUsdPerMillion));
  }
}
