import { describePrice, type ModelPrice } from '../../../api/account/prices';
import { t } from '../../../api/l10n';

/** A model's line in a picker: `current · $3.00 in / $12.00 out per 1M tokens · openai`. */
export function modelDescription(id: string, current: string, ownedBy?: string, price?: ModelPrice): string | undefined {
  return [id === current ? t('current') : undefined, price && describePrice(price), ownedBy].filter(Boolean).join(' · ') || undefined;
}
