import { compactNumber, daysText, expiryDay, keyCondition, type KeyHealth, type QuotaDisplay } from '../../api/account/keyHealth';
import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';

/**
 * The key's quota in one phrase: `$3.20 left of $10.00 (used $6.80), expires 2026-12-06 (12 days)`,
 * `unlimited (used $6.80), never expires`, `used up ($10.00 of $10.00), …`, `expired on 2026-11-01`; amounts in tokens
 * where the gateway displays quota that way; the per-model limits when the key has them.
 */
export function describeQuota(health: KeyHealth, display: QuotaDisplay, now: number): string {
  const condition = keyCondition(health, now);
  const day = expiryDay(health);
  if (condition.expired) return t('expired on {0}', day ?? '');
  const amount = (usd: number, units?: number) =>
    display.unit === 'TOKENS' ? t('{0} tokens', compactNumber(units ?? Math.round(usd * display.quotaPerUnit))) : formatUsd(usd);
  const used = health.usedUsd === undefined ? undefined : amount(health.usedUsd);
  const granted = health.grantedUsd === undefined ? undefined : amount(health.grantedUsd);
  let left: string;
  if (health.unlimited) left = used ? t('unlimited (used {0})', used) : t('unlimited');
  else if (condition.exhausted) left = used && granted ? t('used up ({0} of {1})', used, granted) : t('used up');
  else if (health.leftUsd !== undefined) left = amountLeft(amount(health.leftUsd, health.leftQuota), granted, used);
  else left = used ? t('used {0}, left unknown', used) : t('left unknown');
  const expiry =
    day === undefined
      ? t('never expires')
      : condition.daysLeft === 0
        ? t('expires {0} (today)', day)
        : t('expires {0} ({1})', day, daysText(condition.daysLeft ?? 0));
  const limits = Object.entries(health.modelLimitsUsd ?? {}).map(([model, usd]) => `${model} ${amount(usd)}`);
  return limits.length ? t('{0}, {1}; model limits: {2}', left, expiry, limits.join(', ')) : t('{0}, {1}', left, expiry);
}

/** `$3.20 left of $10.00 (used $6.80)`, with what is known of the grant and the use. */
function amountLeft(left: string, granted: string | undefined, used: string | undefined): string {
  if (granted && used) return t('{0} left of {1} (used {2})', left, granted, used);
  if (granted) return t('{0} left of {1}', left, granted);
  if (used) return t('{0} left (used {1})', left, used);
  return t('{0} left', left);
}
