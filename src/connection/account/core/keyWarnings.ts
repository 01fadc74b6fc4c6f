import { expiryDay, keyCondition, type KeyHealth } from '../../../api/account/keyHealth';
import { formatUsd } from '../../../api/account/prices';
import type { KeyHealthState } from './keyHealthMonitor';
import { t } from '../../../api/l10n';

/** A key expiring within this many days is warned about. */
export const EXPIRY_WARNING_DAYS = 7;

export interface KeyWarning {
  kind: 'expired' | 'used-up' | 'expiring' | 'low';
  /** The same warning about the same key has the same id: it is shown once. */
  id: string;
  message: string;
}

/**
 * What is worth a warning about the key, most urgent first: expired, used up, expiring within 7 days, or less than
 * `warnBelowShare` of its quota left (0: never). The ids name the service and what identifies the key's grant, so a
 * new key (another expiry, another grant) is warned about again.
 */
export function keyWarnings(state: KeyHealthState, service: string, now: number, warnBelowShare: number): KeyWarning[] {
  if (state.kind !== 'known') return [];
  const { health } = state;
  const condition = keyCondition(health, now);
  // The key is not named by the service: its expiry day and grant tell one key from the next (a day, not the
  // instant, since some gateways compute the expiry afresh on each answer).
  const grant = `${service}|${health.expiresAt === undefined ? 'never' : isoDay(health)}|${health.grantedUsd ?? 'unlimited'}`;
  const problem = keyProblem(state, now);
  if (condition.expired && problem) return [{ kind: 'expired', id: `expired|${grant}`, message: problem }];
  if (condition.exhausted && problem) return [{ kind: 'used-up', id: `used-up|${grant}`, message: problem }];
  const warnings: KeyWarning[] = [];
  if (condition.daysLeft !== undefined && condition.daysLeft < EXPIRY_WARNING_DAYS) {
    warnings.push({ kind: 'expiring', id: `expiring|${grant}`, message: expiresSoon(condition.daysLeft, isoDay(health)) });
  }
  if (warnBelowShare > 0 && condition.shareLeft !== undefined && condition.shareLeft < warnBelowShare && health.leftUsd !== undefined) {
    const share = Math.round(warnBelowShare * 100);
    warnings.push({
      kind: 'low',
      id: `low|${warnBelowShare}|${grant}`,
      message:
        health.grantedUsd !== undefined
          ? t("Less than {0}% of your Promptreel API key's quota is left: {1} of {2}.", share, formatUsd(health.leftUsd), formatUsd(health.grantedUsd))
          : t("Less than {0}% of your Promptreel API key's quota is left: {1}.", share, formatUsd(health.leftUsd)),
    });
  }
  return warnings;
}

/** The key's condition in words when it can no longer pay (expired, used up, refused), else undefined. */
export function keyProblem(state: KeyHealthState, now: number): string | undefined {
  if (state.kind === 'refused') return t('The service refused your Promptreel API key when asked about its quota ({0}).', state.message);
  if (state.kind !== 'known') return undefined;
  const condition = keyCondition(state.health, now);
  if (condition.expired) return t('Your Promptreel API key expired on {0}.', isoDay(state.health));
  if (condition.exhausted) return t("Your Promptreel API key's quota is used up.");
  return undefined;
}

function expiresSoon(daysLeft: number, day: string): string {
  if (daysLeft === 0) return t('Your Promptreel API key expires today ({0}).', day);
  return daysLeft === 1 ? t('Your Promptreel API key expires in 1 day ({0}).', day) : t('Your Promptreel API key expires in {0} days ({1}).', daysLeft, day);
}

function isoDay(health: KeyHealth): string {
  return expiryDay(health) ?? 'never';
}
