import * as z from 'zod/mini';
import { orUndefined } from '../tolerant';

// The account endpoints of SERVICE.md ("Account"), as gateways of this family answer them. Every field is optional
// and checked on its own: a gateway that leaves one out, or sends a string for a number, loses that field only.

const num = orUndefined(z.optional(z.pipe(z.union([z.number(), z.string().check(z.regex(/^-?\d+(\.\d+)?$/))]), z.transform(Number))));
const bool = orUndefined(z.optional(z.boolean()));
const str = orUndefined(z.optional(z.string()));

/** `GET /api/usage/token` → `data` (new-api): amounts in quota units. */
export const tokenUsageSchema = z.object({
  name: orUndefined(z.optional(z.string())),
  total_granted: num,
  total_used: num,
  total_available: num,
  unlimited_quota: bool,
  model_limits: orUndefined(z.optional(z.record(z.string(), z.number()))),
  model_limits_enabled: bool,
  /** Unix seconds; 0: never. */
  expires_at: num,
});
export type TokenUsageAnswer = z.infer<typeof tokenUsageSchema>;

/** `GET [/v1]/dashboard/billing/subscription` (one-api, OpenAI's legacy format). */
export const billingSubscriptionSchema = z.object({
  object: z.optional(z.string()),
  hard_limit_usd: num,
  soft_limit_usd: num,
  system_hard_limit_usd: num,
  /** Unix seconds; 0: never. */
  access_until: num,
});
export type BillingSubscriptionAnswer = z.infer<typeof billingSubscriptionSchema>;

/** `GET [/v1]/dashboard/billing/usage`: `total_usage` in hundredths of a US dollar. */
export const billingUsageSchema = z.object({ total_usage: num });

/** `GET /api/status` → `data`. */
export const statusSchema = z.object({
  quota_per_unit: num,
  display_in_currency: bool,
  quota_display_type: orUndefined(z.optional(z.string())),
});
export type StatusAnswer = z.infer<typeof statusSchema>;

/** One entry of `GET /api/pricing` → `data`. */
export const modelPriceSchema = z.object({
  model_name: z.string().check(z.minLength(1)),
  /** 0: per token, 1: per call. */
  quota_type: num,
  model_ratio: num,
  model_price: num,
  completion_ratio: num,
  /** Cached prompt tokens cost this share of a prompt token, where published. */
  cache_ratio: num,
  enable_groups: orUndefined(z.optional(z.array(z.string()))),
});
export type ModelPriceAnswer = z.infer<typeof modelPriceSchema>;

export const pricingSchema = z.object({
  data: z.array(z.unknown()),
  group_ratio: orUndefined(z.optional(z.record(z.string(), z.number()))),
});

/** One entry of `GET /api/log/token` → `data` (new-api): the key's log (only the fields Promptreel reads). */
export const logEntrySchema = z.object({
  id: num,
  /** Unix seconds. */
  created_at: num,
  /** 2: consumption; 1 top-up, 3 management, 4 error, 5 system. */
  type: num,
  content: str,
  model_name: str,
  /** Quota units. */
  quota: num,
  prompt_tokens: num,
  completion_tokens: num,
  /** Seconds. */
  use_time: num,
  is_stream: bool,
  token_name: str,
  group: str,
  /** A JSON string: the ratios, the cached tokens… */
  other: str,
  request_id: str,
});

/** What a log entry's `other` (a JSON string) says about the charge. */
export const logOtherSchema = z.object({
  group_ratio: num,
  model_ratio: num,
  completion_ratio: num,
  model_price: num,
  cache_ratio: num,
  cache_tokens: num,
});

/**
 * The payload of an answer that says it succeeded: new-api wraps it as `{success|code, data}`; `{"success": false}`
 * (or `code: false`) means the endpoint is not offered. Answers without a wrapper are their own payload.
 */
export function unwrap(raw: unknown): { ok: true; data: unknown } | { ok: false; message: string } {
  if (typeof raw !== 'object' || raw === null) return { ok: false, message: 'the answer is not an object' };
  const record = raw as Record<string, unknown>;
  if (record.success === false || record.code === false)
    return { ok: false, message: typeof record.message === 'string' && record.message ? record.message : 'not offered' };
  if ('data' in record && (record.success === true || record.code === true || record.code === 0)) return { ok: true, data: record.data };
  return { ok: true, data: raw };
}
