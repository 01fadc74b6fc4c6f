import { describeKeyHealth, expiryDay, keyCondition } from '../../api/account/keyHealth';
import { formatUsd } from '../../api/account/prices';
import type { KeyHealthState } from '../../connection/account/core/keyHealthMonitor';
import { t } from '../../api/l10n';

/** The status bar text, or undefined when there is nothing to show (not read, or not offered by the service). */
export function keyHealthText(state: KeyHealthState, now: number): string | undefined {
  if (state.kind === 'refused') return t('$(warning) key refused');
  if (state.kind !== 'known') return undefined;
  const condition = keyCondition(state.health, now);
  const icon = condition.expired || condition.exhausted ? '$(warning)' : '$(key)';
  return `${icon} ${describeKeyHealth(state.health, state.display, now)}`;
}

/** True when the key can no longer pay for anything: the status bar shows it as a warning. */
export function keyHealthIsBad(state: KeyHealthState, now: number): boolean {
  if (state.kind === 'refused') return true;
  if (state.kind !== 'known') return false;
  const condition = keyCondition(state.health, now);
  return condition.expired || condition.exhausted;
}

/** The tooltip: what was granted, used and is left, the expiry date, the model limits, and when it was read. */
export function keyHealthTooltip(state: KeyHealthState, service: string | undefined, now: number): string {
  if (state.kind === 'refused')
    return t('The service refused the API key when asked about its quota: {0}\n\nSet a new key with "Promptreel: Set API Key".', state.message);
  if (state.kind !== 'known') return t('The key quota is not known.');
  const { health } = state;
  const lines = [service ? t('Promptreel key quota on {0}', service) : t('Promptreel key quota'), ''];
  if (health.unlimited) lines.push(health.usedUsd !== undefined ? t('Quota: unlimited (used {0})', formatUsd(health.usedUsd)) : t('Quota: unlimited'));
  else {
    if (health.leftUsd !== undefined) {
      lines.push(
        health.grantedUsd !== undefined
          ? t('Left: {0} of {1}', formatUsd(health.leftUsd), formatUsd(health.grantedUsd))
          : t('Left: {0}', formatUsd(health.leftUsd)),
      );
    }
    if (health.usedUsd !== undefined) lines.push(t('Used: {0}', formatUsd(health.usedUsd)));
  }
  const condition = keyCondition(health, now);
  const day = expiryDay(health);
  lines.push(condition.expired ? t('Expired: {0}', day ?? '') : day ? t('Expires: {0}', day) : t('Expires: never'));
  for (const [model, usd] of Object.entries(health.modelLimitsUsd ?? {})) lines.push(t('Limit for {0}: {1}', model, formatUsd(usd)));
  lines.push('', t('Read {0} UTC. Click to read again.', new Date(state.readAt).toISOString().slice(11, 16)));
  return lines.join('\n');
}
