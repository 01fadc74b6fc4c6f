import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { MutableDisposable, toDisposable } from '../../common/lifecycle';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { Settings } from '../../config/settings';
import type { Connection } from '../../connection/connection';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { pageLanguage, WebviewHost } from '../../workbench/webview/webviewHost';
import { showMessage } from '../../workbench/showMessage';
import { usageCsv } from './core/usageCsv';
import { usageSnapshot, type UsageRecord } from './core/usageModel';
import { usageToHostSchema, type HostToUsage, type UsageSnapshot, type UsageToHost } from './protocol';

/** Snapshots are sent at most this often while the log and the record change together. */
const SNAPSHOT_DELAY_MS = 50;

export interface UsageDeps {
  extensionUri: vscode.Uri;
  connection: Connection;
  settings: Settings;
  log: ComponentLogger;
}

/**
 * The usage view's page on the host side: what was spent, from the gateway's log of the key where it publishes one
 * (read through the connection's KeyLogMonitor, never here), else from what this machine recorded; following both
 * live. Export CSV… writes every request through `vscode.workspace.fs`.
 */
export class UsageHost extends WebviewHost<UsageToHost, HostToUsage> {
  private readonly pending = this._register(new MutableDisposable());
  private shown: UsageSnapshot | undefined;
  /** Counts the snapshots begun, so a slow one never replaces a newer one. */
  private version = 0;

  constructor(
    webview: vscode.Webview,
    private readonly deps: UsageDeps,
  ) {
    super(
      webview,
      { name: 'usage view', extensionUri: deps.extensionUri, log: deps.log, schema: usageToHostSchema },
      {
        title: t('Promptreel Usage'),
        script: 'usage.js',
        style: 'usage.css',
        body: `<main id="usage" aria-busy="true"><p class="empty">${escapeHtml(t('Loading the usage…'))}</p></main>`,
      },
    );
    const { connection, settings } = deps;
    this._register(connection.keyLog.onDidChange(() => this.scheduleSnapshot()));
    this._register(connection.spending.onDidRecord(() => this.scheduleSnapshot()));
    this._register(connection.onDidChange(() => this.scheduleSnapshot()));
    this._register(
      settings.onDidChange((change) => {
        if (change.affects('account.dailyBudget') || change.affects('account.monthlyBudget')) this.scheduleSnapshot();
      }),
    );
  }

  /** The view the page was last sent (undefined before the page said `ready`). */
  shownSnapshot(): UsageSnapshot | undefined {
    return this.shown;
  }

  protected onReady(): Promise<void> {
    return this.postSnapshot();
  }

  protected async onMessage(message: Exclude<UsageToHost, { type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'refresh':
        await this.refresh();
        return;
      case 'exportCsv':
        await this.exportCsv();
        return;
    }
  }

  /** Reads the key's log again, then shows it. */
  async refresh(): Promise<void> {
    await this.post({ type: 'busy', busy: true });
    try {
      if (this.deps.connection.service) await this.deps.connection.keyLog.refresh();
      await this.postSnapshot();
    } finally {
      await this.post({ type: 'busy', busy: false });
    }
  }

  /** Asks where to save every request as CSV and writes it; resolves with the file, or undefined when dismissed. */
  async exportCsv(): Promise<vscode.Uri | undefined> {
    const records = (await this.build()).rows;
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const name = `promptreel-usage-${new Date().toISOString().slice(0, 10)}.csv`;
    const target = await vscode.window.showSaveDialog({
      title: t('Export Usage as CSV'),
      saveLabel: t('Export'),
      filters: { [t('CSV files')]: ['csv'] },
      ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
    });
    if (!target) return undefined;
    try {
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(usageCsv(records)));
    } catch (error) {
      this.deps.log.error(`Could not export the usage to ${target.toString(true)}: ${describeError(error)}`);
      showMessage('error', t('Could not export the usage: {0}', describeError(error)));
      return undefined;
    }
    this.deps.log.info(`Exported ${records.length} requests to ${target.toString(true)}.`);
    showMessage('info', records.length === 1 ? t('Exported 1 request.') : t('Exported {0} requests.', records.length));
    return target;
  }

  private scheduleSnapshot(): void {
    if (this.pending.value || !this.ready) return;
    const handle = setTimeout(() => {
      this.pending.clear();
      void this.postSnapshot();
    }, SNAPSHOT_DELAY_MS);
    this.pending.value = toDisposable(() => clearTimeout(handle));
  }

  private async postSnapshot(): Promise<void> {
    if (!this.ready) return;
    const version = ++this.version;
    const { snapshot } = await this.build();
    if (version !== this.version) return;
    this.shown = snapshot;
    await this.post({ type: 'snapshot', snapshot });
  }

  /** The view as of now: the key's log (read only when nothing is known of it yet), this machine's record, the budgets. */
  private async build(): Promise<{ snapshot: UsageSnapshot; rows: UsageRecord[] }> {
    const { connection } = this.deps;
    const service = connection.service;
    const log = service ? await connection.keyLog.entries() : undefined;
    return usageSnapshot({
      log,
      own: service ? connection.spending.entries(service) : [],
      budgets: connection.budgets.budgets(),
      now: connection.clock.now(),
      formatTime: localTime,
      formatDay: shortDay,
    });
  }
}

/** A request's time as the page's language writes it (the language VS Code's UI is in). */
function localTime(epochMs: number): string {
  return format(epochMs, { dateStyle: 'short', timeStyle: 'medium' });
}

/** `Oct 15` (`10月15日`). */
function shortDay(epochMs: number): string {
  return format(epochMs, { month: 'short', day: 'numeric' });
}

function format(epochMs: number, options: Intl.DateTimeFormatOptions): string {
  try {
    return new Date(epochMs).toLocaleString(pageLanguage(), options);
  } catch {
    return new Date(epochMs).toLocaleString(undefined, options);
  }
}
