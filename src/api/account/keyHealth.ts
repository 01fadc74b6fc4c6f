import { formatUsd } from './prices';
import type { BillingAnswer } from './accountReader';
import type { StatusAnswer, TokenUsageAnswer } from './accountAnswers';
import { t } from '../l10n';

/** What new-api counts in one US dollar unless `/api/status` says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;
/** one-api answers an unlimited key's limit with a huge number. */
const UNLIMITED_USD = 10_000_000;
const DAY_MS = 86_400_000;

/** How the gateway shows amounts: US dollars, or quota units counted as tokens. */
export interface QuotaDisplay {
  unit: 'USD' | 'TOKENS';
  quotaPerUnit: number;
}

/**
 * From `/api/status`. CNY is shown in US dollars: the gateway converts at a rate it does not publish, and a made-up
 * rate would be worse than the unit the service charges in.
 */
export function quotaDisplay(status: StatusAnswer | undefined): QuotaDisplay {
  const quotaPerUnit = status?.quota_per_unit && status.quota_per_unit > 0 ? status.quota_per_unit : DEFAULT_QUOTA_PER_UNIT;
  const tokens = status?.quota_display_type?.toUpperCase() === 'TOKENS' || status?.display_in_currency === false;
  return { unit: tokens ? 'TOKENS' : 'USD', quotaPerUnit };
}

/** The key's quota and expiry, in US dollars (and quota units where the gateway counts them). */
export interface KeyHealth {
  source: 'token-usage' | 'billing';
  unlimited: boolean;
  grantedUsd?: number;
  usedUsd?: number;
  leftUsd?: number;
  /** Quota units, from `/api/usage/token` only. */
  leftQuota?: number;
  /** Epoch milliseconds; undefined: never expires. */
  expiresAt?: number;
  /** Per-model limits in US dollars, when the key has them enabled. */
  modelLimitsUsd?: Record<string, number>;
}

export function keyHealthFromTokenUsage(answer: TokenUsageAnswer, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): KeyHealth {
  const usd = (units: number | undefined) => (units === undefined ? undefined : units / quotaPerUnit);
  const unlimited = answer.unlimited_quota === true;
  const left = unlimited ? undefined : (answer.total_available ?? (answer.total_granted ?? 0) - (answer.total_used ?? 0));
  const limits =
    answer.model_limits_enabled && answer.model_limits
      ? Object.fromEntries(Object.entries(answer.model_limits).map(([model, units]) => [model, units / quotaPerUnit]))
      : undefined;
  return {
    source: 'token-usage',
    unlimited,
    ...optional('grantedUsd', unlimited ? undefined : usd(answer.total_granted)),
    ...optional('usedUsd', usd(answer.total_used)),
    ...optional('leftUsd', usd(left)),
    ...optional('leftQuota', left),
    ...optional('expiresAt', answer.expires_at ? answer.expires_at * 1000 : undefined),
    ...(limits ? { modelLimitsUsd: limits } : {}),
  };
}

export function keyHealthFromBilling(answer: BillingAnswer): KeyHealth {
  const limit = answer.subscription.hard_limit_usd ?? answer.subscription.system_hard_limit_usd;
  const unlimited = limit === undefined || limit >= UNLIMITED_USD;
  const usedUsd = answer.totalUsage === undefined ? undefined : answer.totalUsage / 100;
  const leftUsd = unlimited || usedUsd === undefined ? undefined : Math.max(0, limit - usedUsd);
  return {
    source: 'billing',
    unlimited,
    ...optional('grantedUsd', unlimited ? undefined : limit),
    ...optional('usedUsd', usedUsd),
    ...optional('leftUsd', leftUsd),
    ...optional('expiresAt', answer.subscription.access_until ? answer.subscription.access_until * 1000 : undefined),
  };
}

export interface KeyCondition {
  expired: boolean;
  exhausted: boolean;
  /** Whole days until it expires (0: today), when it expires. */
  daysLeft?: number;
  /** What is left of what was granted, 0 to 1, when both are known. */
  shareLeft?: number;
}

export function keyCondition(health: KeyHealth, now: number): KeyCondition {
  const expired = health.expiresAt !== undefined && health.expiresAt <= now;
  const exhausted = !health.unlimited && health.leftUsd !== undefined && health.leftUsd <= 0;
  const daysLeft = health.expiresAt === undefined || expired ? undefined : Math.floor((health.expiresAt - now) / DAY_MS);
  const shareLeft = !health.unlimited && health.grantedUsd && health.leftUsd !== undefined ? Math.min(1, health.leftUsd / health.grantedUsd) : undefined;
  return { expired, exhausted, ...optional('daysLeft', daysLeft), ...optional('shareLeft', shareLeft) };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The key's expiry day (`2026-12-06`, UTC), or undefined when it never expires. */
export function expiryDay(health: KeyHealth): string | undefined {
  return health.expiresAt === undefined ? undefined : new Date(health.expiresAt).toISOString().slice(0, 10);
}

/** The status bar's words: `$3.20 left · 12 days`, `unlimited · never expires`, `expired`, `used up`. */
export function describeKeyHealth(health: KeyHealth, display: QuotaDisplay, now: number): string {
  const condition = keyCondition(health, now);
  if (condition.expired) return t('expired');
  if (condition.exhausted) return t('used up');
  const left = health.unlimited ? t('unlimited') : amountLeft(health, display);
  const time =
    condition.daysLeft === undefined
      ? health.expiresAt === undefined
        ? t('never expires')
        : undefined
      : condition.daysLeft === 0
        ? t('expires today')
        : daysText(condition.daysLeft);
  return [left, time].filter(Boolean).join(' · ');
}

/** `1 day`, `12 days`. */
export function daysText(days: number): string {
  return days === 1 ? t('1 day') : t('{0} days', days);
}

function amountLeft(health: KeyHealth, display: QuotaDisplay): string | undefined {
  if (display.unit === 'TOKENS' && health.leftQuota !== undefined) return t('{0} tokens left', compactNumber(health.leftQuota));
  if (health.leftUsd === undefined) return undefined;
  return t('{0} left', formatUsd(health.leftUsd));
}

/** 1234567 → `1.2M`, 45600 → `45.6K`. */
export function compactNumber(value: number): string {
  return new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
