import * as vscode from 'vscode';
import { CommandIds } from '../commands/commandIds';
import { Disposable } from '../common/lifecycle';
import type { Settings } from '../config/settings';
import type { RunningVideoTasks } from './runningVideoTasks';

/** The status bar text: the chat model, then the number of running video tasks when there are any. */
export function statusBarText(chatModel: string, runningVideoTasks: number): string {
  const model = `$(comment-discussion) ${chatModel || 'Select chat model'}`;
  return runningVideoTasks > 0 ? `${model} $(loading~spin) ${runningVideoTasks}` : model;
}

export function statusBarTooltip(chatModel: string, runningVideoTasks: number): string {
  const model = chatModel ? `Promptreel chat model: ${chatModel}` : 'Promptreel: no chat model selected';
  const tasks = runningVideoTasks > 0 ? `\n${runningVideoTasks} video task${runningVideoTasks === 1 ? '' : 's'} running` : '';
  return `${model}${tasks}\nClick to select the chat model.`;
}

/** `$(comment-discussion) <chat model> $(loading~spin) N`; a click selects the chat model. */
export class ChatModelStatusBar extends Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(private readonly settings: Settings, private readonly videoTasks: RunningVideoTasks) {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('promptreel.chatModel', vscode.StatusBarAlignment.Right, 100));
    this.item.name = 'Promptreel Chat Model';
    this.item.command = CommandIds.selectChatModel;
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('chat.model')) this.update();
      }),
    );
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
    const model = this.settings.chat.model;
    const running = this.videoTasks.runningCount;
    this.item.text = statusBarText(model, running);
    this.item.tooltip = statusBarTooltip(model, running);
    this.item.accessibilityInformation = { label: statusBarTooltip(model, running).replace(/\n/g, '. ') };
  }
}
