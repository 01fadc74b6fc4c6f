import type { Dispatcher } from 'undici';
import { undici } from './undici/load';
import type { SecureContext } from 'node:tls';
import { secureContextFor, type TlsConfig } from './tls/tlsConfig';

export interface DispatcherOptions {
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
}

export const DEFAULT_TIMEOUTS = { connectTimeoutMs: 15_000, headersTimeoutMs: 120_000, bodyTimeoutMs: 90_000 };

/**
 * An explicit undici dispatcher for the client: never installed globally, so VS Code's own networking is untouched.
 * Loads undici (dist/undici.js): call it when the first request is made, not at activation.
 */
export function createDispatcher(options: DispatcherOptions = {}): Dispatcher {
  const { Agent, EnvHttpProxyAgent } = undici();
  const env = options.env ?? process.env;
  const strictSSL = options.strictSSL ?? true;
  const secureContext = options.secureContext ?? secureContextFor(options.tls);
  const agentOptions = {
    connectTimeout: options.connectTimeoutMs ?? DEFAULT_TIMEOUTS.connectTimeoutMs,
    headersTimeout: options.headersTimeoutMs ?? DEFAULT_TIMEOUTS.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs ?? DEFAULT_TIMEOUTS.bodyTimeoutMs,
    connect: { rejectUnauthorized: strictSSL, ...(secureContext ? { secureContext } : {}) },
  };
  const proxy = proxySettings(options, env);
  if (!proxy) return new Agent(agentOptions);
  // The proxy is trusted like the services, but never sees the client certificate.
  const proxyContext = secureContextFor(options.tls && { ...options.tls, clientCertificate: undefined });
  return new EnvHttpProxyAgent({
    ...agentOptions,
    // '' rather than undefined: undici would otherwise fall back to process.env, ignoring `env`.
    httpProxy: proxy.httpProxy ?? '',
    httpsProxy: proxy.httpsProxy ?? '',
    noProxy: proxy.noProxy,
    requestTls: { rejectUnauthorized: strictSSL, ...(secureContext ? { secureContext } : {}) },
    proxyTls: { rejectUnauthorized: strictSSL, ...(proxyContext ? { secureContext: proxyContext } : {}) },
  });
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
