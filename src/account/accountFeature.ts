import * as vscode from 'vscode';
import { systemClock, type Clock } from '../common/clock';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { Connection } from '../connection/connection';
import { registerCommands } from '../workbench/registerCommands';
import { AccountCommandIds } from './accountCommandIds';
import { KeyHealthMonitor, type KeyHealthState } from './core/keyHealthMonitor';
import { keyHealthIsBad, keyHealthText, keyHealthTooltip } from './core/keyHealthText';

/** The first read waits this long after activation: nothing is asked while VS Code starts. */
const FIRST_READ_DELAY_MS = 3_000;

/**
 * The key's quota and expiry in the status bar (`$(key) $3.20 left · 12 days`), read after start-up, after charged
 * requests and on a click; hidden where the service does not publish them. Asks only a service and key the user chose.
 */
export class AccountFeature extends Disposable {
  readonly monitor: KeyHealthMonitor;
  private readonly item: vscode.StatusBarItem;

  constructor(
    private readonly connection: Connection,
    log: ComponentLogger,
    private readonly clock: Clock = systemClock,
  ) {
    super();
    this.monitor = this._register(new KeyHealthMonitor({ reader: async () => (await connection.readyClient())?.account, clock, log }));
    this.item = this._register(vscode.window.createStatusBarItem('promptreel.keyHealth', vscode.StatusBarAlignment.Right, 99));
    this.item.name = 'Promptreel Key Quota';
    this.item.command = AccountCommandIds.refreshKeyHealth;
    this._register(this.monitor.onDidChange((state) => this.show(state)));
    this._register(registerCommands({ [AccountCommandIds.refreshKeyHealth]: () => this.monitor.refresh() }));
    this._register(
      connection.onDidChange(() => {
        this.monitor.forget();
        this.monitor.afterCharge();
      }),
    );
    this._register(connection.clients.onDidCharge(() => this.monitor.afterCharge()));
    this._register(clock.setTimeout(() => void this.monitor.refresh(), FIRST_READ_DELAY_MS));
  }

  /** The status bar item's text, or undefined while it is hidden (tests read it). */
  get text(): string | undefined {
    return keyHealthText(this.monitor.state, this.clock.now()) === undefined ? undefined : this.item.text;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  private show(state: KeyHealthState): void {
    const now = this.clock.now();
    const text = keyHealthText(state, now);
    if (!text) {
      this.item.hide();
      return;
    }
    this.item.text = text;
    this.item.tooltip = keyHealthTooltip(state, this.connection.service, now);
    this.item.backgroundColor = keyHealthIsBad(state, now) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }
}
