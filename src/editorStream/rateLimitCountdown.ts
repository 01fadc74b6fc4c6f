import { CommandIds, ContextKeys } from '../common/contributions';
import * as vscode from 'vscode';
import type { RateLimitWait } from '../api/chat/rateLimitRetry';
import { t } from '../api/l10n';
import { Disposable, toDisposable } from '../common/lifecycle';

/**
 * The wait after HTTP 429 while writing into the editor: the progress notification counts down (its Cancel ends the
 * run), and a status bar item offers Retry Now (as does the command of the same name while the wait lasts).
 */
export class RateLimitCountdown extends Disposable {
  private readonly item: vscode.StatusBarItem;
  private wait: RateLimitWait | undefined;
  private deadline = 0;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private report: ((message: string) => void) | undefined;

  constructor() {
    super();
    this.item = this._register(vscode.window.createStatusBarItem('promptreel.rateLimit', vscode.StatusBarAlignment.Left, 1000));
    this.item.name = t('Promptreel: Rate Limited');
    this.item.command = CommandIds.editor.retryEditorStreamNow;
    this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
    this._register(toDisposable(() => this.end()));
  }

  get waiting(): boolean {
    return this.wait !== undefined;
  }

  /** Shows the wait; `report` writes into the progress notification of the run. */
  start(wait: RateLimitWait, report: (message: string) => void): void {
    this.end();
    this.wait = wait;
    this.report = report;
    this.deadline = Date.now() + wait.delayMs;
    void vscode.commands.executeCommand('setContext', ContextKeys.editorRateLimited, true);
    this.render();
    this.item.show();
    this.ticker = setInterval(() => this.render(), 1000);
  }

  /** Ends the wait at once (the request goes again now); false when there is none. */
  retryNow(): boolean {
    const wait = this.wait;
    if (!wait) return false;
    this.end();
    wait.retryNow();
    return true;
  }

  /** The wait is over (it ran out, Retry Now, or the run ended). */
  end(): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
    if (!this.wait) return;
    this.wait = undefined;
    this.report = undefined;
    this.item.hide();
    void vscode.commands.executeCommand('setContext', ContextKeys.editorRateLimited, false);
  }

  private render(): void {
    const wait = this.wait;
    if (!wait) return;
    const seconds = Math.max(0, Math.ceil((this.deadline - Date.now()) / 1000));
    this.report?.(
      wait.fromService
        ? t(
            'Rate limited (HTTP 429): retrying in {0} s (as the service asked; attempt {1} of {2}). Retry Now is in the status bar.',
            seconds,
            wait.attempt,
            wait.retries,
          )
        : t(
            'Rate limited (HTTP 429): retrying in {0} s (backing off; attempt {1} of {2}). Retry Now is in the status bar.',
            seconds,
            wait.attempt,
            wait.retries,
          ),
    );
    this.item.text = t('$(sync) Retry Now · {0} s', seconds);
    this.item.tooltip = t(
      'Promptreel was rate limited (HTTP 429). It sends the request again in {0} s by itself (attempt {1} of {2}). Click to retry now; Cancel on the notification stops.',
      seconds,
      wait.attempt,
      wait.retries,
    );
  }
}
