import { expiryDay, keyCondition, type KeyHealth } from '../../api/account/keyHealth';
import { formatUsd } from '../../api/account/prices';
import type { KeyHealthState } from './keyHealthMonitor';

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
    const when = condition.daysLeft === 0 ? 'today' : `in ${condition.daysLeft} day${condition.daysLeft === 1 ? '' : 's'}`;
    warnings.push({ kind: 'expiring', id: `expiring|${grant}`, message: `Your Promptreel API key expires ${when} (${isoDay(health)}).` });
  }
  if (warnBelowShare > 0 && condition.shareLeft !== undefined && condition.shareLeft < warnBelowShare && health.leftUsd !== undefined) {
    const of = health.grantedUsd !== undefined ? ` of ${formatUsd(health.grantedUsd)}` : '';
    warnings.push({
      kind: 'low',
      id: `low|${warnBelowShare}|${grant}`,
      message: `Less than ${Math.round(warnBelowShare * 100)}% of your Promptreel API key's quota is left: ${formatUsd(health.leftUsd)}${of}.`,
    });
  }
  return warnings;
}

/** The key's condition in words when it can no longer pay (expired, used up, refused), else undefined. */
export function keyProblem(state: KeyHealthState, now: number): string | undefined {
  if (state.kind === 'refused') return `The service refused your Promptreel API key when asked about its quota (${state.message}).`;
  if (state.kind !== 'known') return undefined;
  const condition = keyCondition(state.health, now);
  if (condition.expired) return `Your Promptreel API key expired on ${isoDay(state.health)}.`;
  if (condition.exhausted) return "Your Promptreel API key's quota is used up.";
  return undefined;
}

function isoDay(health: KeyHealth): string {
  return expiryDay(health) ?? 'never';
}
