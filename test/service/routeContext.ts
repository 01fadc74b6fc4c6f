import type * as http from 'node:http';
import type { Scenario } from './scenario';
import type { ServiceState } from './serviceState';

/** What a /v1 route handler gets once the request is recorded, authorised and not faulted. */
export interface RouteContext {
  request: http.IncomingMessage;
  response: http.ServerResponse;
  /** The parsed body (see RecordedRequest.body). */
  body: unknown;
  key: string;
  /** The scenario of this request's key, read now. */
  scenario: Scenario;
  state: ServiceState;
  /** Aborted when the response closes (client gone, or stop()). */
  signal: AbortSignal;
  /** new-api's id of this request (sent in `X-Oneapi-Request-Id` when `account.requestIdHeader`). */
  requestId: string;
  /** Captures of the route pattern, e.g. the task id. */
  params: string[];
}
