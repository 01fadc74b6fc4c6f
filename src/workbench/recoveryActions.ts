import type * as vscode from 'vscode';
import { CommandIds } from '../common/contributions';
import { t } from '../api/l10n';
import type { Recovery, RecoveryAction } from '../connection/core/recovery';
import { showMessage, type MessageAction, type MessageSeverity, type ShownMessage } from './showMessage';

/** The command behind a recovery action, titled in VS Code's language; undefined for `retry` (only its surface can). */
export function recoveryCommand(action: RecoveryAction, setting = 'promptreel.baseUrl'): vscode.Command | undefined {
  switch (action) {
    case 'retry':
      return undefined;
    case 'setApiKey':
      return { command: CommandIds.setApiKey, title: t('Set API Key') };
    case 'useThisService':
      return { command: CommandIds.confirmService, title: t('Use This Service') };
    case 'openSettings':
      return { command: CommandIds.openSettings, title: t('Open Settings'), arguments: [setting] };
    case 'selectChatModel':
      return { command: CommandIds.selectChatModel, title: t('Select Chat Model') };
    case 'chooseVideoModel':
      return { command: CommandIds.openSettings, title: t('Set Video Model'), arguments: ['promptreel.video.model'] };
    case 'testConnection':
      return { command: CommandIds.testConnection, title: t('Test Connection') };
    case 'showLogs':
      return { command: CommandIds.showLogs, title: t('Show Logs') };
    case 'trackVideoTask':
      return { command: CommandIds.video.track, title: t('Track Video Task by ID') };
  }
}

/**
 * A recovery as a notification: its message and a button per action (Retry only when `retry` is given, since only
 * the surface that failed can run it again).
 */
export function showRecovery(severity: MessageSeverity, recovery: Recovery, retry?: () => unknown): ShownMessage {
  const buttons: MessageAction[] = [];
  for (const action of recovery.actions) {
    if (action === 'retry') {
      if (retry) buttons.push({ title: t('Retry'), run: retry });
      continue;
    }
    const command = recoveryCommand(action, recovery.setting);
    if (command) buttons.push({ title: command.title, command: command.command, args: command.arguments });
  }
  return showMessage(severity, recovery.message, buttons);
}
