import { CommandIds } from '../common/contributions';
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import type { StateStorage } from '../common/stateStorage';
import type { Settings } from '../config/settings';
import type { Connection } from '../connection/connection';
import { registerCommands } from '../workbench/registerCommands';
import { showMessage, type MessageAction } from '../workbench/showMessage';
import type { KeyHealthMonitor, KeyHealthState } from '../connection/account/core/keyHealthMonitor';
import { keyHealthIsBad, keyHealthText, keyHealthTooltip } from './core/keyHealthText';
import { keyWarnings, type KeyWarning } from '../connection/account/core/keyWarnings';
import { t } from '../api/l10n';
import { UsageView } from './usage/usageView';

/** The first read waits this long after activation: nothing is asked while VS Code starts. */
const FIRST_READ_DELAY_MS = 3_000;
/** The ids of the key warnings already shown (globalState: once per key, not once per window). */
const SHOWN_WARNINGS_KEY = 'promptreel.account.shownWarnings';
const MAX_REMEMBERED_WARNINGS = 50;

/** Refresh Key Quota (what the status bar item runs) and Show Usage. */
export function registerAccountCommands(connection: Connection, usage?: UsageView): vscode.Disposable {
  return registerCommands({
    [CommandIds.refreshKeyHealth]: () => connection.keyHealth.refresh(),
    ...(usage ? { [CommandIds.showUsage]: () => void usage.open() } : {}),
  });
}

/**
 * The key's quota and expiry in the status bar (`$(key) $3.20 left · 12 days`), read after start-up, after charged
 * requests and on a click; hidden where the service does not publish them. Warns once when the key expires soon,
 * runs low, expired or is used up. Asks only a service and key the user chose.
 */
export class AccountFeature extends Disposable {
  readonly monitor: KeyHealthMonitor;
  /** What was spent per day, per model and per request (made only with the extension's location: one per window). */
  readonly usage: UsageView | undefined;
  private readonly item: vscode.StatusBarItem;
  /** Counts the tooltips set, so a budget line read late never lands on a newer tooltip. */
  private shownVersion = 0;
  /** The warnings shown, in order (tests read them). */
  readonly warningsShown: KeyWarning[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly settings: Settings,
    private readonly memory: StateStorage,
    private readonly log: ComponentLogger,
    extensionUri?: vscode.Uri,
  ) {
    super();
    const clock = connection.clock;
    this.usage = extensionUri ? this._register(new UsageView({ extensionUri, connection, settings, log })) : undefined;
    this.monitor = connection.keyHealth;
    this.item = this._register(vscode.window.createStatusBarItem('promptreel.keyHealth', vscode.StatusBarAlignment.Right, 99));
    this.item.name = t('Promptreel Key Quota');
    this.item.command = CommandIds.refreshKeyHealth;
    this._register(
      this.monitor.onDidChange((state) => {
        this.show(state);
        this.warn(state);
      }),
    );
    // The connection has already forgotten what was known about the old key.
    this._register(connection.onDidChange(() => this.monitor.afterCharge()));
    this._register(connection.clients.onDidCharge(() => this.monitor.afterCharge()));
    this._register(connection.spending.onDidRecord(() => this.show(this.monitor.state)));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('account.dailyBudget') || change.affects('account.monthlyBudget')) this.show(this.monitor.state);
      }),
    );
    this._register(clock.setTimeout(() => void this.monitor.refresh(), FIRST_READ_DELAY_MS));
  }

  /** The status bar item's text, or undefined while it is hidden (tests read it). */
  get text(): string | undefined {
    return keyHealthText(this.monitor.state, this.connection.clock.now()) === undefined ? undefined : this.item.text;
  }

  get tooltip(): string {
    return typeof this.item.tooltip === 'string' ? this.item.tooltip : '';
  }

  private show(state: KeyHealthState): void {
    const now = this.connection.clock.now();
    const text = keyHealthText(state, now);
    if (!text) {
      this.item.hide();
      return;
    }
    this.item.text = text;
    const tooltip = keyHealthTooltip(state, this.connection.service, now);
    this.item.tooltip = tooltip;
    const shown = ++this.shownVersion;
    void this.connection.budgets.summary().then(
      (budget) => {
        if (budget && shown === this.shownVersion) this.item.tooltip = `${tooltip}\n\n${budget}`;
      },
      () => undefined,
    );
    this.item.backgroundColor = keyHealthIsBad(state, now) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.show();
  }

  private warn(state: KeyHealthState): void {
    const service = this.connection.service;
    if (!service) return;
    const shown = this.memory.get<string[]>(SHOWN_WARNINGS_KEY) ?? [];
    const fresh = keyWarnings(state, service, this.connection.clock.now(), this.settings.get('account.warnBelowShare')).filter(
      (warning) => !shown.includes(warning.id),
    );
    if (fresh.length === 0) return;
    void this.memory.update(SHOWN_WARNINGS_KEY, [...shown, ...fresh.map((warning) => warning.id)].slice(-MAX_REMEMBERED_WARNINGS));
    for (const warning of fresh) {
      this.log.info(`Key warning (${warning.kind}): ${warning.message}`);
      this.warningsShown.push(warning);
      showMessage(warning.kind === 'expired' || warning.kind === 'used-up' ? 'error' : 'warning', warning.message, actionsFor(warning));
    }
  }
}

function actionsFor(warning: KeyWarning): MessageAction[] {
  const setKey = { title: t('Set API Key'), command: CommandIds.setApiKey };
  if (warning.kind === 'low') return [setKey, { title: t('Open Settings'), command: CommandIds.openSettings, args: ['promptreel.account.warnBelowShare'] }];
  return [setKey, { title: t('Test Connection'), command: CommandIds.testConnection }];
}
