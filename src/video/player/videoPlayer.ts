import { ViewIds } from '../../common/contributions';
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ComponentLogger } from '../../common/logger';
import { isFile } from '../../workbench/fileExists';
import { webviewOptions } from '../../workbench/webview/webviewPanels';
import { showMessage } from '../../workbench/showMessage';
import { fileNameOf } from '../downloadedFile';
import { filmMedia } from './filmMedia';
import { PlayerHost, sourceTitle, sourceUri, type PlayerSource } from './playerHost';
import { playerStateSchema, type PlaybackReport } from './protocol';

/** A video to play: a URI of any file system (remote and virtual workspaces too), or a path on this machine. */
export type VideoFile = vscode.Uri | string;

function toUri(file: VideoFile): vscode.Uri {
  if (typeof file !== 'string') return file;
  return /^[a-z][\w+.-]+:/i.test(file) ? vscode.Uri.parse(file, true) : vscode.Uri.file(file);
}

interface OpenPlayer {
  panel: vscode.WebviewPanel;
  host: PlayerHost;
}

/**
 * Open Video and Play Film: a player panel per file or film (one each: opening it again reveals it), restored after a
 * window reload.
 */
export class VideoPlayer extends Disposable {
  private readonly players = new Map<string, OpenPlayer>();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: ComponentLogger,
  ) {
    super();
    this._register(toDisposable(() => [...this.players.values()].forEach((open) => open.panel.dispose())));
  }

  open(file: VideoFile): vscode.WebviewPanel {
    const uri = toUri(file);
    const existing = this.players.get(uri.toString());
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    return this.show({ kind: 'video', file: uri });
  }

  /**
   * Plays a made film (its storyboard's file): the joined MP4 with its captions, or its shots in order with theirs.
   * Undefined when it cannot be played (not made yet, a file gone): the user is told why.
   */
  async openFilm(storyboard: VideoFile): Promise<vscode.WebviewPanel | undefined> {
    const uri = toUri(storyboard);
    const existing = this.players.get(uri.toString());
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const media = await filmMedia(uri);
    if (!media.ok) {
      this.log.warn(`The film ${uri.toString()} cannot be played: ${media.problem}`);
      showMessage('warning', media.problem);
      return undefined;
    }
    // Read while the film was looked at: another call may have opened it meanwhile.
    return this.players.get(uri.toString())?.panel ?? this.show(media.media);
  }

  private show(source: PlayerSource): vscode.WebviewPanel {
    const panel = vscode.window.createWebviewPanel(ViewIds.videoPlayer, sourceTitle(source), vscode.ViewColumn.Active, webviewOptions(this.extensionUri));
    this.attach(panel, source);
    return panel;
  }

  /** A player panel VS Code brings back after a window reload: it plays its file (or film) again, or closes if it is gone. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = playerStateSchema.safeParse(state);
    const uri = saved.success ? toUri(saved.data.file) : undefined;
    if (uri && saved.success && saved.data.film) {
      const media = await filmMedia(uri);
      if (media.ok && !this.players.has(uri.toString())) return this.attach(panel, media.media);
      this.log.info(`The player of the film ${fileNameOf(uri)} was not restored: ${media.ok ? 'it is open already' : media.problem}`);
      panel.dispose();
      return;
    }
    const exists = uri ? await isFile(uri) : false;
    if (!uri || !exists || this.players.has(uri.toString())) {
      this.log.info(uri && !exists ? `The video player of ${fileNameOf(uri)} was not restored: the file is gone.` : 'A video player was not restored.');
      panel.dispose();
      return;
    }
    this.attach(panel, { kind: 'video', file: uri });
  }

  /** The last playback report of the player of `file`. */
  lastReport(file: VideoFile): PlaybackReport | undefined {
    return this.players.get(toUri(file).toString())?.host.lastReport;
  }

  isOpen(file: VideoFile): boolean {
    return this.players.has(toUri(file).toString());
  }

  /** Starts playback (muted: browsers only autoplay muted media without a click). */
  async play(file: VideoFile, muted = true): Promise<boolean> {
    return (await this.players.get(toUri(file).toString())?.host.play(muted)) ?? false;
  }

  private attach(panel: vscode.WebviewPanel, source: PlayerSource): void {
    const file = sourceUri(source).toString();
    panel.title = sourceTitle(source);
    const host = new PlayerHost(panel.webview, source, this.extensionUri, this.log);
    this.players.set(file, { panel, host });
    const disposed = panel.onDidDispose(() => {
      disposed.dispose();
      host.dispose();
      this.players.delete(file);
    });
  }
}
