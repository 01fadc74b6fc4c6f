// Functions the chat part runs inside Chromium (serialized by Playwright: each is self-contained, no imports, no
// outer names). Times are epoch milliseconds (`performance.timeOrigin + frame time`), comparable with the host's
// `Date.now()` on the same machine.

/** What the probe in the chat page records; read back with `frame.evaluate(() => window.__chatOpen)`. */
export interface OpenTimes {
  /** The page's navigation start (its `performance.timeOrigin`). */
  pageStartAt?: number;
  /** The page's script had built the chat's list (seen within 5 ms): the script has run. */
  scriptRanAt?: number;
  /** The host's snapshot arrived (its `message` event was queued). */
  snapshotAt?: number;
  /** The frame that painted the last screen: the list at its bottom, every message in view rendered. */
  lastScreenAt?: number;
  /** The frame after which nothing in the list waited to render (`data-pending`) and every message had its article. */
  allRenderedAt?: number;
  /** Messages in view in the last-screen frame. */
  inView?: number;
}

export interface OpenProbeOptions {
  lastMessageId: string;
  messages: number;
}

/**
 * An init script for every frame: in the chat page (the frame that gets a `#messages`), checks once per animation frame
 * whether the last screen is there (the last message is the one expected, the list is scrolled to its end, and no
 * message in view waits to render: no `data-pending` on it or in it, and it has text), then whether everything is.
 * The check runs in animation-frame callbacks, before the frame's rendering: the time is when the frame that paints
 * it began its callbacks.
 */
export function installOpenProbe(options: OpenProbeOptions): void {
  type Probe = Window & { __chatOpen?: OpenTimes };
  const probe = window as Probe;
  // Not the workbench, nor the webview's host page (index.html) around the page's own frame.
  if (window.top === window || location.pathname.endsWith('/index.html')) return;
  const times: OpenTimes = { pageStartAt: performance.timeOrigin };
  const onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    // The event's time stamp is when it was queued: whichever listener runs first (the page's renders the snapshot).
    if (times.snapshotAt === undefined && typeof data === 'object' && data !== null && data.type === 'snapshot')
      times.snapshotAt = performance.timeOrigin + event.timeStamp;
  };
  const unrendered = (element: Element) => element.hasAttribute('data-pending') || element.querySelector('[data-pending]') !== null;
  const lastScreen = (list: HTMLElement): number | undefined => {
    const articles = list.querySelectorAll<HTMLElement>(':scope > article.message');
    const last = articles[articles.length - 1];
    if (!last || last.dataset.messageId !== options.lastMessageId) return undefined;
    if (list.scrollHeight - list.scrollTop - list.clientHeight > 2) return undefined;
    const view = list.getBoundingClientRect();
    let inView = 0;
    for (let index = articles.length - 1; index >= 0; index--) {
      const box = articles[index].getBoundingClientRect();
      if (box.bottom <= view.top) break;
      if (box.top >= view.bottom) continue;
      if (unrendered(articles[index]) || !articles[index].textContent?.trim()) return undefined;
      inView++;
    }
    return inView > 0 ? inView : undefined;
  };
  const watch = (list: HTMLElement) => {
    probe.__chatOpen = times;
    const deadline = performance.now() + 60_000;
    // The callback's own time, not the frame's: a frame that began before a long task has a stale timestamp.
    const check = () => {
      const now = performance.now();
      if (times.lastScreenAt === undefined) {
        const inView = lastScreen(list);
        if (inView !== undefined) {
          times.lastScreenAt = performance.timeOrigin + now;
          times.inView = inView;
        }
      }
      if (
        times.lastScreenAt !== undefined &&
        list.querySelectorAll(':scope > article.message').length >= options.messages &&
        list.querySelector('[data-pending]') === null
      ) {
        times.allRenderedAt = performance.timeOrigin + now;
        return;
      }
      if (now < deadline) requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  };
  // VS Code writes the page into its frame with document.open(), which drops the listeners added before: a timer
  // (kept by the window) waits for the chat's list, which the page builds before it says `ready` to the host.
  const started = Date.now();
  const poll = setInterval(() => {
    const list = document.getElementById('messages');
    if (list) {
      clearInterval(poll);
      times.scriptRanAt = Date.now();
      window.addEventListener('message', onMessage);
      watch(list);
    } else if (Date.now() - started > 60_000) clearInterval(poll);
  }, 5);
}

/** When the workbench showed the panel; read back with `window.__panelShown`. */
export interface PanelTimes {
  /** A new webview element (`iframe.webview`) was added. */
  addedAt?: number;
  /** The frame in which it was first laid out and visible: the panel's area is on screen (blank until the page paints). */
  visibleAt?: number;
}

