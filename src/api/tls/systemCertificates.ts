import * as fs from 'node:fs';
import * as tls from 'node:tls';
import { pemCertificates } from './tlsConfig';

/** Where Linux distributions keep the system's bundle, for runtimes without `tls.getCACertificates` (Node < 22.15). */
const LINUX_BUNDLES = ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt', '/etc/ssl/ca-bundle.pem', '/etc/ssl/cert.pem'];

type GetCaCertificates = (type: 'system') => string[];

/**
 * The operating system's trusted root certificates (PEM): from Node itself where it can read them (Windows, macOS and
 * Linux stores, Node 22.15+), else from the usual Linux bundle files; empty when neither is there.
 */
export function systemCertificates(
  runtime: { getCaCertificates?: GetCaCertificates | undefined; readFile?: (path: string) => string } = {
    getCaCertificates: (tls as { getCACertificates?: GetCaCertificates }).getCACertificates,
  },
): string[] {
  const { getCaCertificates } = runtime;
  const readFile = runtime.readFile ?? ((path: string) => fs.readFileSync(path, 'utf8'));
  if (getCaCertificates) {
    try {
      return getCaCertificates('system');
    } catch {
      // Fall through to the files.
    }
  }
  for (const bundle of LINUX_BUNDLES) {
    try {
      const certificates = pemCertificates(readFile(bundle));
      if (certificates.length) return certificates;
    } catch {
      // Not on this system.
    }
  }
  return [];
}
