// The bundle a page loads once its first screen shows (WebviewPage.laterScript on the host): the host names it on the
// page's own script element, which is only known while that script's top level runs, so it is read on import.
const self = typeof document === 'undefined' ? null : document.currentScript;
const later = self instanceof HTMLScriptElement ? { src: self.dataset.laterSrc, nonce: self.nonce } : undefined;
let loading: Promise<boolean> | undefined;

/**
 * Loads the page's later bundle once; resolves when it has run (false when the page names none or it failed to
 * load). It runs by the page's nonce, like the page's own script: the CSP lets nothing else run.
 */
export function loadLaterScript(): Promise<boolean> {
  loading ??= new Promise<boolean>((resolve) => {
    if (!later?.src) return resolve(false);
    const script = document.createElement('script');
    script.nonce = later.nonce;
    script.src = later.src;
    script.addEventListener('load', () => resolve(true), { once: true });
    script.addEventListener('error', () => resolve(false), { once: true });
    document.body.append(script);
  });
  return loading;
}
