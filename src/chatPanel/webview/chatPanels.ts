import { ViewIds } from '../../common/contributions';
import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import { webviewOptions } from '../../workbench/webview/webviewPanels';
import { ChatSession } from './chatSession';
import type { ChatServices } from './chatServices';
import { webviewStateSchema } from './protocol';

interface OpenPanel {
  panel: vscode.WebviewPanel;
  session: ChatSession;
}

/** "Open in Editor": chat panels in the editor area, restored after a reload through `restore` (see chatSurfaces.ts). */
export class ChatPanels extends Disposable {
  private readonly open = new Set<OpenPanel>();

  constructor(
    private readonly services: ChatServices,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(
      toDisposable(() => {
        for (const entry of [...this.open]) entry.panel.dispose();
      }),
    );
  }

  get hosts(): ChatSession[] {
    return [...this.open].map((entry) => entry.session);
  }

  /** Opens a panel showing this conversation (a panel already showing it is revealed instead). */
  show(conversationId: string | undefined, column: vscode.ViewColumn = vscode.ViewColumn.Active): ChatSession {
    const existing = [...this.open].find((entry) => conversationId && entry.session.conversationId === conversationId);
    if (existing) {
      existing.panel.reveal(column);
      return existing.session;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.chatPanel, t('Promptreel Chat'), column, {
      ...webviewOptions(this.services.extensionUri),
      retainContextWhenHidden: false,
    });
    return this.bind(panel, conversationId);
  }

  /** A panel VS Code brings back after a window reload, with the state its page saved (its conversation). */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    const parsed = webviewStateSchema.safeParse(state ?? {});
    const conversationId = parsed.success ? parsed.data.conversationId : undefined;
    this.log.info(`Restoring a chat panel${conversationId ? '' : ' (no conversation recorded)'}.`);
    this.bind(panel, conversationId);
  }

  private bind(panel: vscode.WebviewPanel, conversationId: string | undefined): ChatSession {
    panel.iconPath = vscode.Uri.joinPath(this.services.extensionUri, 'media', 'promptreel.svg');
    const session = new ChatSession(panel.webview, this.services, conversationId);
    const entry: OpenPanel = { panel, session };
    this.open.add(entry);
    const title = session.onDidChangeTitle((text) => (panel.title = t('Chat: {0}', text)));
    panel.title = t('Chat: {0}', this.services.controller.store.get(session.conversationId)?.title ?? 'Promptreel');
    const disposed = panel.onDidDispose(() => {
      this.open.delete(entry);
      title.dispose();
      disposed.dispose();
      session.dispose();
    });
    return session;
  }
}
