import { ViewIds } from '../common/contributions';
import * as vscode from 'vscode';
import { t } from '../api/l10n';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { ChatWebviewHost } from './chatWebviewHost';
import type { ChatServices } from './chatServices';
import { chatWebviewOptions } from './chatHtml';
import { webviewStateSchema } from './core/protocol';

interface OpenPanel {
  panel: vscode.WebviewPanel;
  host: ChatWebviewHost;
}

/** "Open in Editor": chat panels in the editor area, restored after a reload by a WebviewPanelSerializer. */
export class ChatPanels extends Disposable implements vscode.WebviewPanelSerializer<unknown> {
  private readonly open = new Set<OpenPanel>();

  constructor(
    private readonly services: ChatServices,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(vscode.window.registerWebviewPanelSerializer(ViewIds.chatPanel, this));
    this._register(
      toDisposable(() => {
        for (const entry of [...this.open]) entry.panel.dispose();
      }),
    );
  }

  get hosts(): ChatWebviewHost[] {
    return [...this.open].map((entry) => entry.host);
  }

  /** Opens a panel showing this conversation (a panel already showing it is revealed instead). */
  show(conversationId: string | undefined, column: vscode.ViewColumn = vscode.ViewColumn.Active): ChatWebviewHost {
    const existing = [...this.open].find((entry) => conversationId && entry.host.conversationId === conversationId);
    if (existing) {
      existing.panel.reveal(column);
      return existing.host;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.chatPanel, t('Promptreel Chat'), column, {
      ...chatWebviewOptions(this.services.extensionUri),
      retainContextWhenHidden: false,
    });
    return this.bind(panel, conversationId);
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const parsed = webviewStateSchema.safeParse(state ?? {});
    const conversationId = parsed.success ? parsed.data.conversationId : undefined;
    this.log.info(`Restoring a chat panel${conversationId ? '' : ' (no conversation recorded)'}.`);
    this.bind(panel, conversationId);
  }

  private bind(panel: vscode.WebviewPanel, conversationId: string | undefined): ChatWebviewHost {
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'promptreel.svg');
    const host = new ChatWebviewHost(panel.webview, this.services, conversationId);
    const entry: OpenPanel = { panel, host };
    this.open.add(entry);
    const title = host.onDidChangeTitle((text) => (panel.title = t('Chat: {0}', text)));
    panel.title = t('Chat: {0}', this.services.controller.store.get(host.conversationId)?.title ?? 'Promptreel');
    const disposed = panel.onDidDispose(() => {
      this.open.delete(entry);
      title.dispose();
      disposed.dispose();
      host.dispose();
    });
    return host;
  }
}
