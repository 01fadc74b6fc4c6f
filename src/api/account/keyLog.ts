import type * as z from 'zod/mini';
import { logEntrySchema, logOtherSchema } from './accountAnswers';

// `GET /api/log/token?key=<key>` (new-api, SERVICE.md "Account"): the key's own log of what it was charged. An entry
// without its time, kind or charge is left out; one with a field of the wrong type loses that field only.

/** The log's entry kind for a charge. */
export const CONSUMPTION = 2;

/** One charge of the key, as its log tells it. */
export interface KeyLogEntry {
  id?: number;
  /** Epoch milliseconds (the log counts whole seconds). */
  createdAt: number;
  model: string;
  /** What was charged, in quota units. */
  quota: number;
  /** The same in US dollars, at the service's `quota_per_unit`. */
  usd: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those charged at the cache ratio (`other.cache_tokens`). */
  cachedTokens?: number;
  useTimeSeconds?: number;
  isStream?: boolean;
  /** The key's name. */
  tokenName?: string;
  /** The group the key was charged at, and its ratio (`other.group_ratio`). */
  group?: string;
  groupRatio?: number;
  modelRatio?: number;
  completionRatio?: number;
  cacheRatio?: number;
  /** Per call: the model's price in US dollars before the group ratio; absent (or negative in the log) per token. */
  modelPrice?: number;
  /** The gateway's id of the request (`X-Oneapi-Request-Id`), when it keeps one. */
  requestId?: string;
}

/**
 * The charges of a log answer's `data` (an array, or `{items: […]}` where the gateway pages it), newest first, with
 * every other kind of entry (top-ups, errors…) left out; undefined when `data` is neither.
 */
export function keyLogEntries(data: unknown, quotaPerUnit: number): KeyLogEntry[] | undefined {
  const items = Array.isArray(data) ? data : itemsOf(data);
  if (!items) return undefined;
  const entries = items.flatMap((item) => {
    const parsed = logEntrySchema.safeParse(item);
    if (!parsed.success) return [];
    const { created_at: createdAt, quota, type } = parsed.data;
    if (type !== CONSUMPTION || createdAt === undefined || quota === undefined) return [];
    return [toEntry({ ...parsed.data, created_at: createdAt, quota }, quotaPerUnit)];
  });
  return entries.sort((a, b) => b.createdAt - a.createdAt);
}

function itemsOf(data: unknown): unknown[] | undefined {
  const items = typeof data === 'object' && data !== null ? (data as { items?: unknown }).items : undefined;
  return Array.isArray(items) ? items : undefined;
}

type LogEntryAnswer = z.infer<typeof logEntrySchema>;

function toEntry(entry: LogEntryAnswer & { created_at: number; quota: number }, quotaPerUnit: number): KeyLogEntry {
  const other = parseOther(entry.other);
  const fields: Partial<KeyLogEntry> = {
    id: entry.id,
    cachedTokens: other.cache_tokens && other.cache_tokens > 0 ? other.cache_tokens : undefined,
    useTimeSeconds: entry.use_time,
    isStream: entry.is_stream,
    tokenName: entry.token_name,
    group: entry.group || undefined,
    groupRatio: other.group_ratio,
    modelRatio: other.model_ratio,
    completionRatio: other.completion_ratio,
    cacheRatio: other.cache_ratio,
    modelPrice: other.model_price !== undefined && other.model_price >= 0 ? other.model_price : undefined,
    requestId: entry.request_id || undefined,
  };
  return {
    createdAt: entry.created_at * 1000,
    model: entry.model_name ?? '',
    quota: entry.quota,
    usd: entry.quota / quotaPerUnit,
    promptTokens: entry.prompt_tokens ?? 0,
    completionTokens: entry.completion_tokens ?? 0,
    ...(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<KeyLogEntry>),
  };
}

function parseOther(text: string | undefined): z.infer<typeof logOtherSchema> {
  if (!text) return {};
  try {
    const parsed = logOtherSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}
