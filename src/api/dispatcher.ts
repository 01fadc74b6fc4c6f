// Pinned by `npm run bench -- --only download`: a 256 MB download against curl and Node's plain pipeline, and its memory growth.
import type { Dispatcher } from 'undici';
import type * as net from 'node:net';
import type { SecureContext } from 'node:tls';
import { undici } from './undici/load';
import { PrivateAddressPolicy, type AddressPolicyOptions } from './privateAddresses';
import { secureContextFor, type TlsConfig } from './tls/tlsConfig';

export interface DispatcherOptions {
  /**
   * The service's base URL. Only its origin is offered the client certificate; every other origin (a CDN, wherever a
   * redirect leads) is reached without it, and only at a public address unless the service's own address is private.
   */
  service: string;
  /** An explicit proxy (VS Code's `http.proxy`); when absent, HTTPS_PROXY/HTTP_PROXY/NO_PROXY from `env` apply. */
  proxyUrl?: string;
  /** Hosts that bypass the proxy, comma separated like NO_PROXY (VS Code's `http.noProxy`). */
  noProxy?: string;
  /** VS Code's `http.proxyStrictSSL`: false accepts certificates that do not verify. Default true. */
  strictSSL?: boolean;
  /** Authorities to trust besides Node's bundled ones, and a client certificate. */
  tls?: TlsConfig;
  /** `tls` made into a secure context already (by a caller that checked it first): not made twice. */
  secureContext?: SecureContext;
  env?: NodeJS.ProcessEnv;
  connectTimeoutMs?: number;
  /** Time until the response headers arrive. */
  headersTimeoutMs?: number;
  /** Longest silence between two pieces of the body. */
  bodyTimeoutMs?: number;
  /** How host names are resolved, and which addresses count as public (tests play public hosts on 127.0.0.1). */
  addresses?: AddressPolicyOptions;
}

export const DEFAULT_TIMEOUTS = { connectTimeoutMs: 15_000, headersTimeoutMs: 120_000, bodyTimeoutMs: 90_000 };

/**
 * An explicit undici dispatcher for the client: never installed globally, so VS Code's own networking is untouched.
 * Two connection pools behind it: the service's, with the client certificate, and everyone else's, without it and
 * with the private-address policy applied as each connection is made.
 * Loads undici (dist/undici.js): call it when the first request is made, not at activation.
 */
export function createDispatcher(options: DispatcherOptions): Dispatcher {
  const env = options.env ?? process.env;
  const strictSSL = options.strictSSL ?? true;
  const withCertificate = options.secureContext ?? secureContextFor(options.tls);
  // The other hosts, and a proxy, are trusted like the service, but never see the client certificate.
  const trustOnly = options.tls?.clientCertificate ? secureContextFor({ ...options.tls, clientCertificate: undefined }) : withCertificate;
  const connectTimeout = options.connectTimeoutMs ?? DEFAULT_TIMEOUTS.connectTimeoutMs;
  const common = {
    connectTimeout,
    headersTimeout: options.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs ?? DEFAULT_TIMEOUTS.bodyTimeoutMs,
  };
  const lookup = options.addresses?.lookup;
  const policy = new PrivateAddressPolicy(options.service, options.addresses);
  const tlsOf = (secureContext: SecureContext | undefined) => ({ rejectUnauthorized: strictSSL, ...(secureContext ? { secureContext } : {}) });
  const proxy = proxySettings(options, env);
  const service = poolOf(proxy, { ...common, connect: { ...tlsOf(withCertificate), ...(lookup ? { lookup } : {}) } }, tlsOf(withCertificate), tlsOf(trustOnly));
  const others = poolOf(
    proxy,
    { ...common, connect: checkedConnector(policy, { ...tlsOf(trustOnly), timeout: connectTimeout, lookup: policy.lookup }) },
    tlsOf(trustOnly),
    tlsOf(trustOnly),
    policy,
  );
  return routeByOrigin(new URL(options.service).origin, service, others);
}

type AgentOptions = ConstructorParameters<ReturnType<typeof undici>['Agent']>[0] & object;
type TlsOptions = { rejectUnauthorized: boolean; secureContext?: SecureContext };

