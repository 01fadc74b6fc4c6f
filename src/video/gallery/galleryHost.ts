import * as vscode from 'vscode';
import { CommandIds } from '../../common/contributions';
import { t } from '../../api/l10n';
import { MutableDisposable, toDisposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import type { Connection } from '../../connection/connection';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { pageLanguage, WebviewHost } from '../../workbench/webview/webviewHost';
import { galleryEntries, galleryModels } from '../core/galleryCards';
import type { VideoTaskStore } from '../core/taskStore';
import { savedFile } from '../downloadedFile';
import { galleryToHostSchema, type GalleryAction, type GalleryCard, type GalleryToHost, type HostToGallery, type PosterReport } from './protocol';

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

export interface GalleryDeps {
  extensionUri: vscode.Uri;
  store: VideoTaskStore;
  connection: Connection;
  log: ComponentLogger;
}

/**
 * The gallery's page on the host side: cards of the task list (poster frames from the downloaded files, state,
 * duration, model, prompt, price), following the task store live. The page may load the extension's own files, the
 * workspace and the folders of the downloaded videos only; a card's button runs the tree's command for its task.
 */
export class GalleryHost extends WebviewHost<GalleryToHost, HostToGallery> {
  /** The folders outside the workspace the page may load videos from, as last set. */
  private outsideFolders = '';
  private readonly pending = this._register(new MutableDisposable());
  private readonly posters = new Map<string, PosterReport>();
  private shown: readonly GalleryCard[] = [];

  constructor(
    webview: vscode.Webview,
    private readonly deps: GalleryDeps,
  ) {
    super(
      webview,
      { name: 'video gallery', extensionUri: deps.extensionUri, log: deps.log, schema: galleryToHostSchema, resourceRoots: workspaceFolders() },
      {
        title: t('Promptreel Video Gallery'),
        script: 'gallery.js',
        style: 'gallery.css',
        allow: { media: true },
        body: `<main id="gallery" aria-busy="true"><p class="empty">${escapeHtml(t('Loading the video tasks…'))}</p></main>`,
      },
    );
    this._register(deps.store.onDidChange(() => this.scheduleSnapshot()));
    this._register(deps.connection.prices.onDidChange(() => this.scheduleSnapshot()));
  }

  /** The last poster report of a card (width and height of its video, or why it could not be shown). */
  poster(id: string): PosterReport | undefined {
    return this.posters.get(id);
  }

  /** The cards of the last snapshot sent to the page, groups flattened. */
  shownCards(): readonly GalleryCard[] {
    return this.shown;
  }

  protected onReady(): Promise<void> {
    return this.postSnapshot();
  }

  protected async onMessage(message: Exclude<GalleryToHost, { type: 'ready' }>): Promise<void> {
    switch (message.type) {
      case 'poster':
        this.posters.set(message.id, message);
        if (message.error) this.deps.log.warn(`Gallery: the first frame of ${message.id} cannot be shown (${message.error}).`);
        return;
      case 'action':
        if (!this.deps.store.get(message.id)) return;
        await vscode.commands.executeCommand(ACTION_COMMANDS[message.action], message.id);
        return;
    }
  }

  private scheduleSnapshot(): void {
    if (this.pending.value) return;
    const handle = setTimeout(() => {
      this.pending.clear();
      void this.postSnapshot();
    }, SNAPSHOT_DELAY_MS);
    this.pending.value = toDisposable(() => clearTimeout(handle));
  }

  private async postSnapshot(): Promise<void> {
    if (!this.ready) return;
    const tasks = this.deps.store.tasks;
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
      this.setResourceRoots([...workspaceFolders(), ...outside]);
    }
    const prices = this.deps.connection.prices.known();
    const entries = galleryEntries(tasks, {
      service: this.deps.connection.service,
      videoSources: new Map([...files].map(([id, uri]) => [id, this.webview.asWebviewUri(uri).toString()])),
      priceOf: (model) => {
        const price = prices.get(model);
        return price?.kind === 'per-call' ? price.usd : undefined;
      },
      formatTime: localTime,
    });
    this.shown = entries.flatMap((entry) => (entry.kind === 'card' ? [entry.card] : entry.group.cards));
    await this.post({ type: 'snapshot', entries, models: galleryModels(tasks) });
  }
}

function workspaceFolders(): vscode.Uri[] {
  return (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri);
}

/** A card's creation time as the page's language writes it (the language VS Code's UI is in). */
function localTime(epochMs: number): string {
  try {
    return new Date(epochMs).toLocaleString(pageLanguage());
  } catch {
    return new Date(epochMs).toLocaleString();
  }
}
