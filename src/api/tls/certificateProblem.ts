import { t } from '../l10n';

/** Why a TLS connection failed, as far as the user can fix it. */
export type CertificateProblem = 'untrusted' | 'expired' | 'name-mismatch' | 'client-certificate-required' | 'client-certificate-unusable';

const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);

/** From the code of Node's (or OpenSSL's) error; undefined when the failure is not about certificates. */
export function certificateProblemOf(code: string | undefined): CertificateProblem | undefined {
  if (!code) return undefined;
  if (UNTRUSTED.has(code)) return 'untrusted';
  if (EXPIRED.has(code)) return 'expired';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'name-mismatch';
  if (/CERTIFICATE_REQUIRED|ALERT_HANDSHAKE_FAILURE|ALERT_BAD_CERTIFICATE|ALERT_UNKNOWN_CA/.test(code)) return 'client-certificate-required';
  if (/^ERR_OSSL_(BAD_DECRYPT|PKCS12|PEM|X509|EVP)|^ERR_OSSL_.*(KEY|PASSWORD|DECODER)/.test(code)) return 'client-certificate-unusable';
  return undefined;
}

/** What to change for each problem: the settings that fix it. */
export function certificateHint(problem: CertificateProblem): string {
  switch (problem) {
    case 'untrusted':
      return t(
        "If you trust this certificate's authority (a company or gateway CA), add its certificate (PEM) to promptreel.tls.certificateAuthorities, or to the system's trust store with http.systemCertificates on. http.proxyStrictSSL: false accepts any certificate (unsafe).",
      );
    case 'expired':
      return t("The server's certificate has expired or is not valid yet: tell whoever runs the service; check this computer's clock.");
    case 'name-mismatch':
      return t('The certificate was issued for another name: use the address the certificate names in promptreel.baseUrl.');
    case 'client-certificate-required':
      return t('The service asks for a client certificate: set promptreel.tls.clientCertificate (and promptreel.tls.clientKey for a PEM certificate).');
    case 'client-certificate-unusable':
      return t(
        'The client certificate or its key could not be read (a wrong passphrase, or not PEM/PKCS#12): check promptreel.tls.clientCertificate and promptreel.tls.clientKey, and run "Promptreel: Set Client Certificate Passphrase".',
      );
  }
}
