import { sendInvalidUrl } from './errors';
import { sendJson, sendText } from './httpHelpers';
import type { RouteContext } from './routeContext';

const DAY_SECONDS = 24 * 60 * 60;
/** What one-api answers for an unlimited key's limit. */
const UNLIMITED_USD = 100_000_000;

function notOffered(context: RouteContext): void {
  sendInvalidUrl(context.response, context.request.method ?? 'GET', context.request.url ?? '/');
}

function expiresAt(days: number | null): number {
  return days === null ? 0 : Math.floor(Date.now() / 1000 + days * DAY_SECONDS);
}

/** GET /api/usage/token (new-api): the quota of the key the request carries, in quota units. */
export function tokenUsage(context: RouteContext): void {
  const account = context.scenario.account;
  switch (account.tokenUsage) {
    case 'absent':
      return notOffered(context);
    case 'html':
      return sendText(context.response, 200, '<!doctype html><html><body><div id="root"></div></body></html>', 'text/html');
    case 'unsuccessful':
      return sendJson(context.response, 200, { success: false, message: 'not supported' });
  }
  const unlimited = account.tokenUsage === 'unlimited';
  const granted = account.grantedQuota;
  const used = account.tokenUsage === 'exhausted' ? granted : account.usedQuota;
  sendJson(context.response, 200, {
    code: true,
    message: 'ok',
    data: {
      object: 'token_usage',
      name: 'promptreel-demo',
      total_granted: granted,
      total_used: used,
      total_available: unlimited ? 0 : Math.max(0, granted - used),
      unlimited_quota: unlimited,
      model_limits: account.modelLimits ?? {},
      model_limits_enabled: account.modelLimits !== null,
      expires_at: expiresAt(account.expiresInDays),
    },
  });
}

function billingOffered(context: RouteContext): boolean {
  const where = context.scenario.account.billing;
  const underV1 = (context.request.url ?? '').startsWith('/v1/');
  return where === 'both' || (where === 'v1' && underV1) || (where === 'root' && !underV1);
}

/** GET [/v1]/dashboard/billing/subscription (one-api, OpenAI's legacy format): limits in US dollars. */
export function billingSubscription(context: RouteContext): void {
  if (!billingOffered(context)) return notOffered(context);
  const account = context.scenario.account;
  const limitUsd = account.tokenUsage === 'unlimited' ? UNLIMITED_USD : account.grantedQuota / account.quotaPerUnit;
  sendJson(context.response, 200, {
    object: 'billing_subscription',
    has_payment_method: true,
    soft_limit_usd: limitUsd,
    hard_limit_usd: limitUsd,
    system_hard_limit_usd: limitUsd,
    access_until: expiresAt(account.expiresInDays),
  });
}

/** GET [/v1]/dashboard/billing/usage?start_date&end_date: what was used, in hundredths of a US dollar. */
export function billingUsage(context: RouteContext): void {
  if (!billingOffered(context)) return notOffered(context);
  const account = context.scenario.account;
  const used = account.tokenUsage === 'exhausted' ? account.grantedQuota : account.usedQuota;
  sendJson(context.response, 200, { object: 'list', total_usage: (used / account.quotaPerUnit) * 100 });
}

/** GET /api/status (public): how the gateway shows quota. */
export function status(context: RouteContext): void {
  const account = context.scenario.account;
  if (account.display === 'absent') return notOffered(context);
  sendJson(context.response, 200, {
    success: true,
    message: '',
    data: {
      system_name: 'Promptreel local service',
      quota_per_unit: account.quotaPerUnit,
      display_in_currency: account.display !== 'TOKENS',
      quota_display_type: account.display,
    },
  });
}

/** GET /api/pricing (public on most deployments): per model, per call or per token, with the group ratios. */
export function pricing(context: RouteContext): void {
  const account = context.scenario.account;
  if (account.pricing === 'absent') return notOffered(context);
  if (account.pricing === 'unsuccessful') return sendJson(context.response, 200, { success: false, message: 'pricing is disabled' });
  sendJson(context.response, 200, {
    success: true,
    data: account.prices.map((price) =>
      price.perCallUsd !== undefined
        ? {
            model_name: price.model,
            quota_type: 1,
            model_ratio: 0,
            model_price: price.perCallUsd,
            completion_ratio: 1,
            enable_groups: Object.keys(account.groupRatio),
          }
        : {
            model_name: price.model,
            quota_type: 0,
            model_ratio: price.modelRatio ?? 1,
            model_price: 0,
            completion_ratio: price.completionRatio ?? 1,
            ...(account.cacheRatio !== null ? { cache_ratio: account.cacheRatio } : {}),
            enable_groups: Object.keys(account.groupRatio),
          },
    ),
    group_ratio: account.groupRatio,
  });
}
