import { certificateHint, type CertificateProblem } from '../../api/tls/certificateProblem';
import type { CertificateSummary } from '../../api/tls/inspectCertificate';
import type { Explanation } from './explainFailure';
import { t } from '../../api/l10n';
import { joinSentences } from '../../api/sentences';

/**
 * A TLS failure in the words of the certificate: whom it was issued to, by whom, and the setting that fixes it.
 * Undefined when the certificate looks fine (the failure is something else).
 */
export function explainCertificate(summary: CertificateSummary, problem: CertificateProblem | undefined, baseUrl: string): Explanation | undefined {
  const host = new URL(baseUrl).host;
  const issued =
    summary.root !== summary.issuer
      ? t('issued to "{0}" by "{1}" (chain ends at "{2}"), valid until {3}', summary.subject, summary.issuer, summary.root, summary.validTo)
      : t('issued to "{0}" by "{1}", valid until {2}', summary.subject, summary.issuer, summary.validTo);
  const actions: Explanation['actions'] = ['openSettings', 'showLogs'];
  if (!summary.trusted) {
    const kind = problem === 'expired' || problem === 'name-mismatch' ? problem : 'untrusted';
    const notAccepted = summary.verifyError
      ? t('The certificate of {0} is not accepted ({1}): it was {2}.', host, summary.verifyError, issued)
      : t('The certificate of {0} is not accepted: it was {1}.', host, issued);
    return {
      message: joinSentences([notAccepted, certificateHint(kind)]),
      actions,
      code: summary.verifyError ?? 'CERTIFICATE',
    };
  }
  if (summary.clientCertificateRequired || problem === 'client-certificate-required') {
    return {
      message: joinSentences([
        t('{0} asks for a client certificate and closed the connection without a good one (its own certificate is trusted: {1}).', host, issued),
        certificateHint('client-certificate-required'),
      ]),
      actions,
      code: 'CLIENT_CERTIFICATE_REQUIRED',
    };
  }
  return undefined;
}
