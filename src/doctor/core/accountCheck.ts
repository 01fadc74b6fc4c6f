import { isApiError } from '../../api/errors';
import type { AccountApi } from '../../api/serviceClient';
import { keyCondition, quotaDisplay } from '../../api/account/keyHealth';
import { describePrice, modelPrices, type ModelPrice } from '../../api/account/prices';
import { withPriceSettings } from '../../connection/account/core/priceBook';
import { describeError } from '../../common/logger';
import type { PriceSetting } from '../../config/schema';
import type { DoctorAccount } from './doctorResult';
import { describeQuota } from './quotaWords';
import { t } from '../../api/l10n';

export interface AccountCheckInput {
  reader: AccountApi;
  /** The models whose prices are worth naming: the chat model, the video model. */
  models: readonly string[];
  /** `promptreel.models.prices`: they win over the service's list, as everywhere else. */
  priceSettings: Readonly<Record<string, PriceSetting>>;
  now: number;
  signal?: AbortSignal;
}

/**
 * The key's quota (`/api/usage/token`, else the billing pair; `/api/status` for the unit) and the prices of the models
 * in use. Never a failure: a gateway without these endpoints is healthy, and what could not be read is said in words.
 */
export async function checkAccount(input: AccountCheckInput): Promise<DoctorAccount> {
  const [quota, prices] = await Promise.all([readQuota(input), readPrices(input)]);
  return { ...quota, ...(prices ? { prices } : {}) };
}

async function readQuota({ reader, now, signal }: AccountCheckInput): Promise<Omit<DoctorAccount, 'prices'>> {
  try {
    const display = reader.status(signal).then(
      (status) => quotaDisplay(status.offered ? status.value : undefined),
      () => quotaDisplay(undefined),
    );
    const health = await reader.keyHealth(display, signal);
    if (!health) return { quota: t('Key quota: not offered by this service.') };
    const condition = keyCondition(health, now);
    const keyProblem = condition.expired ? 'expired' : condition.exhausted ? 'used-up' : undefined;
    return { quota: t('Key quota: {0}.', describeQuota(health, await display, now)), ...(keyProblem ? { keyProblem } : {}) };
  } catch (error) {
    // Some gateways answer these endpoints only for a dashboard login: the key that just chatted is not at fault.
    if (isApiError(error) && (error.status === 401 || error.status === 403)) {
      return { quota: t('Key quota: the service refused the key when asked about its quota ({0}).', error.serverMessage ?? error.message) };
    }
    return { quota: t('Key quota: could not be read ({0}).', describeError(error)) };
  }
}

async function readPrices({ reader, models, priceSettings, signal }: AccountCheckInput): Promise<string | undefined> {
  let listed: ReadonlyMap<string, ModelPrice> = new Map();
  try {
    const pricing = await reader.pricing(signal);
    if (pricing.offered) listed = modelPrices(pricing.value);
  } catch {
    // Prices are a courtesy here: those of the settings are still named.
  }
  const prices = withPriceSettings(listed, priceSettings);
  const named = models.flatMap((model) => {
    const known = prices.get(model);
    return known ? [`${model} ${describePrice(known)}${known.source === 'settings' ? ' (promptreel.models.prices)' : ''}`] : [];
  });
  return named.length ? t('Prices: {0}.', named.join('; ')) : undefined;
}
