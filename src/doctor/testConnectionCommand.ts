import type { CommandHandler } from '../workbench/registerCommands';
import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import type { ComponentLogger } from '../common/logger';
import { showMessage, type MessageAction } from '../workbench/showMessage';
import type { ConnectionDoctor } from './core/connectionDoctor';
import type { DoctorResult } from './core/doctorResult';
import type { RecoveryAction } from '../connection/core/recovery';
import { recoveryCommand } from '../workbench/recoveryActions';
import { t } from '../api/l10n';

/** The button of each action the doctor proposes; Retry runs the test again. */
function actionButton(action: RecoveryAction): MessageAction | undefined {
  if (action === 'retry') return { title: t('Retry'), command: CommandIds.testConnection };
  const command = recoveryCommand(action);
  return command && { title: command.title, command: command.command, args: command.arguments };
}

function buttons(actions: readonly RecoveryAction[]): MessageAction[] {
  return actions.map(actionButton).filter((button): button is MessageAction => button !== undefined);
}

/**
 * `Promptreel: Test Connection`: runs the doctor with progress, shows one message (the connection, the key's quota, the
 * prices) with actions, returns the result.
 */
export class TestConnectionCommand {
  /** The command's handler (the composition root registers the id at activation; this code loads on its first use). */
  readonly handlers: Readonly<Record<string, CommandHandler>> = { [CommandIds.testConnection]: () => this.run() };

  constructor(
    private readonly doctor: ConnectionDoctor,
    private readonly log: ComponentLogger,
    /** Asks about a service only a workspace names before the key goes there (declined: the doctor finds no key). */
    private readonly confirmService: () => Promise<boolean> = () => Promise.resolve(true),
  ) {}

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
      showMessage('warning', result.message, buttons(['setApiKey', 'showLogs']));
    } else if (result.ok) {
      this.log.info(result.message);
      showMessage('info', result.message);
    } else {
      this.log.warn(result.message);
      showMessage('error', result.message, buttons(result.actions));
    }
    return result;
  }
}
