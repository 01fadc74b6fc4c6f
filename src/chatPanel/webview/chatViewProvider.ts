import { ViewIds } from '../../common/contributions';
import * as vscode from 'vscode';
import { Emitter } from '../../common/emitter';
import { t } from '../../api/l10n';
import { Disposable, MutableDisposable } from '../../common/lifecycle';
import { ChatSession } from './chatSession';
import type { ChatServices } from './chatServices';
import { webviewStateSchema } from './protocol';

/** The Chat view in the Promptreel side bar: a webview shown by a ChatSession (registered by chatSurfaces.ts). */
export class ChatViewProvider extends Disposable implements vscode.WebviewViewProvider {
  private readonly current = this._register(new MutableDisposable<ChatSession>());
  private view: vscode.WebviewView | undefined;
  private readonly resolved = this._register(new Emitter<ChatSession>());
  readonly onDidResolve = this.resolved.event;

  constructor(private readonly services: ChatServices) {
    super();
  }

  /** The host of the view, once VS Code has shown the view at least once. */
  get host(): ChatSession | undefined {
    return this.current.value;
  }

  get visible(): boolean {
    return this.view?.visible ?? false;
  }

  resolveWebviewView(view: vscode.WebviewView, context: vscode.WebviewViewResolveContext): void {
    this.view = view;
    // After a window reload, the conversation the page showed (its saved state): the page is made with it.
    const saved = webviewStateSchema.safeParse(context.state ?? {});
    const conversationId = this.current.value?.conversationId ?? (saved.success ? saved.data.conversationId : undefined);
    const host = new ChatSession(view.webview, this.services, conversationId);
    this.current.value = host;
    const disposed = view.onDidDispose(() => {
      disposed.dispose();
      if (this.current.value === host) this.current.clear();
      if (this.view === view) this.view = undefined;
    });
    this.resolved.fire(host);
  }

  /** Shows the Chat view (resolving it if needed) and returns its host. */
  async reveal({ preserveFocus = false }: { preserveFocus?: boolean } = {}): Promise<ChatSession> {
    const waiting = this.host
      ? Promise.resolve(this.host)
      : new Promise<ChatSession>((resolve) => {
          const once = this.onDidResolve((host) => {
            once.dispose();
            resolve(host);
          });
        });
    if (this.view) this.view.show(preserveFocus);
    else await vscode.commands.executeCommand(`${ViewIds.chat}.focus`, { preserveFocus });
    return withTimeout(waiting, 30_000, t('The Chat view did not open.'));
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
