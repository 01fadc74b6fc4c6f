import { certificateHint, type CertificateProblem } from '../../api/tls/certificateProblem';
import type { CertificateSummary } from '../../api/tls/inspectCertificate';
import type { Explanation } from './explainFailure';

/**
 * A TLS failure in the words of the certificate: whom it was issued to, by whom, and the setting that fixes it.
 * Undefined when the certificate looks fine (the failure is something else).
 */
export function explainCertificate(summary: CertificateSummary, problem: CertificateProblem | undefined, baseUrl: string): Explanation | undefined {
  const host = new URL(baseUrl).host;
  const issued = `issued to "${summary.subject}" by "${summary.issuer}"${summary.root !== summary.issuer ? ` (chain ends at "${summary.root}")` : ''}, valid until ${summary.validTo}`;
  const actions: Explanation['actions'] = ['openSettings', 'showLogs'];
  if (!summary.trusted) {
    const why = summary.verifyError ? ` (${summary.verifyError})` : '';
    const kind = problem === 'expired' || problem === 'name-mismatch' ? problem : 'untrusted';
    return {
      message: `The certificate of ${host} is not accepted${why}: it was ${issued}. ${certificateHint(kind)}`,
      actions,
      code: summary.verifyError ?? 'CERTIFICATE',
    };
  }
  if (summary.clientCertificateRequired || problem === 'client-certificate-required') {
    return {
      message: `${host} asks for a client certificate and closed the connection without a good one (its own certificate is trusted: ${issued}). ${certificateHint('client-certificate-required')}`,
      actions,
      code: 'CLIENT_CERTIFICATE_REQUIRED',
    };
  }
  return undefined;
}
