import * as vscode from 'vscode';
import { CommandIds } from '../common/commandIds';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { showMessage, type MessageAction } from '../workbench/showMessage';
import type { ConnectionDoctor } from './core/connectionDoctor';
import type { DoctorAction, DoctorResult } from './core/doctorResult';
import { t } from '../common/l10n';

/** The button of each action the doctor proposes. */
function actionButton(action: DoctorAction): MessageAction {
  switch (action) {
    case 'setApiKey':
      return { title: t('Set API Key'), command: CommandIds.setApiKey };
    case 'openSettings':
      return { title: t('Open Settings'), command: CommandIds.openSettings };
    case 'selectChatModel':
      return { title: t('Select Chat Model'), command: CommandIds.selectChatModel };
    case 'showLogs':
      return { title: t('Show Logs'), command: CommandIds.showLogs };
    case 'retry':
      return { title: t('Retry'), command: CommandIds.testConnection };
  }
}

/**
 * `Promptreel: Test Connection`: runs the doctor with progress, shows one message (the connection, the key's quota, the
 * prices) with actions, returns the result.
 */
export class TestConnectionCommand extends Disposable {
  constructor(
    private readonly doctor: ConnectionDoctor,
    private readonly log: ComponentLogger,
    /** Asks about a service only a workspace names before the key goes there (declined: the doctor finds no key). */
    private readonly confirmService: () => Promise<boolean> = () => Promise.resolve(true),
  ) {
    super();
    this._register(vscode.commands.registerCommand(CommandIds.testConnection, () => this.run()));
  }

  async run(): Promise<DoctorResult> {
    await this.confirmService();
    const result = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: t('Promptreel: Test Connection'), cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        const cancellation = token.onCancellationRequested(() => controller.abort());
        try {
          return await this.doctor.run({ signal: controller.signal, onStep: (_name, title) => progress.report({ message: title }) });
        } finally {
          cancellation.dispose();
        }
      },
    );
    for (const step of result.steps) this.log.info(`${step.ok ? 'ok  ' : 'FAIL'} ${step.name}: ${step.detail}`);
    if (result.ok && result.account?.keyProblem) {
      // Connected, but the key can no longer pay for requests: worth more than an information message.
      this.log.warn(result.message);
      showMessage('warning', result.message, [actionButton('setApiKey'), actionButton('showLogs')]);
    } else if (result.ok) {
      this.log.info(result.message);
      showMessage('info', result.message);
    } else {
      this.log.warn(result.message);
      showMessage('error', result.message, result.actions.map(actionButton));
    }
    return result;
  }
}
