import * as tls from 'node:tls';

/** How the client trusts servers and proves who it is, beyond Node's bundled roots. */
export interface TlsConfig {
  /** PEM certificates of authorities to trust as well (a company's own CA, a gateway's self-signed one). */
  extraCa?: string[];
  /** The operating system's trusted roots (PEM), when VS Code's `http.systemCertificates` is on. */
  systemCa?: string[];
  /** A client certificate for services that ask for one: PEM certificate and key, or a PKCS#12 bundle. */
  clientCertificate?: ClientCertificate;
}

export type ClientCertificate = { cert: string; key: string; passphrase?: string } | { pfx: Buffer; passphrase?: string };

/**
 * One secure context for every connection of a dispatcher: passing `ca` to each `tls.connect` would parse a few
 * hundred root certificates per connection. Undefined when nothing differs from Node's defaults. Throws Node's error
 * for a certificate, key or passphrase that cannot be used.
 */
export function secureContextFor(config: TlsConfig | undefined): tls.SecureContext | undefined {
  if (!config) return undefined;
  const extra = [...(config.systemCa ?? []), ...(config.extraCa ?? [])];
  const client = config.clientCertificate;
  if (extra.length === 0 && !client) return undefined;
  return tls.createSecureContext({
    ...(extra.length ? { ca: [...tls.rootCertificates, ...extra] } : {}),
    ...(client && 'pfx' in client ? { pfx: client.pfx } : {}),
    ...(client && 'cert' in client ? { cert: client.cert, key: client.key } : {}),
    ...(client?.passphrase ? { passphrase: client.passphrase } : {}),
  });
}

/** PEM blocks of a bundle (a file may hold many certificates, and text around them). */
export function pemCertificates(text: string): string[] {
  return text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
}
