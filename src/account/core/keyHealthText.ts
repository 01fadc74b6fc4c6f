import { describeKeyHealth, expiryDay, keyCondition } from '../../api/account/keyHealth';
import { formatUsd } from '../../api/account/prices';
import type { KeyHealthState } from './keyHealthMonitor';

/** The status bar text, or undefined when there is nothing to show (not read, or not offered by the service). */
export function keyHealthText(state: KeyHealthState, now: number): string | undefined {
  if (state.kind === 'refused') return '$(warning) key refused';
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
    return `The service refused the API key when asked about its quota: ${state.message}\n\nSet a new key with "Promptreel: Set API Key".`;
  if (state.kind !== 'known') return 'The key quota is not known.';
  const { health } = state;
  const lines = [`Promptreel key quota${service ? ` on ${service}` : ''}`, ''];
  if (health.unlimited) lines.push('Quota: unlimited' + (health.usedUsd !== undefined ? ` (used ${formatUsd(health.usedUsd)})` : ''));
  else {
    const of = health.grantedUsd !== undefined ? ` of ${formatUsd(health.grantedUsd)}` : '';
    if (health.leftUsd !== undefined) lines.push(`Left: ${formatUsd(health.leftUsd)}${of}`);
    if (health.usedUsd !== undefined) lines.push(`Used: ${formatUsd(health.usedUsd)}`);
  }
  const condition = keyCondition(health, now);
  lines.push(`${condition.expired ? 'Expired' : 'Expires'}: ${expiryDay(health) ?? 'never'}`);
  for (const [model, usd] of Object.entries(health.modelLimitsUsd ?? {})) lines.push(`Limit for ${model}: ${formatUsd(usd)}`);
  lines.push('', `Read ${new Date(state.readAt).toISOString().slice(11, 16)} UTC. Click to read again.`);
  return lines.join('\n');
}
