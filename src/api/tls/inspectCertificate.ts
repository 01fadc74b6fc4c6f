import * as net from 'node:net';
import * as tls from 'node:tls';
import { certificateProblemOf, type CertificateProblem } from './certificateProblem';
import { t } from '../l10n';

/** What a server's certificate says, as the user can check it. */
export interface CertificateSummary {
  /** `127.0.0.1 (Promptreel Tests)`: the common name and organization it was issued to. */
  subject: string;
  /** Who signed it, the same way. */
  issuer: string;
  /** The top of the chain the server sent (its root, or the last one it sent). */
  root: string;
  validTo: string;
  /** Verified against the trust the client uses (Node's roots, the system's, the extra ones). */
  trusted: boolean;
  /** Why it is not trusted, in OpenSSL's words (e.g. `UNABLE_TO_VERIFY_LEAF_SIGNATURE`). */
  verifyError?: string;
  /** The server asked for a client certificate and refused the connection without a good one. */
  clientCertificateRequired: boolean;
}

function nameOf(entity: tls.Certificate | undefined): string {
  if (!entity) return t('unknown');
  const pick = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const common = pick(entity.CN) ?? t('unnamed');
  const organization = pick(entity.O);
  return organization ? `${common} (${organization})` : common;
}

/**
 * Connects to the service's host without verifying (the request that failed already did), reads the certificate
 * chain, and sends one request without credentials to see whether a client certificate is demanded. Gives up after
 * `timeoutMs`; undefined when the server could not be reached at all.
 */
export function inspectServerCertificate(
  url: string,
  options: { secureContext?: tls.SecureContext; timeoutMs?: number } = {},
): Promise<CertificateSummary | undefined> {
  const target = new URL(url);
  if (target.protocol !== 'https:') return Promise.resolve(undefined);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    let summary: CertificateSummary | undefined;
    const socket = tls.connect({
      host,
      port: Number(target.port || 443),
      ...(net.isIP(host) ? {} : { servername: host }),
      rejectUnauthorized: false,
      ...(options.secureContext ? { secureContext: options.secureContext } : {}),
    });
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(summary);
    };
    const timer = setTimeout(finish, options.timeoutMs ?? 5_000);
    socket.once('secureConnect', () => {
      const chain = chainOf(socket.getPeerCertificate(true));
      const leaf = chain[0];
      const verifyError = socket.authorizationError ? String(socket.authorizationError) : undefined;
      summary = {
        subject: nameOf(leaf?.subject),
        issuer: nameOf(leaf?.issuer),
        root: nameOf(chain.at(-1)?.issuer),
        validTo: leaf?.valid_to ?? t('unknown'),
        trusted: socket.authorized,
        ...(verifyError ? { verifyError } : {}),
        clientCertificateRequired: false,
      };
      // A server that demands a client certificate says so (TLS 1.3: an alert) once the client speaks.
      socket.write(`HEAD / HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n\r\n`);
    });
    socket.once('data', finish);
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (summary && certificateProblemOf(error.code) === 'client-certificate-required') summary.clientCertificateRequired = true;
      finish();
    });
    socket.once('end', () => {
      // Closed without an answer right after the handshake: how TLS 1.2 servers refuse a missing certificate.
      if (summary) summary.clientCertificateRequired = true;
      finish();
    });
  });
}

function chainOf(leaf: tls.DetailedPeerCertificate): tls.DetailedPeerCertificate[] {
  const chain: tls.DetailedPeerCertificate[] = [];
  let current: tls.DetailedPeerCertificate | undefined = leaf && Object.keys(leaf).length ? leaf : undefined;
  while (current && !chain.includes(current) && chain.length < 10) {
    chain.push(current);
    current = current.issuerCertificate && current.issuerCertificate !== current ? current.issuerCertificate : undefined;
  }
  return chain;
}

export type { CertificateProblem };
