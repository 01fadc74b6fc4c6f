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

/** Why the answer of a create request counts as lost (for an error `mayHaveCreated` holds for). */
export type LostReason = { kind: 'no-task-id' } | { kind: 'proxy'; status: number } | { kind: 'dropped' };

export function lostReason(error: ApiError): LostReason {
  if (error.kind === 'invalid-response') return { kind: 'no-task-id' };
  if (error.kind === 'http') return { kind: 'proxy', status: error.status ?? 0 };
  return { kind: 'dropped' };
}

/** The reason in English, for the language model that called the video tool. */
export function lostBecause(error: ApiError): string {
  const reason = lostReason(error);
  if (reason.kind === 'no-task-id') return 'it carried no task id';
  if (reason.kind === 'proxy') return `a proxy in front of the service answered HTTP ${reason.status} after the request was sent`;
  return 'the connection dropped after the request was sent';
}
