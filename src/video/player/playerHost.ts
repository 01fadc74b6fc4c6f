import * as vscode from 'vscode';
import { t } from '../../api/l10n';
import type { ComponentLogger } from '../../common/logger';
import { escapeHtml } from '../../workbench/webview/core/webviewHtml';
import { WebviewHost } from '../../workbench/webview/webviewHost';
import { fileNameOf } from '../downloadedFile';
import type { FilmMedia } from './filmMedia';
import { playerToHostSchema, type HostToPlayer, type PlaybackReport, type PlayerToHost } from './protocol';

/** What a player shows: one video file, or a made film (joined, or its shots in order). */
export type PlayerSource = { kind: 'video'; file: vscode.Uri } | FilmMedia;

/** The URI a player is known by (and its page saves): the video's file, or the film's storyboard. */
export function sourceUri(source: PlayerSource): vscode.Uri {
  return source.kind === 'video' ? source.file : source.storyboard;
}

export function sourceTitle(source: PlayerSource): string {
  return source.kind === 'video' ? fileNameOf(source.file) : source.title;
}

/**
 * One player page on the host side: a `<video>` of one file through `asWebviewUri` (the page may load the file's
 * folder besides the extension's own files), or of a film with its captions. The page reports playback back, so a
 * file the webview cannot play is said plainly instead of showing a black box.
 */
export class PlayerHost extends WebviewHost<PlayerToHost, HostToPlayer> {
  private readonly title: string;
  private last: PlaybackReport | undefined;

  constructor(
    webview: vscode.Webview,
    private readonly source: PlayerSource,
    extensionUri: vscode.Uri,
    private readonly log: ComponentLogger,
  ) {
    const title = sourceTitle(source);
    super(
      webview,
      {
        name: 'video player',
        extensionUri,
        log,
        schema: playerToHostSchema,
        resourceRoots: [vscode.Uri.joinPath(sourceUri(source), '..')],
      },
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
    await this.post(this.loadMessage());
  }

  private loadMessage(): HostToPlayer {
    const source = this.source;
    const src = (file: vscode.Uri) => this.webview.asWebviewUri(file).toString();
    const file = sourceUri(source).toString();
    switch (source.kind) {
      case 'video':
        return { type: 'load', src: src(source.file), title: this.title, file };
      case 'joined':
        return {
          type: 'load',
          src: src(source.video),
          title: this.title,
          file,
          film: true,
          ...(source.captions ? { captions: { src: src(source.captions), label: t('Captions') } } : {}),
        };
      case 'playlist':
        return {
          type: 'playlist',
          title: this.title,
          file,
          shots: source.shots.map((shot) => ({ src: src(shot.file), caption: shot.caption })),
          captionsLabel: t('Captions'),
        };
    }
  }

  protected onMessage(report: PlaybackReport): void {
    this.last = report;
    if (report.state === 'error' || report.state === 'blocked' || report.state === 'captions-error')
      this.log.warn(`Player of ${this.title}: ${report.state} (${report.error ?? 'no details'}).`);
    else if (report.state !== 'timeupdate') this.log.debug(`Player of ${this.title}: ${report.state} at ${report.currentTime.toFixed(2)} s.`);
  }
}
