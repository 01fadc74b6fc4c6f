import * as vscode from 'vscode';
import type { ComponentLogger } from '../../common/logger';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { WebviewHost } from '../../workbench/webview/webviewHost';
import { fileNameOf } from '../downloadedFile';
import { playerToHostSchema, type HostToPlayer, type PlaybackReport, type PlayerToHost } from './protocol';

/**
 * One player page on the host side: a `<video>` of one file through `asWebviewUri` (the page may load the file's
 * folder besides the extension's own files). The page reports playback back, so a file the webview cannot play is
 * said plainly instead of showing a black box.
 */
export class PlayerHost extends WebviewHost<PlayerToHost, HostToPlayer> {
  private readonly title: string;
  private last: PlaybackReport | undefined;

  constructor(
    webview: vscode.Webview,
    private readonly file: vscode.Uri,
    extensionUri: vscode.Uri,
    private readonly log: ComponentLogger,
  ) {
    const title = fileNameOf(file);
    super(
      webview,
      { name: 'video player', extensionUri, log, schema: playerToHostSchema, resourceRoots: [vscode.Uri.joinPath(file, '..')] },
      {
        title,
        script: 'player.js',
        style: 'player.css',
        allow: { media: true },
        body: `<main><video id="player" controls playsinline preload="auto" aria-label="${escapeHtml(title)}"></video>
<div id="status" role="status" aria-live="polite">${escapeHtml(title)}</div></main>`,
      },
    );
    this.title = title;
  }

  /** The page's last playback report. */
  get lastReport(): PlaybackReport | undefined {
    return this.last;
  }

  /** Starts playback (muted: browsers only autoplay muted media without a click); false when the page did not get it. */
  play(muted = true): Promise<boolean> {
    return this.post({ type: 'play', muted });
  }

  protected async onReady(): Promise<void> {
    await this.post({ type: 'load', src: this.webview.asWebviewUri(this.file).toString(), title: this.title, file: this.file.toString() });
  }

  protected onMessage(report: PlaybackReport): void {
    this.last = report;
    if (report.state === 'error' || report.state === 'blocked') this.log.warn(`Player of ${this.title}: ${report.state} (${report.error ?? 'no details'}).`);
    else if (report.state !== 'timeupdate') this.log.debug(`Player of ${this.title}: ${report.state} at ${report.currentTime.toFixed(2)} s.`);
  }
}