/** In the workbench page, before the panel is opened: watches for the new webview element, once per frame. */
export function watchPanelShown(): void {
  type Probe = Window & { __panelShown?: PanelTimes };
  const times: PanelTimes = {};
  (window as Probe).__panelShown = times;
  const before = new Set(Array.from(document.querySelectorAll('iframe.webview')));
  const deadline = performance.now() + 60_000;
  const check = () => {
    const time = performance.now();
    for (const element of Array.from(document.querySelectorAll<HTMLIFrameElement>('iframe.webview'))) {
      if (before.has(element)) continue;
      times.addedAt ??= performance.timeOrigin + time;
      const box = element.getBoundingClientRect();
      if (box.width > 0 && box.height > 0 && getComputedStyle(element).visibility !== 'hidden') {
        times.visibleAt = performance.timeOrigin + time;
        return;
      }
    }
    if (time < deadline) requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
}

/** Resolves once the page has had no task over 50 ms for `quietMs` (or after `timeoutMs`): the window has started up. */
export function waitForQuiet({ quietMs, timeoutMs }: { quietMs: number; timeoutMs: number }): Promise<boolean> {
  return new Promise((resolve) => {
    let lastBusy = performance.now();
    const started = lastBusy;
    const observer = PerformanceObserver.supportedEntryTypes.includes('longtask') ? new PerformanceObserver(() => (lastBusy = performance.now())) : undefined;
    observer?.observe({ type: 'longtask' });
    const check = () => {
      const now = performance.now();
      if (now - lastBusy >= quietMs || now - started >= timeoutMs) {
        observer?.disconnect();
        resolve(now - lastBusy >= quietMs);
      } else setTimeout(check, 100);
    };
    check();
  });
}

export interface ScrollOptions {
  /** Pixels per animation frame (a fast fling). */
  step: number;
  firstMessageId: string;
  timeoutMs: number;
}

export interface ScrollResult {
  /** Time between consecutive animation frames while scrolling, ms. */
  frameGaps: number[];
  /** The first message was reached, rendered, with the list at its top. */
  reachedTop: boolean;
  durationMs: number;
  /** How far the list scrolled in all (its height above the last screen grows while older messages render). */
  scrolledPx: number;
  longTasks: number[];
}

/**
 * In the chat page: scrolls the message list up by `step` pixels every animation frame until its first message is on
 * screen and rendered, recording the time between frames (what the user sees as smooth or not) and Long Tasks.
 */
export function scrollToTop(options: ScrollOptions): Promise<ScrollResult> {
  return new Promise((resolve, reject) => {
    const list = document.getElementById('messages');
    if (!list) return reject(new Error('no #messages in the chat page'));
    const longTasks: number[] = [];
    const observer = PerformanceObserver.supportedEntryTypes.includes('longtask')
      ? new PerformanceObserver((entries) => entries.getEntries().forEach((entry) => longTasks.push(entry.duration)))
      : undefined;
    observer?.observe({ type: 'longtask' });
    const frameGaps: number[] = [];
    let last: number | undefined;
    let started: number | undefined;
    let scrolledPx = 0;
    let settled = 0;
    const tick = (time: number) => {
      started ??= time;
      if (last !== undefined) frameGaps.push(time - last);
      last = time;
      const first = list.querySelector<HTMLElement>(':scope > article.message');
      const atTop =
        list.scrollTop === 0 &&
        first?.dataset.messageId === options.firstMessageId &&
        !first.hasAttribute('data-pending') &&
        first.querySelector('[data-pending]') === null;
      settled = atTop ? settled + 1 : 0;
      if (settled >= 3 || time - started > options.timeoutMs) {
        observer?.disconnect();
        resolve({ frameGaps, reachedTop: settled >= 3, durationMs: time - started, scrolledPx, longTasks });
        return;
      }
      const before = list.scrollTop;
      list.scrollTop = Math.max(0, before - options.step);
      scrolledPx += before - list.scrollTop;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export interface PlainScrollOptions {
  step: number;
  frames: number;
}

/**
 * In the chat page: the same scroll over a plain block instead of the chat (a scroller of the list's size laid over
 * it, as tall as it, painted with stripes), for as many frames: what this machine allows at this moment, the limit
 * the chat's figures are read against.
 */
export function scrollPlainBlock(options: PlainScrollOptions): Promise<{ frameGaps: number[] }> {
  return new Promise((resolve, reject) => {
    const list = document.getElementById('messages');
    if (!list) return reject(new Error('no #messages in the chat page'));
    const box = list.getBoundingClientRect();
    const scroller = document.createElement('div');
    Object.assign(scroller.style, {
      position: 'fixed',
      left: `${box.left}px`,
      top: `${box.top}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
      overflowY: 'auto',
      zIndex: '1000',
      background: 'canvas',
    });
    const block = document.createElement('div');
    Object.assign(block.style, {
      height: `${list.scrollHeight}px`,
      background: 'repeating-linear-gradient(0deg, transparent 0 18px, rgba(128, 128, 128, 0.3) 18px 19px)',
    });
    scroller.append(block);
    document.body.append(scroller);
    scroller.scrollTop = scroller.scrollHeight;
    const frameGaps: number[] = [];
    let last: number | undefined;
    const tick = (time: number) => {
      if (last !== undefined) frameGaps.push(time - last);
      last = time;
      if (frameGaps.length >= options.frames) {
        scroller.remove();
        resolve({ frameGaps });
        return;
      }
      scroller.scrollTop = Math.max(0, scroller.scrollTop - options.step);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}
