import { isApiError, type ApiError } from '../errors';
import type { Transport } from '../transport';
import { keyHealthFromBilling, keyHealthFromTokenUsage, type KeyHealth, type QuotaDisplay } from './keyHealth';
import { keyLogEntries, type KeyLogEntry } from './keyLog';
import {
  billingSubscriptionSchema,
  billingUsageSchema,
  modelPriceSchema,
  pricingSchema,
  statusSchema,
  tokenUsageSchema,
  unwrap,
  type BillingSubscriptionAnswer,
  type ModelPriceAnswer,
  type StatusAnswer,
  type TokenUsageAnswer,
} from './accountAnswers';
import { t } from '../l10n';

/** What an account endpoint gave: its answer, or why it is taken as not offered (never an error to show). */
export type Offered<T> = { offered: true; value: T } | { offered: false; why: string };

export interface BillingAnswer {
  subscription: BillingSubscriptionAnswer;
  /** Hundredths of a US dollar. */
  totalUsage: number | undefined;
}

export interface PricingAnswer {
  models: ModelPriceAnswer[];
  groupRatio: Record<string, number>;
}

/** Statuses that mean "this gateway has no such endpoint". */
const NOT_OFFERED_STATUSES = new Set([400, 404, 405, 410, 501]);
/** The legacy usage endpoint wants a range; 99 days back is what every gateway of this family accepts. */
const USAGE_RANGE_DAYS = 99;
/** An account endpoint answers at once or not at all; what it says is never worth the wait of a whole answer. */
const ACCOUNT_DEADLINE_MS = 30_000;

/**
 * Reads the account endpoints of SERVICE.md ("Account"). Each may be absent on a gateway: a 404, a web page or
 * `{"success": false}` gives `{ offered: false }`. A refused key (401/403) on a keyed endpoint and network failures
 * are thrown as ApiError, for the caller to treat as "unknown for now".
 */
export class AccountReader {
  constructor(private readonly transport: Transport) {}

  /** `GET /api/usage/token` (new-api): the quota and expiry of the key itself. */
  async tokenUsage(signal?: AbortSignal): Promise<Offered<TokenUsageAnswer>> {
    return this.read('/api/usage/token', true, t('Reading the key quota'), signal, (data) => tokenUsageSchema.safeParse(data));
  }

  /**
   * The key's quota and expiry: `/api/usage/token`, else the legacy billing pair; undefined when neither is offered.
   * `display` (from `status()`) is read alongside, not before.
   */
  async keyHealth(display: Promise<QuotaDisplay> | QuotaDisplay, signal?: AbortSignal): Promise<KeyHealth | undefined> {
    const [usage, { quotaPerUnit }] = await Promise.all([this.tokenUsage(signal), display]);
    if (usage.offered) return keyHealthFromTokenUsage(usage.value, quotaPerUnit);
    const billing = await this.billing(signal);
    return billing.offered ? keyHealthFromBilling(billing.value) : undefined;
  }

  /** The legacy billing pair, under `/v1/dashboard/…` or `/dashboard/…` (the first that answers). */
  async billing(signal?: AbortSignal, now = new Date()): Promise<Offered<BillingAnswer>> {
    let why = 'not offered';
    for (const prefix of ['/v1', '']) {
      const subscription = await this.read(`${prefix}/dashboard/billing/subscription`, true, t('Reading the billing limits'), signal, (data) =>
        billingSubscriptionSchema.safeParse(data),
      );
      if (!subscription.offered) {
        why = subscription.why;
        continue;
      }
      const range = `start_date=${day(now, -USAGE_RANGE_DAYS)}&end_date=${day(now, 1)}`;
      const usage = await this.read(`${prefix}/dashboard/billing/usage?${range}`, true, t('Reading the billing usage'), signal, (data) =>
        billingUsageSchema.safeParse(data),
      );
      return { offered: true, value: { subscription: subscription.value, totalUsage: usage.offered ? usage.value.total_usage : undefined } };
    }
    return { offered: false, why };
  }

