import { ApiError } from './errors';
import { extractRequestId, parseErrorBody } from './errorBodies';
import { certificateHint, certificateProblemOf } from './tls/certificateProblem';
import { PrivateAddressError } from './privateAddresses';
import { t } from './l10n';

export type HeaderValue = string | string[] | undefined;
export type Headers = Record<string, HeaderValue>;

export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** `Retry-After` as delay-seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const RETRYABLE_STATUS = new Set([408, 425, 429, 500, 502, 503, 504]);

export function errorFromResponse(status: number, headers: Headers, bodyText: string, what: string): ApiError {
  const body = parseErrorBody(bodyText, headerValue(headers, 'content-type'));
  const retryAfterMs = parseRetryAfter(headerValue(headers, 'retry-after'));
  const requestId = extractRequestId(body.message) ?? headerValue(headers, 'x-request-id') ?? headerValue(headers, 'x-oneapi-request-id');
  const serverMessage = body.message;
  const hint = hintForStatus(status, body.code, body.param, retryAfterMs);
  const shown = serverMessage ?? (body.isHtml ? t('an HTML page instead of JSON') : t('no details'));
  return new ApiError({
    kind: 'http',
    status,
    code: body.code,
    type: body.type,
    param: body.param,
    requestId,
    serverMessage,
    retryAfterMs,
    retryable: RETRYABLE_STATUS.has(status),
    hint,
    message: t('{0} failed with HTTP {1}: {2}', what, status, shown),
  });
}

export function hintForStatus(status: number, code?: string, param?: string, retryAfterMs?: number): string {
  if (code === 'task_not_exist') return t('The video task does not exist on this service (or it has expired).');
  if (code === 'model_not_found') return t('The model is not available on this service: pick another model.');
  if (code === 'insufficient_user_quota' || code === 'pre_consume_token_quota_failed') {
    return t("The balance or the key's quota is too low: top up or raise the key's quota in the service's console.");
  }
  switch (status) {
    case 400:
      return param ? t('The service refused the parameter "{0}".', param) : t('The service refused the request.');
    case 401:
      return t('The API key is invalid, expired, disabled or out of quota: set a new key.');
    case 402:
      return t("The balance is too low: top up in the service's console.");
    case 403:
      return t('This key may not use this model, or the balance or quota is too low.');
    case 404:
      return t('Not found: the base URL is probably wrong (check for a missing or doubled /v1, or a wrong path).');
    case 408:
      return t('The service timed out: try again.');
    case 413:
      return t('The request is too large for the service.');
    case 429:
      return retryAfterMs !== undefined
        ? t('Rate limited: retry after {0} s.', Math.max(1, Math.ceil(retryAfterMs / 1000)))
        : t('Rate limited: wait a moment and retry.');
    default:
      if (status >= 500) return t('The service is having trouble (HTTP {0}): try again later.', status);
      return t('The service answered HTTP {0}.', status);
  }
}

const NETWORK_CODES_BEFORE_SENDING = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function privateAddressOf(error: unknown): PrivateAddressError | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    if (current instanceof PrivateAddressError) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps an undici/Node failure (no HTTP answer) to an ApiError. */
export function errorFromNetwork(error: unknown, target: string): ApiError {
  const code = errorCode(error);
  const detail = error instanceof Error ? error.message : String(error);
  const host = safeHost(target);
  const beforeSending = code !== undefined && NETWORK_CODES_BEFORE_SENDING.has(code);
  const refused = privateAddressOf(error);
  if (refused) {
    return new ApiError({
      kind: 'network',
      code: refused.code,
      message: t(
        'Promptreel did not connect to {0}: it is at a private address ({1}), and only the service itself may be on a private network.',
        host,
        refused.address,
      ),
      hint: t('The service sent an address (or a redirect) that leads into a private network. Ask whoever runs the service.'),
      retryable: false,
      mayHaveReachedServer: false,
      cause: error,
    });
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new ApiError({
      kind: 'timeout',
      code,
      message: t('{0} did not answer in time ({1}).', host, code),
      hint:
        code === 'UND_ERR_CONNECT_TIMEOUT'
          ? t('Could not connect in time: check the base URL, your network or proxy settings.')
          : t('The service did not answer in time: try again.'),
      retryable: true,
      mayHaveReachedServer: !beforeSending,
      cause: error,
    });
  }
  const problem = certificateProblemOf(code);
  if (problem || (code && code.startsWith('ERR_TLS'))) {
    return new ApiError({
      kind: 'network',
      code,
      message: t('TLS failure talking to {0}: {1}', host, detail),
      hint: problem ? certificateHint(problem) : t("The server's certificate was not accepted. Behind a corporate proxy, check http.proxyStrictSSL."),
      retryable: false,
      mayHaveReachedServer: false,
      cause: error,
    });
  }
  return new ApiError({
    kind: 'network',
    code,
    message: t('Could not reach {0}: {1}.', host, code ?? detail),
    hint:
      code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? t('The host name could not be resolved: check the base URL and your network.')
        : code === 'ECONNREFUSED'
          ? t('Nothing is listening at the base URL: check the address and port.')
          : t('The connection failed: check your network or proxy settings and retry.'),
    retryable: true,
    mayHaveReachedServer: !beforeSending,
    cause: error,
  });
}

function safeHost(target: string): string {
  try {
    return new URL(target).host;
  } catch {
    return target;
  }
}

/** The gateway's id of a request (new-api's `X-Oneapi-Request-Id`), which its key log entries carry. */
export function gatewayRequestId(headers: Headers): string | undefined {
  return headerValue(headers, 'x-oneapi-request-id') || undefined;
}
