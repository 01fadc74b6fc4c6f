import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ApiError } from '../api/errors';
import { certificateHint } from '../api/tls/certificateProblem';
import { systemCertificates } from '../api/tls/systemCertificates';
import { pemCertificates, type ClientCertificate, type TlsConfig } from '../api/tls/tlsConfig';
import type { Settings } from '../config/settings';
import { t } from '../api/l10n';
import { CLIENT_CERTIFICATE_PASSPHRASE_SECRET } from './tlsSettingKeys';

/** `~/certs/ca.pem` → the home folder's; other paths as given (they are paths on the machine running the extension). */
function expand(file: string): string {
  const trimmed = file.trim();
  return trimmed.startsWith('~') ? path.join(os.homedir(), trimmed.slice(1)) : trimmed;
}

async function readSetting(file: string, setting: string, binary: true): Promise<Buffer>;
async function readSetting(file: string, setting: string, binary: false): Promise<string>;
async function readSetting(file: string, setting: string, binary: boolean): Promise<Buffer | string> {
  try {
    // The file scheme is the file system of the machine the extension runs on (the remote one in a remote window).
    const bytes = Buffer.from(await vscode.workspace.fs.readFile(vscode.Uri.file(expand(file))));
    return binary ? bytes : bytes.toString('utf8');
  } catch (cause) {
    const reason = cause instanceof vscode.FileSystemError ? cause.code : cause instanceof Error ? cause.message : String(cause);
    throw new ApiError({
      kind: 'network',
      message: t('The file of {0} cannot be read: {1} ({2}).', setting, file, reason),
      hint: t('Check {0}: a path on the machine running Promptreel.', setting),
      retryable: false,
      mayHaveReachedServer: false,
      cause,
    });
  }
}

/**
 * The certificates to use from `promptreel.tls.*`, `http.systemCertificates` and the passphrase in SecretStorage.
 * A file that cannot be read fails the requests with a message naming the setting (never silently ignored).
 */
export async function readTlsConfig(settings: Settings, secrets: vscode.SecretStorage): Promise<TlsConfig> {
  const config: TlsConfig = {};
  if (vscode.workspace.getConfiguration('http').get<boolean>('systemCertificates') !== false) config.systemCa = systemCertificates();
  const extra: string[] = [];
  for (const file of settings.get('tls.certificateAuthorities')) {
    const found = pemCertificates(await readSetting(file, 'promptreel.tls.certificateAuthorities', false));
    if (found.length === 0) {
      throw new ApiError({
        kind: 'network',
        message: t('{0} (promptreel.tls.certificateAuthorities) holds no PEM certificate.', file),
        hint: t('Give a file with "-----BEGIN CERTIFICATE-----" blocks (convert a DER .cer with: openssl x509 -inform der -in ca.cer -out ca.pem).'),
        retryable: false,
        mayHaveReachedServer: false,
      });
    }
    extra.push(...found);
  }
  if (extra.length) config.extraCa = extra;
  const certificate = settings.get('tls.clientCertificate').trim();
  if (certificate)
    config.clientCertificate = await readClientCertificate(
      certificate,
      settings.get('tls.clientKey').trim(),
      await secrets.get(CLIENT_CERTIFICATE_PASSPHRASE_SECRET),
    );
  return config;
}

async function readClientCertificate(certificate: string, key: string, passphrase: string | undefined): Promise<ClientCertificate> {
  const secret = passphrase ? { passphrase } : {};
  if (/\.(p12|pfx)$/i.test(certificate)) return { pfx: await readSetting(certificate, 'promptreel.tls.clientCertificate', true), ...secret };
  const cert = await readSetting(certificate, 'promptreel.tls.clientCertificate', false);
  // A PEM file may hold the key too.
  const keyText = key ? await readSetting(key, 'promptreel.tls.clientKey', false) : cert;
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyText)) {
    throw new ApiError({
      kind: 'network',
      message: t('The client certificate has no private key.'),
      hint: certificateHint('client-certificate-unusable'),
      retryable: false,
      mayHaveReachedServer: false,
    });
  }
  return { cert, key: keyText, ...secret };
}
