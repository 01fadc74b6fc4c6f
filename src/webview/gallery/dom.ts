/** Creates an element; `text` becomes textContent (never parsed as HTML: prompts and errors are other people's text). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string; attrs?: Record<string, string> } = {},
  children: (Node | undefined)[] = [],
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (options.className) element.className = options.className;
  if (options.text !== undefined) element.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

/** A muted video that shows its first frame as a poster (a seek just past 0 makes the browser paint one). */
export function posterVideo(src: string, label: string, onPoster: (video: HTMLVideoElement, error?: string) => void): HTMLVideoElement {
  const video = el('video', { attrs: { src, preload: 'metadata', playsinline: '', 'aria-label': label, tabindex: '0' } });
  video.muted = true;
  video.loop = true;
  let reported = false;
  const report = (error?: string) => {
    if (reported) return;
    reported = true;
    if (!error) video.dataset.poster = 'ready';
    onPoster(video, error);
  };
  video.addEventListener('loadedmetadata', () => {
    video.currentTime = Math.min(0.05, (video.duration || 0) / 2);
  });
  video.addEventListener('seeked', () => report(), { once: true });
  video.addEventListener('error', () => report(video.error?.message || `media error ${video.error?.code ?? 0}`));
  return video;
}
