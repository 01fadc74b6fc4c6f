import { byId } from '../../../webviewPage/dom';
import { HostChannel } from '../../../webviewPage/hostChannel';
import { pageLocale, t } from '../../../webviewPage/l10n';
import type { HostToPlayer, PlaybackReport, PlayerCaptions, PlayerShot, PlayerState, PlayerToHost } from '../protocol';

// Entry point of the video player page's bundle (dist/webview/player.js): plays the file the host names (a film with
// its captions, or a film's shots one after the other, each with its caption), and reports where playback is.

/** A report of the playing time at most this often (ms). */
const TIME_REPORT_INTERVAL_MS = 500;

/** A caption cue of a playlist's shot lasts until the shot ends, whatever its length. */
const WHOLE_SHOT_SECONDS = 24 * 60 * 60;

const channel = new HostChannel<PlayerToHost, HostToPlayer, Partial<PlayerState>>((saved) => {
  if (typeof saved !== 'object' || saved === null || typeof (saved as { file?: unknown }).file !== 'string') return {};
  return { file: (saved as PlayerState).file, ...((saved as PlayerState).film === true ? { film: true } : {}) };
});
const video = byId<HTMLVideoElement>('player');
const status = byId<HTMLElement>('status');
let title = status.textContent ?? '';
let lastTimeReport = 0;
/** A film played as its shots: the shots, and the one playing. */
let playlist: { shots: PlayerShot[]; index: number; track: TextTrack } | undefined;

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
    ...(playlist ? { shot: playlist.index } : {}),
    ...captionShown(),
  });
}

/** The text of the captions on screen: the active cues of the track shown. */
function captionShown(): { caption?: string } {
  const shown = Array.from(video.textTracks).find((track) => track.mode === 'showing');
  if (!shown) return {};
  const cues = shown.activeCues ? Array.from(shown.activeCues) : [];
  return { caption: cues.map((cue) => (cue instanceof VTTCue ? cue.text : '')).join('\n') };
}

/** A film's `.vtt` as the video's captions track, shown by default. */
function addCaptions(captions: PlayerCaptions): void {
  const track = document.createElement('track');
  track.kind = 'captions';
  track.label = captions.label;
  track.default = true;
  track.src = captions.src;
  track.addEventListener('error', () => report('captions-error', t('The captions could not be loaded.')));
  video.append(track);
  track.track.mode = 'showing';
  track.track.addEventListener('cuechange', () => report('cuechange'));
}

function playShot(index: number, autoplay: boolean): void {
  if (!playlist) return;
  const shot = playlist.shots[index];
  playlist.index = index;
  for (const cue of Array.from(playlist.track.cues ?? [])) playlist.track.removeCue(cue);
  if (shot.caption.trim()) playlist.track.addCue(new VTTCue(0, WHOLE_SHOT_SECONDS, shot.caption));
  status.textContent = t('{0} — shot {1} of {2}', title, index + 1, playlist.shots.length);
  video.src = shot.src;
  if (autoplay) video.play().catch((error: unknown) => report('blocked', error instanceof Error ? error.message : error));
}

for (const name of ['loadedmetadata', 'canplay', 'playing', 'pause', 'ended'] as const) video.addEventListener(name, () => report(name));
video.addEventListener('loadedmetadata', () => {
  if (playlist) return;
  status.textContent = t('{0} — {1}×{2}, {3} s', title, video.videoWidth, video.videoHeight, seconds(video.duration));
});
// A film of shots plays on: the next shot starts where one ends.
video.addEventListener('ended', () => {
  if (playlist && playlist.index + 1 < playlist.shots.length) playShot(playlist.index + 1, true);
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
      channel.save({ file: message.file, ...(message.film ? { film: true } : {}) });
      title = message.title;
      status.textContent = title;
      // The captions file comes from the resources' origin: the track loads only in CORS mode.
      if (message.captions) video.crossOrigin = 'anonymous';
      video.src = message.src;
      if (message.captions) addCaptions(message.captions);
      return;
    case 'playlist': {
      channel.save({ file: message.file, film: true });
      title = message.title;
      const track = video.addTextTrack('captions', message.captionsLabel);
      track.mode = 'showing';
      track.addEventListener('cuechange', () => report('cuechange'));
      playlist = { shots: message.shots, index: 0, track };
      playShot(0, false);
      return;
    }
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
