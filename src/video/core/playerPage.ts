import * as z from 'zod/mini';
import { t } from '../../api/l10n';
import { escapeHtml, webviewPage } from '../../common/webviewPage';

// The video player webview: its page, and the messages both sides exchange.

/** Webview → host: where playback is (the host logs it; tests wait for it). */
export const playerMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({
    type: z.literal('playback'),
    state: z.enum(['loadedmetadata', 'canplay', 'playing', 'pause', 'ended', 'timeupdate', 'error', 'blocked']),
    currentTime: z.number(),
    duration: z.number(),
    width: z.int(),
    height: z.int(),
    error: z.optional(z.string()),
  }),
]);
export type PlayerMessage = z.infer<typeof playerMessageSchema>;
export type PlaybackReport = Extract<PlayerMessage, { type: 'playback' }>;

/** Host → webview. */
export type PlayerCommand = { type: 'play'; muted: boolean } | { type: 'pause' };

/**
 * The page's texts, translated here: its script is inline (not bundled), so it reads them by these ids from the
 * status element's `data-l10n` (JSON in an attribute, never run), `{0}`… still to fill.
 */
function playerTexts(): Record<string, string> {
  return {
    details: t('{0} — {1}×{2}, {3} s'),
    cannotPlay: t('This video cannot be played here ({0}).'),
    mediaError: t('media error {0}'),
  };
}

/** `default-src 'none'`: the video from the webview's resource origin only, our style and script by nonce. */
export function playerHtml(options: { videoSrc: string; cspSource: string; title: string; nonce: string; file: string; language?: string }): string {
  const { videoSrc, cspSource, title, nonce } = options;
  // Saved with the page so a window reload can bring the player back; `<` escaped so the path cannot end the script.
  const saved = JSON.stringify({ file: options.file }).replace(/</g, '\\u003c');
  return webviewPage({
    title,
    cspSource,
    nonce,
    allow: { media: true },
    style: { inline: PLAYER_STYLE },
    body: `<video id="player" src="${escapeHtml(videoSrc)}" controls playsinline preload="auto" aria-label="${escapeHtml(title)}"></video>
<div id="status" role="status" aria-live="polite" data-l10n="${escapeHtml(JSON.stringify(playerTexts()))}">${escapeHtml(title)}</div>`,
    script: { inline: playerScript(saved) },
    l10n: { language: options.language ?? 'en', strings: {} },
  });
}

const PLAYER_STYLE = `
  html, body { height: 100%; margin: 0; }
  body { display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 8px;
    background: var(--vscode-editor-background); color: var(--vscode-descriptionForeground);
    font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  video { max-width: calc(100% - 32px); max-height: calc(100% - 64px); background: #000; outline: none; }
  #status { min-height: 1.4em; }
  #status.error { color: var(--vscode-errorForeground); }
`;

function playerScript(saved: string): string {
  return `
(function () {
  const vscode = acquireVsCodeApi();
  vscode.setState(${saved});
  const video = document.getElementById('player');
  const status = document.getElementById('status');
  let text = {};
  try {
    text = JSON.parse(status.dataset.l10n);
  } catch {}
  function format(id, ...args) {
    return String(text[id] || '').replace(/\\{(\\d+)\\}/g, (placeholder, index) => (index < args.length ? String(args[index]) : placeholder));
  }
  function seconds(value) {
    try {
      return new Intl.NumberFormat(document.documentElement.lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
    } catch {
      return value.toFixed(1);
    }
  }
  let lastTimeReport = 0;
  function report(state, error) {
    const message = {
      type: 'playback', state,
      currentTime: video.currentTime || 0,
      duration: Number.isFinite(video.duration) ? video.duration : 0,
      width: video.videoWidth || 0, height: video.videoHeight || 0,
    };
    if (error) message.error = String(error);
    vscode.postMessage(message);
  }
  for (const name of ['loadedmetadata', 'canplay', 'playing', 'pause', 'ended']) {
    video.addEventListener(name, () => report(name));
  }
  video.addEventListener('loadedmetadata', () => {
    status.textContent = format('details', status.textContent, video.videoWidth, video.videoHeight, seconds(video.duration));
  });
  video.addEventListener('timeupdate', () => {
    const now = Date.now();
    if (now - lastTimeReport < 500) return;
    lastTimeReport = now;
    report('timeupdate');
  });
  video.addEventListener('error', () => {
    const code = video.error ? video.error.code : 0;
    const message = video.error && video.error.message ? video.error.message : '';
    status.textContent = format('cannotPlay', message || format('mediaError', code));
    status.className = 'error';
    report('error', message || 'media error ' + code);
  });
  window.addEventListener('message', (event) => {
    const command = event.data;
    if (!command || typeof command.type !== 'string') return;
    if (command.type === 'play') {
      video.muted = command.muted === true;
      video.play().catch((error) => report('blocked', error && error.message ? error.message : error));
    } else if (command.type === 'pause') {
      video.pause();
    }
  });
  vscode.postMessage({ type: 'ready' });
})();
`;
}
