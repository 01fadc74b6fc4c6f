import { formatUsd } from '../../api/account/prices';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';
import type { SettledReply } from '../../connection/account/core/chargedCosts';

/**
 * The line under an answer in VS Code's Chat: what it cost, estimated from the model's price, and what the key's log
 * says it was charged, with why they differ when that can be told. Nothing when neither is known.
 */
export function costFooter({ estimateUsd, charged }: SettledReply): string | undefined {
  if (!charged) return estimateUsd !== undefined ? t('Cost: ≈ {0} (estimated).', formatUsd(estimateUsd)) : undefined;
  if (estimateUsd === undefined || !charged.differs) return t('Cost: charged {0}.', formatUsd(charged.usd));
  return joinSentences(t('Cost: ≈ {0} estimated, charged {1}.', formatUsd(estimateUsd), formatUsd(charged.usd)), charged.reason);
}
