import * as path from 'node:path';
import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import * as z from 'zod/mini';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { ComponentLogger } from '../common/logger';
import { newNonce } from '../common/webviewPage';
import { isFile } from '../workbench/fileExists';
import { playerHtml, playerMessageSchema, type PlaybackReport, type PlayerCommand } from './core/playerPage';

export const PLAYER_VIEW_TYPE = 'promptreel.videoPlayer';

/** What the player page saves (`setState`) for a window reload to bring it back. */
const savedStateSchema = z.object({ file: z.string().check(z.minLength(1)) });

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
  private readonly reported = this._register(new Emitter<{ file: string; report: PlaybackReport }>());
  readonly onDidReportPlayback = this.reported.event;

  constructor(private readonly log: ComponentLogger) {
    super();
    this._register(toDisposable(() => [...this.panels.values()].forEach((open) => open.panel.dispose())));
  }

  open(file: string): vscode.WebviewPanel {
    const existing = this.panels.get(file);
    if (existing) {
      existing.panel.reveal();
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(PLAYER_VIEW_TYPE, path.basename(file), vscode.ViewColumn.Active, playerOptions(file));
    this.attach(panel, file);
    return panel;
  }

  /** A player panel VS Code brings back after a window reload: it plays its file again, or closes if the file is gone. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
    const saved = savedStateSchema.safeParse(state);
    const file = saved.success ? saved.data.file : undefined;
    const exists = file ? await isFile(file) : false;
    if (!file || !exists || this.panels.has(file)) {
      this.log.info(file && !exists ? `The video player of ${path.basename(file)} was not restored: the file is gone.` : 'A video player was not restored.');
      panel.dispose();
      return;
    }
    panel.webview.options = playerOptions(file);
    this.attach(panel, file);
  }

  private attach(panel: vscode.WebviewPanel, file: string): void {
    const title = path.basename(file);
    panel.title = title;
    const open: OpenPlayer = { panel };
    this.panels.set(file, open);
    const webview = panel.webview;
    webview.html = playerHtml({
      videoSrc: webview.asWebviewUri(vscode.Uri.file(file)).toString(),
      cspSource: webview.cspSource,
      title,
      nonce: newNonce(),
      file,
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
  lastReport(file: string): PlaybackReport | undefined {
    return this.panels.get(file)?.last;
  }

  isOpen(file: string): boolean {
    return this.panels.has(file);
  }

  /** Starts playback (muted: browsers only autoplay muted media without a click). */
  async play(file: string, muted = true): Promise<boolean> {
    const open = this.panels.get(file);
    if (!open) return false;
    const command: PlayerCommand = { type: 'play', muted };
    return open.panel.webview.postMessage(command);
  }
}

function playerOptions(file: string): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, localResourceRoots: [vscode.Uri.file(path.dirname(file))] };
}
