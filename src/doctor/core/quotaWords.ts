import { compactNumber, expiryDay, keyCondition, type KeyHealth, type QuotaDisplay } from '../../api/account/keyHealth';
import { formatUsd } from '../../api/account/prices';

/**
 * The key's quota in one phrase: `$3.20 left of $10.00 (used $6.80), expires 2026-12-06 (12 days)`,
 * `unlimited (used $6.80), never expires`, `used up ($10.00 of $10.00), …`, `expired on 2026-11-01`; amounts in tokens
 * where the gateway displays quota that way; the per-model limits when the key has them.
 */
export function describeQuota(health: KeyHealth, display: QuotaDisplay, now: number): string {
  const condition = keyCondition(health, now);
  const day = expiryDay(health);
  if (condition.expired) return `expired on ${day}`;
  const amount = (usd: number, units?: number) =>
    display.unit === 'TOKENS' ? `${compactNumber(units ?? Math.round(usd * display.quotaPerUnit))} tokens` : formatUsd(usd);
  const used = health.usedUsd === undefined ? undefined : amount(health.usedUsd);
  const granted = health.grantedUsd === undefined ? undefined : amount(health.grantedUsd);
  let left: string;
  if (health.unlimited) left = `unlimited${used ? ` (used ${used})` : ''}`;
  else if (condition.exhausted) left = `used up${used && granted ? ` (${used} of ${granted})` : ''}`;
  else if (health.leftUsd !== undefined)
    left = `${amount(health.leftUsd, health.leftQuota)} left${granted ? ` of ${granted}` : ''}${used ? ` (used ${used})` : ''}`;
  else left = used ? `used ${used}, left unknown` : 'left unknown';
  const expiry =
    day === undefined
      ? 'never expires'
      : `expires ${day} (${condition.daysLeft === 0 ? 'today' : `${condition.daysLeft} day${condition.daysLeft === 1 ? '' : 's'}`})`;
  const limits = Object.entries(health.modelLimitsUsd ?? {}).map(([model, usd]) => `${model} ${amount(usd)}`);
  return `${left}, ${expiry}${limits.length ? `; model limits: ${limits.join(', ')}` : ''}`;
}