  /** `GET /api/status` (public): the unit quota is displayed in. */
  async status(signal?: AbortSignal): Promise<Offered<StatusAnswer>> {
    return this.read('/api/status', false, t('Reading the service status'), signal, (data) => statusSchema.safeParse(data));
  }

  /** `GET /api/pricing` (public on most deployments): the price of each model, and the group ratios. */
  async pricing(signal?: AbortSignal): Promise<Offered<PricingAnswer>> {
    const raw = await this.fetch('/api/pricing', false, t('Reading the prices'), signal);
    if (!raw.offered) return raw;
    const record = raw.value as { success?: unknown; message?: unknown };
    if (record?.success === false) return { offered: false, why: typeof record.message === 'string' ? record.message : 'not offered' };
    const parsed = pricingSchema.safeParse(raw.value);
    if (!parsed.success) return { offered: false, why: 'the price list has an unexpected shape' };
    const models = parsed.data.data.flatMap((entry) => {
      const model = modelPriceSchema.safeParse(entry);
      return model.success ? [model.data] : [];
    });
    return { offered: true, value: { models, groupRatio: parsed.data.group_ratio ?? {} } };
  }

  /**
   * `GET /api/log/token?key=<key>` (new-api; public, the key in the query string): the key's charges, newest first,
   * in quota units and in US dollars at `display`'s unit (read alongside). Only consumption entries (type 2).
   */
  async keyLog(display: Promise<QuotaDisplay> | QuotaDisplay, signal?: AbortSignal): Promise<Offered<KeyLogEntry[]>> {
    const [raw, { quotaPerUnit }] = await Promise.all([this.fetch('/api/log/token', false, t('Reading the key log'), signal, 'key'), display]);
    if (!raw.offered) return raw;
    const unwrapped = unwrap(raw.value);
    if (!unwrapped.ok) return { offered: false, why: unwrapped.message };
    const entries = keyLogEntries(unwrapped.data, quotaPerUnit);
    return entries ? { offered: true, value: entries } : { offered: false, why: 'the log has an unexpected shape' };
  }

  private async read<T>(
    path: string,
    auth: boolean,
    what: string,
    signal: AbortSignal | undefined,
    parse: (data: unknown) => { success: true; data: T } | { success: false },
  ): Promise<Offered<T>> {
    const raw = await this.fetch(path, auth, what, signal);
    if (!raw.offered) return raw;
    const unwrapped = unwrap(raw.value);
    if (!unwrapped.ok) return { offered: false, why: unwrapped.message };
    const parsed = parse(unwrapped.data);
    return parsed.success ? { offered: true, value: parsed.data } : { offered: false, why: 'the answer has an unexpected shape' };
  }

  /** `keyQuery`: the key goes as this query parameter (to the service's origin only), not as `Authorization`. */
  private async fetch(path: string, auth: boolean, what: string, signal: AbortSignal | undefined, keyQuery?: string): Promise<Offered<unknown>> {
    try {
      const value = await this.transport.json({
        method: 'GET',
        path: `${this.transport.baseUrl}${path}`,
        absolute: true,
        auth,
        ...(keyQuery ? { keyQuery } : {}),
        signal,
        what,
        deadlineMs: ACCOUNT_DEADLINE_MS,
      });
      return { offered: true, value };
    } catch (error) {
      if (isApiError(error) && notOffered(error, auth)) return { offered: false, why: error.message };
      throw error;
    }
  }
}

function notOffered(error: ApiError, auth: boolean): boolean {
  if (error.kind === 'invalid-response') return true;
  if (error.status !== undefined && NOT_OFFERED_STATUSES.has(error.status)) return true;
  // A public endpoint closed to anonymous readers is simply not offered; on a keyed one, the key was refused.
  return !auth && (error.status === 401 || error.status === 403);
}

function day(now: Date, offsetDays: number): string {
  return new Date(now.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}
