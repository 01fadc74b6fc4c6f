import type * as http from 'node:http';
import { chatCompletions } from './chatRoute';
import { handleControl } from './control';
import { sendFault, sendInvalidKey, sendInvalidUrl, sendOpenAiError, withRequestId } from './errors';
import { closeSignal, pathOf, pause, recordRequest, sendJson } from './httpHelpers';
import { listModels } from './modelsRoute';
import { trickleJson } from './quirks';
import type { RouteContext } from './routeContext';
import type { ServiceState } from './serviceState';
import { createVideo, queryVideo, videoContent } from './videoRoutes';
import { billingSubscription, billingUsage, pricing, status, tokenUsage } from './accountRoutes';
import { newRequestId } from './ids';
import { keyLog, logError } from './keyLog';

interface Route {
  method: string;
  pattern: RegExp;
  handle: (context: RouteContext) => void | Promise<void>;
  /** Answered without a key (`/api/status`, `/api/pricing`). */
  public?: boolean;
}

const routes: Route[] = [
  { method: 'GET', pattern: /^\/v1\/models$/, handle: listModels },
  { method: 'POST', pattern: /^\/v1\/chat\/completions$/, handle: chatCompletions },
  { method: 'POST', pattern: /^\/v1\/videos$/, handle: createVideo },
  { method: 'GET', pattern: /^\/v1\/videos\/([^/]+)$/, handle: queryVideo },
  { method: 'GET', pattern: /^\/v1\/videos\/([^/]+)\/content$/, handle: videoContent },
  { method: 'GET', pattern: /^\/api\/usage\/token$/, handle: tokenUsage },
  { method: 'GET', pattern: /^(?:\/v1)?\/dashboard\/billing\/subscription$/, handle: billingSubscription },
  { method: 'GET', pattern: /^(?:\/v1)?\/dashboard\/billing\/usage$/, handle: billingUsage },
  { method: 'GET', pattern: /^\/api\/status$/, handle: status, public: true },
  { method: 'GET', pattern: /^\/api\/pricing$/, handle: pricing, public: true },
  { method: 'GET', pattern: /^\/api\/log\/token$/, handle: keyLog, public: true },
];

/** The requests the gateway charges for: a refused one is logged as an error entry (type 4). */
const CHARGED = /^POST \/v1\/(chat\/completions|videos)$/;

/** The gateway: /v1 routes, plus the control API under /__control/ (not recorded, no auth). */
export function apiHandler(state: ServiceState): http.RequestListener {
  return (request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else sendJson(response, 500, { error: { message: `local service bug: ${String(error)}`, type: 'server_error', code: 'internal_error' } });
    });
  };
}

/**
 * Order: record the request; wait `latencyMs`; unknown route → 404; bad key → 401 (unless a 401/403
 * fault matches, which plays a key problem for any key); then a matching fault; then the route.
 */
async function handle(state: ServiceState, request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
  const path = pathOf(request.url ?? '/');
  if (path.startsWith('/__control/')) {
    await handleControl(state, request, response, path);
    return;
  }
  const signal = closeSignal(response);
  state.activeRequests += 1;
  response.once('close', () => (state.activeRequests -= 1));
  const record = await recordRequest(request);
  state.requests.push(record);
  const valid = state.isValidKey(record.key);
  const key = valid ? record.key : undefined;
  if (!(await pause(state.scenarioFor(key).latencyMs, signal))) return;

  const method = record.method.toUpperCase();
  let params: string[] | undefined;
  const route = routes.find((candidate) => {
    const match = candidate.method === method ? candidate.pattern.exec(path) : null;
    if (match) params = match.slice(1).map(decodePathSegment);
    return match !== null;
  });
  if (!route || !params) {
    sendInvalidUrl(response, method, path);
    return;
  }
  const gate = state.scenarioFor(key);
  const requestId = newRequestId();
  if (gate.account.requestIdHeader && path.startsWith('/v1/')) response.setHeader('x-oneapi-request-id', requestId);
  const missingHeader = Object.entries(gate.requiredHeaders).find(([name, value]) => record.headers[name.toLowerCase()] !== value);
  if (missingHeader) {
    sendOpenAiError(response, 403, {
      message: withRequestId(`Access denied: header ${missingHeader[0]} is missing or wrong`),
      type: 'access_denied',
      code: 'missing_header',
    });
    return;
  }
  const query = new URLSearchParams(record.path.includes('?') ? record.path.slice(record.path.indexOf('?') + 1) : '');
  const missingQuery = path.startsWith('/v1/') ? Object.entries(gate.requiredQuery).find(([name, value]) => query.get(name) !== value) : undefined;
  if (missingQuery) {
    sendOpenAiError(response, 400, {
      message: withRequestId(`The query parameter ${missingQuery[0]} is required (e.g. ?${missingQuery[0]}=${missingQuery[1]})`),
      type: 'invalid_request_error',
      code: 'missing_required_parameter',
      param: missingQuery[0],
    });
    return;
  }
  const play = (context: RouteContext) => {
    const trickle = context.scenario.trickleMs;
    return trickle !== null && method === 'GET' ? trickleJson(response, signal, trickle) : route.handle(context);
  };
  if (key === undefined && route.public) {
    await play({ request, response, body: record.body, key: '', scenario: state.scenarioFor(undefined), state, signal, requestId, params });
    return;
  }
  if (key === undefined) {
    const keyFault = state.takeFault(undefined, method, path, (fault) => fault.status === 401 || fault.status === 403);
    if (keyFault) sendFault(response, keyFault, record.key);
    else sendInvalidKey(response, record.key !== undefined);
    return;
  }
  const fault = state.takeFault(key, method, path);
  if (fault) {
    if (CHARGED.test(`${method} ${path}`)) {
      const model = (record.body as { model?: unknown } | undefined)?.model;
      logError(state, key, gate.account, typeof model === 'string' ? model : '', fault.message ?? `HTTP ${fault.status}`, requestId);
    }
    sendFault(response, fault, record.key);
    return;
  }
  await play({ request, response, body: record.body, key, scenario: state.scenarioFor(key), state, signal, requestId, params });
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
