import { ViewIds } from '../common/contributions';
import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import * as z from 'zod/mini';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { newNonce } from '../common/webviewPage';
import { isFile } from '../workbench/fileExists';
import { pageLanguage } from '../workbench/l10n';
import { fileNameOf } from './downloadedFile';
import { playerHtml, playerMessageSchema, type PlaybackReport, type PlayerCommand } from './core/playerPage';

/** What the player page saves (`setState`) for a window reload to bring it back: the file's URI (a path, before). */
const savedStateSchema = z.object({ file: z.string().check(z.minLength(1)) });

/** A video to play: a URI of any file system (remote and virtual workspaces too), or a path on this machine. */
export type VideoFile = vscode.Uri | string;

function toUri(file: VideoFile): vscode.Uri {
  if (typeof file !== 'string') return file;
  return /^[a-z][\w+.-]+:/i.test(file) ? vscode.Uri.parse(file, true) : vscode.Uri.file(file);
}

interface OpenPlayer {
  panel: vscode.WebviewPanel;
  last?: PlaybackReport;
}

/**
 * Open Video: a webview panel per file with a `<video>` whose source is the file through `asWebviewUri` (the
 * only resource root is the file's folder). The page reports playback back, so a file the webview cannot
 * play is said plainly instead of showing a black box.
 */
export class VideoPlayer extends Disposable {
  private readonly panels = new Map<string, OpenPlayer>();
  /** `file`: the URI (as a string) the player plays. */
  private readonly reported = this._register(new Emitter<{ file: string; report: PlaybackReport }>());
  readonly onDidReportPlayback = this.reported.event;

  constructor(private readonly log: ComponentLogger) {
    super();
    this._register(toDisposable(() => [...this.panels.values()].forEach((open) => open.panel.dispose())));
  }

  open(file: VideoFile): vscode.WebviewPanel {
    const uri = toUri(file);
    const existing = this.panels.get(uri.toString());
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(ViewIds.videoPlayer, fileNameOf(uri), vscode.ViewColumn.Active, playerOptions(uri));
    this.attach(panel, uri);
    return panel;
  }

  /** A player panel VS Code brings back after a window reload: it plays its file again, or closes if the file is gone. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = savedStateSchema.safeParse(state);
    const uri = saved.success ? toUri(saved.data.file) : undefined;
    const exists = uri ? await isFile(uri) : false;
    if (!uri || !exists || this.panels.has(uri.toString())) {
      this.log.info(uri && !exists ? `The video player of ${fileNameOf(uri)} was not restored: the file is gone.` : 'A video player was not restored.');
      panel.dispose();
      return;
    }
    panel.webview.options = playerOptions(uri);
    this.attach(panel, uri);
  }

  private attach(panel: vscode.WebviewPanel, uri: vscode.Uri): void {
    const title = fileNameOf(uri);
    const file = uri.toString();
    panel.title = title;
    const open: OpenPlayer = { panel };
    this.panels.set(file, open);
    const webview = panel.webview;
    webview.html = playerHtml({
      videoSrc: webview.asWebviewUri(uri).toString(),
      cspSource: webview.cspSource,
      title,
      nonce: newNonce(),
      file,
      language: pageLanguage(),
    });
    const subscriptions = [
      webview.onDidReceiveMessage((raw: unknown) => {
        const message = playerMessageSchema.safeParse(raw);
        if (!message.success) {
          this.log.warn('Ignoring a message from the video player that does not fit the protocol.');
          return;
        }
        if (message.data.type !== 'playback') return;
        open.last = message.data;
        if (message.data.state === 'error' || message.data.state === 'blocked')
          this.log.warn(`Player of ${title}: ${message.data.state} (${message.data.error ?? 'no details'}).`);
        else if (message.data.state !== 'timeupdate') this.log.debug(`Player of ${title}: ${message.data.state} at ${message.data.currentTime.toFixed(2)} s.`);
        this.reported.fire({ file, report: message.data });
      }),
    ];
    panel.onDidDispose(() => {
      subscriptions.forEach((subscription) => subscription.dispose());
      this.panels.delete(file);
    });
  }

  /** The last playback report of the player of `file`. */
  lastReport(file: VideoFile): PlaybackReport | undefined {
    return this.panels.get(toUri(file).toString())?.last;
  }

  isOpen(file: VideoFile): boolean {
    return this.panels.has(toUri(file).toString());
  }

  /** Starts playback (muted: browsers only autoplay muted media without a click). */
  async play(file: VideoFile, muted = true): Promise<boolean> {
    const open = this.panels.get(toUri(file).toString());
    if (!open) return false;
    const command: PlayerCommand = { type: 'play', muted };
    return open.panel.webview.postMessage(command);
  }
}

function playerOptions(file: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(file, '..')] };
}
