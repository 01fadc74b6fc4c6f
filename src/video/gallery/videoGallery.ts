import { ViewIds } from '../../common/contributions';
import * as vscode from 'vscode';
import { Disposable, MutableDisposable, toDisposable } from '../../common/lifecycle';
import { t } from '../../api/l10n';
import { webviewOptions } from '../../workbench/webview/webviewPanels';
import { GalleryHost, type GalleryDeps } from './galleryHost';
import type { GalleryCard, PosterReport } from './protocol';

interface OpenGallery {
  panel: vscode.WebviewPanel;
  host: GalleryHost;
}

/** The Video Gallery: one editor panel (open or reveal it), restored after a reload by its serializer. */
export class VideoGallery extends Disposable {
  private current: OpenGallery | undefined;
  private readonly attached = this._register(new MutableDisposable());

  constructor(private readonly deps: GalleryDeps) {
    super();
    this._register(toDisposable(() => this.current?.panel.dispose()));
  }

  get isOpen(): boolean {
    return this.current !== undefined;
  }

  /** The last poster report of a card (width and height of its video, or why it could not be shown). */
  poster(id: string): PosterReport | undefined {
    return this.current?.host.poster(id);
  }

  /** The cards the open gallery's page was last sent (none when it is closed). */
  shownCards(): readonly GalleryCard[] {
    return this.current?.host.shownCards() ?? [];
  }

  open(): vscode.WebviewPanel {
    if (this.current) {
      this.current.panel.reveal();
      return this.current.panel;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.videoGallery, t('Video Gallery'), vscode.ViewColumn.Active, webviewOptions(this.deps.extensionUri));
    this.attach(panel);
    return panel;
  }

  /** The gallery VS Code brings back after a window reload (its page asks for a fresh snapshot). */
  restore(panel: vscode.WebviewPanel): void {
    this.attach(panel);
  }

  /** Checks a message as if the gallery's page sent it, and does what it asks (nothing when no gallery is open). */
  async handleMessage(raw: unknown): Promise<void> {
    await this.current?.host.handleMessage(raw);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.current?.panel.dispose();
    panel.iconPath = vscode.Uri.joinPath(this.deps.extensionUri, 'media', 'promptreel.svg');
    const host = new GalleryHost(panel.webview, this.deps);
    const open: OpenGallery = { panel, host };
    this.current = open;
    const disposed = panel.onDidDispose(() => {
      if (this.current === open) this.current = undefined;
      if (this.attached.value === registration) this.attached.clear();
    });
    const registration = toDisposable(() => {
      disposed.dispose();
      host.dispose();
    });
    this.attached.value = registration;
  }
}
