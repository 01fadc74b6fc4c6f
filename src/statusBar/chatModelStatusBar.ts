import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { ChatModelChoice } from '../connection/core/chatModelChoice';
import { statusBarText, statusBarTooltip } from './core/statusBarText';
import type { RunningVideoTasks } from './core/runningVideoTasks';
import { t } from '../api/l10n';

/** `$(comment-discussion) <chat model> $(loading~spin) N`; a click selects the chat model. */
export class ChatModelStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly chatModel: ChatModelChoice,
    private readonly videoTasks: RunningVideoTasks,
  ) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('promptreel.chatModel', vscode.StatusBarAlignment.Right, 100));
    this.item.name = t('Promptreel Chat Model');
    this.item.command = CommandIds.selectChatModel;
    this._register(chatModel.onDidChange(() => this.update()));
    this._register(videoTasks.onDidChangeRunningCount(() => this.update()));
    this.update();
    this.item.show();
  }

  get text(): string {
    return this.item.text;
  }

  get command(): string | undefined {
    return typeof this.item.command === 'string' ? this.item.command : this.item.command?.command;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  private update(): void {
    const model = this.chatModel.inUse();
    const running = this.videoTasks.runningCount;
    this.item.text = statusBarText(model, running);
    this.item.tooltip = statusBarTooltip(model, running);
    this.item.accessibilityInformation = { label: statusBarTooltip(model, running).replace(/\n/g, '. ') };
  }
}
