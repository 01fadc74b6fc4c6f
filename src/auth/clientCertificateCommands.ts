import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { SecretRedactor } from '../common/redactor';
import { CLIENT_CERTIFICATE_PASSPHRASE_SECRET } from '../connection/tlsSettingKeys';
import type { CommandHandler } from '../workbench/registerCommands';
import { showMessage } from '../workbench/showMessage';
import { t } from '../api/l10n';

/** `Promptreel: Set Client Certificate Passphrase…`: the passphrase of an encrypted key or PKCS#12, in SecretStorage. */
export class ClientCertificateCommands {
  readonly handlers: Readonly<Record<string, CommandHandler>> = { [CommandIds.setClientCertificatePassphrase]: () => this.setPassphrase() };

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redactor: SecretRedactor,
  ) {}

  /** True when a passphrase was stored, false when one was removed, undefined when cancelled. */
  async setPassphrase(): Promise<boolean | undefined> {
    const passphrase = await vscode.window.showInputBox({
      title: t('Promptreel: Set Client Certificate Passphrase'),
      prompt: t("The passphrase of the client certificate's key (promptreel.tls.clientCertificate). Empty removes it. Kept in VS Code's secret storage."),
      password: true,
      ignoreFocusOut: true,
    });
    if (passphrase === undefined) return undefined;
    if (!passphrase) {
      await this.secrets.delete(CLIENT_CERTIFICATE_PASSPHRASE_SECRET);
      showMessage('info', t('The client certificate passphrase was removed.'), []);
      return false;
    }
    this.redactor.register(passphrase);
    await this.secrets.store(CLIENT_CERTIFICATE_PASSPHRASE_SECRET, passphrase);
    showMessage('info', t('The client certificate passphrase is stored.'), [{ title: t('Test Connection'), command: CommandIds.testConnection }]);
    return true;
  }
}
