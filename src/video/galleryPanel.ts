import { CommandIds, ViewIds } from '../common/contributions';
import * as vscode from 'vscode';
import { Disposable, MutableDisposable, toDisposable } from '../common/lifecycle';
import { Emitter } from '../common/emitter';
import { t } from '../api/l10n';
import type { ComponentLogger } from '../common/logger';
import { newNonce } from '../common/webviewPage';
import type { Connection } from '../connection/connection';
import { pageLanguage, pageStrings } from '../workbench/l10n';
import { galleryEntries, galleryModels } from './core/galleryCards';
import { galleryHtml } from './core/galleryPage';
import { galleryMessageSchema, type GalleryAction, type GalleryToHost, type HostToGallery } from './core/galleryProtocol';
import type { VideoTaskStore } from './core/taskStore';
import { savedFile } from './downloadedFile';

/** The tree's item command behind each card button. */
const ACTION_COMMANDS: Record<GalleryAction, string> = {
  open: CommandIds.video.open,
  download: CommandIds.video.download,
  reveal: CommandIds.video.reveal,
  regenerate: CommandIds.video.regenerate,
  refresh: CommandIds.video.refresh,
  goToSource: CommandIds.video.goToSource,
  track: CommandIds.video.track,
  copyPrompt: CommandIds.video.copyPrompt,
  copyId: CommandIds.video.copyId,
  remove: CommandIds.video.remove,
};

/** Snapshots are sent at most this often while the list changes quickly (many tasks polled at once). */
const SNAPSHOT_DELAY_MS = 50;

/**
 * The Video Gallery: one webview panel of cards (poster frames from the downloaded files, state, duration, model,
 * prompt, price), following the task store live and restored after a reload by its serializer. The page may load
 * only the extension's own files and the folders of the downloaded videos; each message it sends is checked.
 */
export class VideoGallery extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  /** The folders outside the workspace the page may load videos from, as last set. */
  private outsideFolders = '';
  private readonly pending = this._register(new MutableDisposable());
  private readonly attached = this._register(new MutableDisposable());
  private readonly posters = new Map<string, GalleryToHost & { type: 'poster' }>();
  private readonly posterShown = this._register(new Emitter<string>());
  /** A card's first frame is shown (the page says so; tests wait for it). */
  readonly onDidShowPoster = this.posterShown.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: VideoTaskStore,
    private readonly connection: Connection,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(store.onDidChange(() => this.scheduleSnapshot()));
    this._register(connection.prices.onDidChange(() => this.scheduleSnapshot()));
    this._register(toDisposable(() => this.panel?.dispose()));
    this._register(vscode.window.registerWebviewPanelSerializer(ViewIds.videoGallery, { deserializeWebviewPanel: async (panel) => this.restore(panel) }));
  }

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  /** The last poster report of a card (width and height of its video, or why it could not be shown). */
  poster(id: string): (GalleryToHost & { type: 'poster' }) | undefined {
    return this.posters.get(id);
  }

  open(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal();
      return this.panel;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.videoGallery, t('Video Gallery'), vscode.ViewColumn.Active, this.options([]));
    this.attach(panel);
    return panel;
  }

  /** The gallery VS Code brings back after a window reload (its page asks for a fresh snapshot). */
  restore(panel: vscode.WebviewPanel): void {
    this.attach(panel);
  }

  /** Checks a message from the page and does what it asks; anything that does not fit is logged and dropped. */
  async handleMessage(raw: unknown): Promise<void> {
    const parsed = galleryMessageSchema.safeParse(raw);
    if (!parsed.success) {
      this.log.warn('Ignoring a message from the video gallery that does not fit the protocol.');
      return;
    }
    const message = parsed.data;
    if (message.type === 'ready') return this.sendSnapshot();
    if (message.type === 'poster') {
      this.posters.set(message.id, message);
      if (message.error) this.log.warn(`Gallery: the first frame of ${message.id} cannot be shown (${message.error}).`);
      else this.posterShown.fire(message.id);
      return;
    }
    if (!this.store.get(message.id)) return;
    await vscode.commands.executeCommand(ACTION_COMMANDS[message.action], message.id);
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel?.dispose();
    this.panel = panel;
    this.outsideFolders = '';
    this.posters.clear();
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'promptreel.svg');
    panel.webview.options = this.options([]);
    const webview = panel.webview;
    webview.html = galleryHtml({
      cspSource: webview.cspSource,
      nonce: newNonce(),
      scriptSrc: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'gallery.js')).toString(),
      styleHref: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'gallery.css')).toString(),
      l10n: { language: pageLanguage(), strings: pageStrings() },
    });
    const messages = webview.onDidReceiveMessage((raw: unknown) => void this.handleMessage(raw));
    const disposed = panel.onDidDispose(() => {
      if (this.panel === panel) this.panel = undefined;
      this.attached.clear();
    });
    this.attached.value = toDisposable(() => {
      messages.dispose();
      disposed.dispose();
    });
  }

  /** Scripts on; resources: the extension's media and bundles, the workspace, and each folder holding a video. */
  private options(folders: readonly vscode.Uri[]): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    const roots = [
      vscode.Uri.joinPath(this.extensionUri, 'media'),
      vscode.Uri.joinPath(this.extensionUri, 'dist'),
      ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri),
      ...folders,
    ];
    return { enableScripts: true, enableCommandUris: false, localResourceRoots: roots };
  }

  private scheduleSnapshot(): void {
    if (!this.panel || this.pending.value) return;
    const handle = setTimeout(() => {
      this.pending.clear();
      void this.sendSnapshot();
    }, SNAPSHOT_DELAY_MS);
    this.pending.value = toDisposable(() => clearTimeout(handle));
  }

  private async sendSnapshot(): Promise<void> {
    const panel = this.panel;
    if (!panel) return;
    const tasks = this.store.tasks;
    const files = new Map<string, vscode.Uri>();
    await Promise.all(
      tasks.map(async (task) => {
        const uri = await savedFile(task);
        if (uri) files.set(task.id, uri);
      }),
    );
    const folders = [...new Set([...files.values()].map((uri) => vscode.Uri.joinPath(uri, '..').toString()))].map((text) => vscode.Uri.parse(text));
    const outside = folders.filter((folder) => !vscode.workspace.getWorkspaceFolder(folder));
    const outsideKey = outside.map(String).join('\n');
    if (outsideKey !== this.outsideFolders) {
      this.outsideFolders = outsideKey;
      panel.webview.options = this.options(outside);
    }
    const prices = this.connection.prices.known();
    const entries = galleryEntries(tasks, {
      service: this.connection.service,
      videoSources: new Map([...files].map(([id, uri]) => [id, panel.webview.asWebviewUri(uri).toString()])),
      priceOf: (model) => {
        const price = prices.get(model);
        return price?.kind === 'per-call' ? price.usd : undefined;
      },
      formatTime: localTime,
    });
    const snapshot: HostToGallery = { type: 'snapshot', entries, models: galleryModels(tasks) };
    if (this.panel === panel) await panel.webview.postMessage(snapshot);
  }
}

/** A card's creation time as the page's language writes it (the language VS Code's UI is in). */
function localTime(epochMs: number): string {
  try {
    return new Date(epochMs).toLocaleString(pageLanguage());
  } catch {
    return new Date(epochMs).toLocaleString();
  }
}
