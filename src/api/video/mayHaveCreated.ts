import type { ApiError } from '../errors';

/**
 * A proxy or CDN in front of the gateway answers these when it gave up waiting for the gateway, which usually went on
 * and created the task: 502 Bad Gateway, 504 Gateway Timeout, 524 (Cloudflare: a timeout occurred).
 */
const PROXY_TIMEOUT_STATUSES = new Set([502, 504, 524]);

/** A create request went out and no usable answer came back: the service may have made (and charged) the task. */
export function mayHaveCreated(error: ApiError): boolean {
  if (error.kind === 'invalid-response') return true;
  if (error.kind === 'http') return PROXY_TIMEOUT_STATUSES.has(error.status ?? 0);
  return !!error.mayHaveReachedServer && (error.kind === 'network' || error.kind === 'timeout');
}

/** Why the answer counts as lost, for the message that says so. */
export function lostBecause(error: ApiError): string {
  if (error.kind === 'invalid-response') return 'it carried no task id';
  if (error.kind === 'http') return `a proxy in front of the service answered HTTP ${error.status} after the request was sent`;
  return 'the connection dropped after the request was sent';
}
