import { sendInvalidUrl } from './errors';
import { sendJson, sendText } from './httpHelpers';
import { unixSeconds } from './ids';
import type { RouteContext } from './routeContext';
import type { AccountScenario } from './scenario';
import type { ServiceState } from './serviceState';

/** One entry of a key's log, as new-api writes it (SERVICE.md, "Account": `GET /api/log/token`). */
export interface LogEntry {
  id: number;
  /** Unix seconds. */
  created_at: number;
  /** 2: consumption; 1 top-up, 3 management, 4 error, 5 system. */
  type: number;
  content: string;
  username: string;
  token_name: string;
  model_name: string;
  /** What was charged, in quota units. */
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  channel: number;
  token_id: number;
  group: string;
  /** A JSON string: the ratios, the cached tokens, the path. */
  other: string;
  request_id?: string;
}

/** The key's name in the log, as `/api/usage/token` names it. */
export const LOG_TOKEN_NAME = 'promptreel-demo';

/** What a charged request was, for its log entry. */
export interface ChargedRequest {
  model: string;
  /** Date.now() when the request arrived. */
  startedAt: number;
  stream: boolean;
  /** The request id the answer carried in `X-Oneapi-Request-Id` (only when the scenario sends one). */
  requestId?: string;
  /** A chat's usage; absent for a video task (charged per call). */
  usage?: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number };
  path: string;
}

/**
 * The charge, as new-api computes it: per call `model_price × group_ratio` dollars; per token, prompt tokens (the cached
 * ones at `cache_ratio`) plus completion tokens × `completion_ratio`, at `model_ratio × 2 × group_ratio` dollars per
 * million. In quota units (`quotaPerUnit` a dollar), rounded as the gateway rounds.
 */
export function chargeOf(account: AccountScenario, request: ChargedRequest): Pick<LogEntry, 'quota' | 'content' | 'other' | 'group'> {
  const group = account.keyGroup;
  const groupRatio = account.groupRatio[group] ?? 1;
  const price = account.prices.find((candidate) => candidate.model === request.model);
  const common = { group_ratio: groupRatio, request_path: request.path, frt: -1000 };
  if (price?.perCallUsd !== undefined || !request.usage) {
    const modelPrice = price?.perCallUsd ?? 0;
    return {
      group,
      quota: Math.round(modelPrice * groupRatio * account.quotaPerUnit),
      content: `模型价格 ${modelPrice.toFixed(2)}，分组倍率 ${groupRatio.toFixed(2)}`,
      other: JSON.stringify({ ...common, model_price: modelPrice, model_ratio: 0 }),
    };
  }
  const modelRatio = price?.modelRatio ?? 1;
  const completionRatio = price?.completionRatio ?? 1;
  const cached = Math.min(request.usage.cached_tokens ?? 0, request.usage.prompt_tokens);
  const cacheRatio = account.cacheRatio ?? 1;
  const tokens = request.usage.prompt_tokens - cached + cached * cacheRatio + request.usage.completion_tokens * completionRatio;
  const usd = (tokens * modelRatio * 2 * groupRatio) / 1_000_000;
  return {
    group,
    quota: Math.round(usd * account.quotaPerUnit),
    content: `模型倍率 ${modelRatio.toFixed(2)}，补全倍率 ${completionRatio.toFixed(2)}，分组倍率 ${groupRatio.toFixed(2)}`,
    other: JSON.stringify({
      ...common,
      model_ratio: modelRatio,
      completion_ratio: completionRatio,
      model_price: -1,
      ...(cached > 0 ? { cache_tokens: cached, cache_ratio: cacheRatio } : {}),
    }),
  };
}

/** Logs a charged request under its key (type 2). */
export function logCharge(state: ServiceState, key: string, account: AccountScenario, request: ChargedRequest, now = Date.now()): LogEntry {
  return state.appendLog(key, {
    created_at: unixSeconds(now),
    type: 2,
    model_name: request.model,
    prompt_tokens: request.usage?.prompt_tokens ?? 0,
    completion_tokens: request.usage?.completion_tokens ?? 0,
    use_time: Math.max(0, Math.round((now - request.startedAt) / 1000)),
    is_stream: request.stream,
    ...chargeOf(account, request),
    ...(account.requestIdHeader && request.requestId ? { request_id: request.requestId } : {}),
  });
}

/** Logs a refused charged request (type 4, nothing charged), as new-api does: a client must leave these out. */
export function logError(state: ServiceState, key: string, account: AccountScenario, model: string, message: string, requestId?: string): LogEntry {
  return state.appendLog(key, {
    created_at: unixSeconds(),
    type: 4,
    content: message,
    model_name: model,
    quota: 0,
    group: account.keyGroup,
    ...(account.requestIdHeader && requestId ? { request_id: requestId } : {}),
  });
}

/** Fills in what every entry has. */
export function logEntry(id: number, fields: Partial<LogEntry>): LogEntry {
  return {
    id,
    created_at: unixSeconds(),
    type: 2,
    content: '',
    username: 'demo',
    token_name: LOG_TOKEN_NAME,
    model_name: '',
    quota: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    use_time: 0,
    is_stream: false,
    channel: 1,
    token_id: 1,
    group: 'default',
    other: '{}',
    ...fields,
  };
}

/** GET /api/log/token?key=<key> (public, the key in the query string): the key's log, newest first. */
export function keyLog(context: RouteContext): void {
  const { state, response } = context;
  state.logReads += 1;
  const key = new URLSearchParams((context.request.url ?? '').split('?')[1] ?? '').get('key') ?? '';
  const valid = key !== '' && state.isValidKey(key);
  const account = state.scenarioFor(valid ? key : undefined).account;
  switch (account.log) {
    case 'absent':
      // Quoting the whole address, the key in its query string, as some gateways and proxies do.
      return sendInvalidUrl(response, 'GET', context.request.url ?? '/api/log/token');
    case 'html':
      return sendText(response, 200, '<!doctype html><html><body><div id="root"></div></body></html>', 'text/html');
    case 'unsuccessful':
      return sendJson(response, 200, { success: false, message: 'this feature is disabled' });
  }
  if (!valid) return sendJson(response, 200, { success: false, message: '无效的令牌' });
  sendJson(response, 200, { success: true, message: '', data: state.logOf(key) });
}
