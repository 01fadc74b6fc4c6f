import { byId } from '../../../webviewPage/dom';
import { HostChannel } from '../../../webviewPage/hostChannel';
import { pageLocale, t } from '../../../webviewPage/l10n';
import type { HostToPlayer, PlaybackReport, PlayerState, PlayerToHost } from '../protocol';

// Entry point of the video player page's bundle (dist/webview/player.js): plays the file the host names, and reports
// where playback is.

/** A report of the playing time at most this often (ms). */
const TIME_REPORT_INTERVAL_MS = 500;

const channel = new HostChannel<PlayerToHost, HostToPlayer, Partial<PlayerState>>((saved) =>
  typeof saved === 'object' && saved !== null && typeof (saved as { file?: unknown }).file === 'string' ? { file: (saved as PlayerState).file } : {},
);
const video = byId<HTMLVideoElement>('player');
const status = byId<HTMLElement>('status');
let title = status.textContent ?? '';
let lastTimeReport = 0;

function seconds(value: number): string {
  try {
    return new Intl.NumberFormat(pageLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
  } catch {
    return value.toFixed(1);
  }
}

function report(state: PlaybackReport['state'], error?: unknown): void {
  channel.post({
    type: 'playback',
    state,
    currentTime: video.currentTime || 0,
    duration: Number.isFinite(video.duration) ? video.duration : 0,
    width: video.videoWidth || 0,
    height: video.videoHeight || 0,
    ...(error ? { error: String(error) } : {}),
  });
}

for (const name of ['loadedmetadata', 'canplay', 'playing', 'pause', 'ended'] as const) video.addEventListener(name, () => report(name));
video.addEventListener('loadedmetadata', () => {
  status.textContent = t('{0} — {1}×{2}, {3} s', title, video.videoWidth, video.videoHeight, seconds(video.duration));
});
video.addEventListener('timeupdate', () => {
  const now = Date.now();
  if (now - lastTimeReport < TIME_REPORT_INTERVAL_MS) return;
  lastTimeReport = now;
  report('timeupdate');
});
video.addEventListener('error', () => {
  const code = video.error?.code ?? 0;
  const message = video.error?.message ?? '';
  status.textContent = t('This video cannot be played here ({0}).', message || t('media error {0}', code));
  status.className = 'error';
  report('error', message || `media error ${code}`);
});

channel.onMessage((message) => {
  switch (message.type) {
    case 'load':
      // Saved with the page, so a window reload brings the player back.
      channel.save({ file: message.file });
      title = message.title;
      status.textContent = title;
      video.src = message.src;
      return;
    case 'play':
      video.muted = message.muted;
      video.play().catch((error: unknown) => report('blocked', error instanceof Error ? error.message : error));
      return;
    case 'pause':
      video.pause();
      return;
  }
});
channel.post({ type: 'ready' });
