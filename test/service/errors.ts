import type * as http from 'node:http';
import { newRequestId } from './ids';
import { sendJson, sendText } from './httpHelpers';
import type { Fault } from './scenario';

/** The bodies real gateways send when something goes wrong. */

export interface OpenAiErrorFields {
  message: string;
  type: string;
  code: string | null;
  param?: string;
}

export function withRequestId(message: string): string {
  return `${message} (request id: ${newRequestId()})`;
}

export function sendOpenAiError(response: http.ServerResponse, status: number, fields: OpenAiErrorFields, headers: Record<string, string> = {}): void {
  const error: Record<string, unknown> = { message: fields.message, type: fields.type };
  if (fields.param !== undefined) error['param'] = fields.param;
  error['code'] = fields.code;
  sendJson(response, status, { error }, headers);
}

export function sendTaskError(response: http.ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, status, { code, message, data: null }, headers);
}

export function sendInvalidUrl(response: http.ServerResponse, method: string, path: string): void {
  sendOpenAiError(response, 404, {
    message: `Invalid URL (${method} ${path})`,
    type: 'invalid_request_error',
    code: 'not_found',
  });
}

export function sendInvalidKey(response: http.ServerResponse, keyGiven: boolean): void {
  sendOpenAiError(response, 401, {
    message: withRequestId(keyGiven ? 'Invalid token' : 'No token provided (Authorization: Bearer <key> is missing)'),
    type: 'new_api_error',
    code: 'invalid_api_key',
  });
}

export function sendUnknownTask(response: http.ServerResponse, status: 400 | 404): void {
  sendTaskError(response, status, 'task_not_exist', 'task_not_exist');
}

interface FaultDefaults {
  code: string;
  message: string;
  type: string;
}

/** What a gateway typically says for a status; a fault can override each field. */
function defaultsFor(status: number): FaultDefaults {
  switch (status) {
    case 400:
      return { code: 'invalid_request', message: 'Bad request', type: 'invalid_request_error' };
    case 401:
      return { code: 'invalid_api_key', message: 'Invalid token', type: 'new_api_error' };
    case 403:
      return { code: 'insufficient_user_quota', message: 'User quota is not enough', type: 'new_api_error' };
    case 404:
      return { code: 'not_found', message: 'Not found', type: 'invalid_request_error' };
    case 408:
      return { code: 'timeout', message: 'Request timed out', type: 'new_api_error' };
    case 429:
      return { code: 'rate_limit_exceeded', message: 'Rate limit reached, please try again later', type: 'rate_limit_error' };
    case 502:
      return { code: 'bad_gateway', message: 'Bad gateway: the upstream did not answer', type: 'upstream_error' };
    case 503:
      return { code: 'model_not_found', message: 'No available channel for this model', type: 'new_api_error' };
    case 504:
      return { code: 'gateway_timeout', message: 'Gateway timeout', type: 'upstream_error' };
    default:
      return status >= 500
        ? { code: 'internal_error', message: 'Internal server error', type: 'new_api_error' }
        : { code: 'bad_request', message: `Request failed with status ${status}`, type: 'invalid_request_error' };
  }
}

const statusTexts: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Temporarily Unavailable',
  504: 'Gateway Time-out',
  524: 'A timeout occurred',
};

function nginxPage(status: number): string {
  const title = `${status} ${statusTexts[status] ?? 'Error'}`;
  return (
    `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
    `<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`
  );
}

export function sendFault(response: http.ServerResponse, fault: Fault, key?: string): void {
  const defaults = defaultsFor(fault.status);
  const headers: Record<string, string> = {};
  if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
  const baseMessage = `${fault.message ?? defaults.message}${fault.echoKey ? ` (token: ${key ?? 'none'})` : ''}`;
  const message = fault.requestId === false ? baseMessage : withRequestId(baseMessage);
  const code = fault.code ?? defaults.code;
  switch (fault.body ?? 'openai') {
    case 'openai': {
      const fields: OpenAiErrorFields = { message, type: fault.type ?? defaults.type, code };
      if (fault.param !== undefined) fields.param = fault.param;
      sendOpenAiError(response, fault.status, fields, headers);
      return;
    }
    case 'task':
      sendTaskError(response, fault.status, code, message, headers);
      return;
    case 'empty':
      response.writeHead(fault.status, { 'content-length': '0', ...headers });
      response.end();
      return;
    case 'html':
      sendText(response, fault.status, nginxPage(fault.status), 'text/html', { server: 'nginx', ...headers });
      return;
  }
}
