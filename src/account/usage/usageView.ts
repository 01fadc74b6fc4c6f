import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { ViewIds } from '../../common/contributions';
import { Disposable, MutableDisposable, toDisposable } from '../../common/lifecycle';
import { LazyFeature } from '../../workbench/lazyFeature';
import { registerPanelSerializer, webviewOptions } from '../../workbench/webview/webviewPanels';
import type * as UsageHostModule from './usageHost';
import type { UsageSnapshot } from './protocol';

interface OpenUsage {
  panel: vscode.WebviewPanel;
  /** Set once its code has loaded (the first time, a moment after the panel opens). */
  host?: UsageHostModule.UsageHost;
}

/** Promptreel: Show Usage: one editor panel (open or reveal it), restored after a reload by its serializer. */
export class UsageView extends Disposable {
  private current: OpenUsage | undefined;
  private readonly attached = this._register(new MutableDisposable());
  /** The page's code loads with the first Show Usage, not with every window. */
  private readonly hostCode: LazyFeature<typeof UsageHostModule>;

  constructor(private readonly deps: UsageHostModule.UsageDeps) {
    super();
    this.hostCode = this._register(new LazyFeature('usage view', () => import('./usageHost'), deps.log));
    this._register(toDisposable(() => this.current?.panel.dispose()));
    this._register(registerPanelSerializer(ViewIds.usage, (panel) => this.attach(panel), deps.log));
  }

  get isOpen(): boolean {
    return this.current !== undefined;
  }

  /** The view the open page was last sent (undefined when it is closed or its page has not said `ready`). */
  shownSnapshot(): UsageSnapshot | undefined {
    return this.current?.host?.shownSnapshot();
  }

  /** The open view's host (tests drive Refresh and Export CSV… through it, as the page's buttons do). */
  get host(): UsageHostModule.UsageHost | undefined {
    return this.current?.host;
  }

  open(): vscode.WebviewPanel {
    if (this.current) {
      this.current.panel.reveal();
      return this.current.panel;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.usage, t('Promptreel Usage'), vscode.ViewColumn.Active, webviewOptions(this.deps.extensionUri));
    void this.attach(panel);
    return panel;
  }

  private attach(panel: vscode.WebviewPanel): Promise<void> {
    this.current?.panel.dispose();
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'promptreel.svg');
    const open: OpenUsage = { panel };
    this.current = open;
    const disposed = panel.onDidDispose(() => {
      if (this.current === open) this.current = undefined;
      if (this.attached.value === registration) this.attached.clear();
    });
    const registration = toDisposable(() => {
      disposed.dispose();
      open.host?.dispose();
      open.host = undefined;
    });
    this.attached.value = registration;
    return this.hostCode.getOrReport().then((code) => {
      if (code && this.attached.value === registration) open.host = new code.UsageHost(panel.webview, this.deps);
    });
  }
}
