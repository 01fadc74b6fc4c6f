import type { KeyLogEntry } from '../../../api/account/keyLog';
import { DEFAULT_GROUP } from '../../../api/account/prices';
import { t } from '../../../api/l10n';

/** What Promptreel recorded of one of its own charged requests: a chat reply, or the creation of a video task. */
export interface OwnRequest {
  kind: 'chat' | 'video';
  /** The gateway's id of the request (`X-Oneapi-Request-Id`), when it sent one. */
  requestId?: string;
  model: string;
  /** Epoch milliseconds: when it was sent. */
  startedAt: number;
  /** Epoch milliseconds: when the reply ended, or the task's creation was answered. */
  finishedAt?: number;
  /** The usage the service reported for a reply. */
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  /** What Promptreel estimated it costs, in US dollars. */
  estimateUsd?: number;
}

/** Why a charge differs from its estimate, when it can be told. */
export type ChargeReason = { kind: 'cached-tokens'; cachedTokens: number; cacheRatio?: number } | { kind: 'group-ratio'; group?: string; groupRatio?: number };

/** The log entry of a request and what it was charged. */
export interface Charge {
  entry: KeyLogEntry;
  /** In US dollars: the logged quota at the service's unit. */
  usd: number;
  estimateUsd?: number;
  /** True when there is an estimate and the charge differs from it by more than the log's rounding. */
  differs: boolean;
  /** When it differs: the reasons that apply (empty: it cannot be told). */
  reasons: ChargeReason[];
}

export interface MatchOptions {
  /** How far from the request the entry's time may be (the log counts whole seconds, the clocks differ). Default 5 s. */
  windowMs?: number;
  /** The ratio of the group estimates are made at (the default group's). Default 1. */
  estimateGroupRatio?: number;
}

const DEFAULT_WINDOW_MS = 5_000;
/** A charge within this share of its estimate is the estimate (besides the quota unit the log rounds to). */
const RELATIVE_TOLERANCE = 0.001;

/**
 * Matches each of Promptreel's requests to at most one entry of the key's log, each entry to at most one request:
 * by request id where both have one; else by model, time (the entry within `windowMs` of the request, nearest first)
 * and, for a reply that reported its usage, equal token counts. Returns the charge of each request, in order
 * (undefined: no entry found, yet or at all).
 */
export function matchCharges(requests: readonly OwnRequest[], entries: readonly KeyLogEntry[], options: MatchOptions = {}): (Charge | undefined)[] {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const matched: (KeyLogEntry | undefined)[] = requests.map(() => undefined);
  const used = new Set<KeyLogEntry>();

  const byId = new Map<string, KeyLogEntry>();
  for (const entry of entries) if (entry.requestId && !byId.has(entry.requestId)) byId.set(entry.requestId, entry);
  requests.forEach((request, index) => {
    const entry = request.requestId ? byId.get(request.requestId) : undefined;
    if (entry && !used.has(entry)) {
      matched[index] = entry;
      used.add(entry);
    }
  });

  const pairs: { index: number; entry: KeyLogEntry; distance: number; end: number; order: number }[] = [];
  // The log is newest first: `order` counts from its oldest entry.
  const orderOf = new Map(entries.map((entry, position) => [entry, entries.length - position]));
  requests.forEach((request, index) => {
    if (matched[index]) return;
    for (const entry of entries) {
      if (used.has(entry)) continue;
      const distance = distanceOf(request, entry, windowMs);
      if (distance !== undefined) pairs.push({ index, entry, distance, end: request.finishedAt ?? request.startedAt, order: orderOf.get(entry) ?? 0 });
    }
  });
  // Nearest first; among equally near ones (two requests ended within the same second, which the log cannot tell
  // apart), the older request takes the older entry.
  pairs.sort((a, b) => a.distance - b.distance || a.end - b.end || a.order - b.order);
  for (const { index, entry } of pairs) {
    if (matched[index] || used.has(entry)) continue;
    matched[index] = entry;
    used.add(entry);
  }

  return matched.map((entry, index) => (entry ? chargeOf(requests[index], entry, options.estimateGroupRatio ?? 1) : undefined));
}

/** How far apart in time a request and an entry that may be its own are, or undefined when the entry cannot be its. */
function distanceOf(request: OwnRequest, entry: KeyLogEntry, windowMs: number): number | undefined {
  if (entry.model !== request.model) return undefined;
  if (request.requestId && entry.requestId && request.requestId !== entry.requestId) return undefined;
  if (request.kind === 'chat' && request.promptTokens !== undefined && request.completionTokens !== undefined) {
    if (entry.promptTokens !== request.promptTokens || entry.completionTokens !== request.completionTokens) return undefined;
  }
  // The gateway writes the entry as the request ends, in whole seconds: at a time in [createdAt, createdAt + 1 s).
  const end = request.finishedAt ?? request.startedAt;
  const distance = end < entry.createdAt ? entry.createdAt - end : Math.max(0, end - (entry.createdAt + 999));
  return distance <= windowMs ? distance : undefined;
}

function chargeOf(request: OwnRequest, entry: KeyLogEntry, estimateGroupRatio: number): Charge {
  const estimate = request.estimateUsd;
  const unitUsd = entry.quota > 0 ? entry.usd / entry.quota : 0;
  const differs = estimate !== undefined && Math.abs(entry.usd - estimate) > Math.max(unitUsd, estimate * RELATIVE_TOLERANCE, 1e-12);
  return {
    entry,
    usd: entry.usd,
    ...(estimate !== undefined ? { estimateUsd: estimate } : {}),
    differs,
    reasons: differs ? reasonsOf(request, entry, estimateGroupRatio) : [],
  };
}

function reasonsOf(request: OwnRequest, entry: KeyLogEntry, estimateGroupRatio: number): ChargeReason[] {
  const reasons: ChargeReason[] = [];
  const cachedTokens = entry.cachedTokens ?? request.cachedTokens ?? 0;
  if (cachedTokens > 0) reasons.push({ kind: 'cached-tokens', cachedTokens, ...(entry.cacheRatio !== undefined ? { cacheRatio: entry.cacheRatio } : {}) });
  const otherGroup = entry.groupRatio !== undefined ? entry.groupRatio !== estimateGroupRatio : entry.group !== undefined && entry.group !== DEFAULT_GROUP;
  if (otherGroup)
    reasons.push({
      kind: 'group-ratio',
      ...(entry.group !== undefined ? { group: entry.group } : {}),
      ...(entry.groupRatio !== undefined ? { groupRatio: entry.groupRatio } : {}),
    });
  return reasons;
}

/** Why a charge differs from its estimate, in a sentence per reason; undefined when it cannot be told. */
export function describeChargeReasons(reasons: readonly ChargeReason[]): string | undefined {
  if (reasons.length === 0) return undefined;
  return reasons
    .map((reason) => {
      if (reason.kind === 'cached-tokens')
        return reason.cacheRatio !== undefined
          ? t(
              '{0} prompt tokens came from the cache, charged at {1} of the price.',
              reason.cachedTokens,
              `${Number((reason.cacheRatio * 100).toPrecision(3))}%`,
            )
          : t('{0} prompt tokens came from the cache, charged at another price.', reason.cachedTokens);
      if (reason.group !== undefined && reason.groupRatio !== undefined)
        return t('The key is charged at the group "{0}" (ratio {1}).', reason.group, reason.groupRatio);
      return reason.group !== undefined
        ? t('The key is charged at the group "{0}".', reason.group)
        : t('The key is charged at a group ratio of {0}.', reason.groupRatio ?? 1);
    })
    .join(' ');
}