/** An Agent, or a proxy agent when one applies (the proxy's address is the user's setting: it is not checked). */
function poolOf(
  proxy: ProxySettings | undefined,
  agent: AgentOptions,
  requestTls: TlsOptions,
  proxyTls: TlsOptions,
  policy?: PrivateAddressPolicy,
): Dispatcher {
  const { Agent, EnvHttpProxyAgent, Pool } = undici();
  if (!proxy) return new Agent(agent);
  return new EnvHttpProxyAgent({
    ...agent,
    // '' rather than undefined: undici would otherwise fall back to process.env, ignoring `env`.
    httpProxy: proxy.httpProxy ?? '',
    httpsProxy: proxy.httpsProxy ?? '',
    noProxy: proxy.noProxy,
    requestTls,
    proxyTls,
    // The proxy resolves the names it is asked for; an address (or localhost) is refused before the proxy is asked.
    ...(policy ? { clientFactory: (origin: URL, poolOptions: object) => checkingTunnels(new Pool(origin, poolOptions), policy) } : {}),
  });
}

/** Connects only where the policy allows: the host as named, then each address its name resolves to. */
function checkedConnector(policy: PrivateAddressPolicy, connectOptions: { timeout: number; lookup: net.LookupFunction } & TlsOptions) {
  const connect = undici().buildConnector(connectOptions);
  return (target: Parameters<typeof connect>[0], callback: Parameters<typeof connect>[1]) => {
    policy.checkHost(target.hostname).then(
      () => connect(target, callback),
      (error: Error) => callback(error, null),
    );
  };
}

/** A pool to a proxy that refuses a tunnel (`CONNECT host:port`) to a private host before asking the proxy for it. */
function checkingTunnels(pool: Dispatcher, policy: PrivateAddressPolicy): Dispatcher {
  const open = pool.connect.bind(pool) as (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const connect = async (options: Dispatcher.ConnectOptions) => {
    await policy.checkHost(String(options.path ?? '').replace(/:\d*$/, ''));
    return open(options);
  };
  return Object.assign(pool, { connect });
}

/** One dispatcher in front of two: the service's origin goes to `service`, every other origin to `others`. */
function routeByOrigin(serviceOrigin: string, service: Dispatcher, others: Dispatcher): Dispatcher {
  const pick = (origin: Dispatcher.DispatchOptions['origin']) => (origin !== undefined && new URL(String(origin)).origin === serviceOrigin ? service : others);
  const both = <T>(each: (dispatcher: Dispatcher) => Promise<T>) => Promise.all([each(service), each(others)]).then(() => undefined);
  class OriginRouter extends undici().Dispatcher {
    override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
      return pick(options.origin).dispatch(options, handler);
    }

    override close(): Promise<void>;
    override close(callback: () => void): void;
    override close(callback?: () => void): Promise<void> | void {
      const closed = both((dispatcher) => dispatcher.close());
      if (!callback) return closed;
      void closed.finally(callback);
    }

    override destroy(): Promise<void>;
    override destroy(error: Error | null): Promise<void>;
    override destroy(callback: () => void): void;
    override destroy(error: Error | null, callback: () => void): void;
    override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
      const error = typeof first === 'function' ? null : (first ?? null);
      const callback = typeof first === 'function' ? first : second;
      const destroyed = both((dispatcher) => dispatcher.destroy(error));
      if (!callback) return destroyed;
      void destroyed.finally(callback);
    }
  }
  return new OriginRouter();
}

interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

export function proxySettings(options: Pick<DispatcherOptions, 'proxyUrl' | 'noProxy'>, env: NodeJS.ProcessEnv): ProxySettings | undefined {
  const explicit = options.proxyUrl?.trim();
  const noProxy = [options.noProxy, env.NO_PROXY ?? env.no_proxy].filter((v): v is string => !!v && v.trim() !== '').join(',');
  if (explicit) return { httpProxy: explicit, httpsProxy: explicit, noProxy };
  const httpsProxy = env.HTTPS_PROXY ?? env.https_proxy;
  const httpProxy = env.HTTP_PROXY ?? env.http_proxy;
  if (!httpsProxy && !httpProxy) return undefined;
  return { httpProxy: httpProxy || undefined, httpsProxy: httpsProxy || httpProxy || undefined, noProxy };
}
