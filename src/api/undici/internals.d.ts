// Types for the few undici modules dist/undici.js is built from (src/api/undici/slim.ts). undici types only its index,
// which requires everything (fetch, WebSocket, caches, mocks…); these borrow the index's types for the same classes.

declare module 'undici/lib/dispatcher/dispatcher' {
  import { Dispatcher } from 'undici';
  export = Dispatcher;
}

declare module 'undici/lib/dispatcher/agent' {
  import { Agent } from 'undici';
  export = Agent;
}

declare module 'undici/lib/dispatcher/env-http-proxy-agent' {
  import { EnvHttpProxyAgent } from 'undici';
  export = EnvHttpProxyAgent;
}

declare module 'undici/lib/dispatcher/pool' {
  import { Pool } from 'undici';
  export = Pool;
}

declare module 'undici/lib/core/connect' {
  import { buildConnector } from 'undici';
  export = buildConnector;
}

declare module 'undici/lib/api' {
  import type { Dispatcher } from 'undici';
  export function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export const stream: Dispatcher['stream'];
  export const pipeline: Dispatcher['pipeline'];
  export const upgrade: Dispatcher['upgrade'];
  export const connect: Dispatcher['connect'];
}

declare module 'undici/lib/core/util' {
  export function parseURL(url: string | URL): URL;
}

declare module 'undici/lib/web/fetch/formdata' {
  export { FormData } from 'undici';
}
