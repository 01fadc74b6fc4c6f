// The last frame of a shot's video, as the gallery takes its poster frames: a muted <video> of the downloaded file,
// sought to its end and drawn on a canvas; the page sends the PNG to the host, which checks and saves it.

const FRAME_TIMEOUT_MS = 30_000;

/** The PNG of the last frame of the video at `src`, base64 (without the `data:` prefix). */
export function lastFrame(src: string): Promise<string> {
  const video = document.createElement('video');
  video.muted = true;
  video.preload = 'auto';
  // The webview serves its resources with CORS headers: without this the canvas would be tainted and unreadable.
  video.crossOrigin = 'anonymous';
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('the video did not load in time')), FRAME_TIMEOUT_MS);
    const finish = (result: Error | string) => {
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      if (typeof result === 'string') resolve(result);
      else reject(result);
    };
    video.addEventListener('error', () => finish(new Error(video.error?.message || `media error ${video.error?.code ?? 0}`)));
    video.addEventListener(
      'loadeddata',
      () => {
        // Just before the end: the frame on screen then is the last one (a seek to the very end may paint none).
        video.currentTime = Math.max(0, video.duration - 0.001);
      },
      { once: true },
    );
    video.addEventListener(
      'seeked',
      () => {
        try {
          const canvas = document.createElement('canvas');
          canvas.width = video.videoWidth;
          canvas.height = video.videoHeight;
          const context = canvas.getContext('2d');
          if (!context || !canvas.width || !canvas.height) throw new Error('the video has no picture');
          context.drawImage(video, 0, 0, canvas.width, canvas.height);
          finish(canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, ''));
        } catch (error) {
          finish(error instanceof Error ? error : new Error(String(error)));
        }
      },
      { once: true },
    );
    video.src = src;
  });
}
