/// <reference path="./internals.d.ts" />
// The part of undici the client uses, and nothing else: built alone into dist/undici.js (esbuild.js) and required on
// the first request (./load.ts), so activation never reads it. undici's own index would also pull in fetch, WebSocket,
// the caches and the mocks. Nothing but ./load.ts may import this file.
import type { Dispatcher } from 'undici';
import Agent = require('undici/lib/dispatcher/agent');
import DispatcherClass = require('undici/lib/dispatcher/dispatcher');
import EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent');
import Pool = require('undici/lib/dispatcher/pool');
import buildConnector = require('undici/lib/core/connect');
import api = require('undici/lib/api');
import { parseURL } from 'undici/lib/core/util';
// Already in this bundle: the HTTP/1 and HTTP/2 clients write a FormData body through fetch's body.js, which uses it.
import { FormData } from 'undici/lib/web/fetch/formdata';

// What undici's index does: every dispatcher gets request, stream, pipeline, upgrade and connect (ProxyAgent tunnels
// through its client's connect()).
Object.assign(DispatcherClass.prototype, api);

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & {
  method: Dispatcher.HttpMethod;
  dispatcher: Dispatcher;
};

/** undici's `request(url, options)` (its `makeDispatcher` wrapper) for an explicit dispatcher: never the global one. */
export function request(url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { dispatcher, ...rest } = options;
  const parsed = parseURL(url);
  return api.request.call(dispatcher, {
    ...rest,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  });
}

export { Agent, buildConnector, DispatcherClass as Dispatcher, EnvHttpProxyAgent, FormData, Pool };
