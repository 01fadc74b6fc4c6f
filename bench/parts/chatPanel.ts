import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';
import { requireHost, runHostSession, type HostSessionDriverContext } from '../host/hostSession';
import type { ResultRow } from '../report/row';
import { buildScript, pageEntry } from '../support/buildScript';
import { OUT, SCREENSHOTS } from '../support/paths';
import type { BenchContext, BenchPart } from './part';

const PART = '6 chat panel';
const MESSAGES = 500;
const CHUNKS = 5_000;
const ENTRY = path.join(OUT, 'bench', 'host', 'chatPanelEntry');
const PHASE = 'PROMPTREEL_BENCH_PHASE';
/** The chat page's bundle in dist/webview/; where it is built from is esbuild.js's to say. */
const CHAT_BUNDLE = 'chat.js';

const hostResultSchema = z.object({ streamMs: z.number(), replyStatus: z.string(), replyCharacters: z.number() });
const frameStatsSchema = z.object({ longTasks: z.array(z.number()), frameGaps: z.array(z.number()), supported: z.boolean() });
type FrameStats = z.infer<typeof frameStatsSchema>;

interface Driven {
  renderMs: number;
  /** From panels.show() until every message's text is rendered (older ones may render after the last is in the DOM). */
  renderedAllMs: number;
  /** From panels.show() until the webview's page began to load, and until its script (dist/webview/chat.js) had loaded. */
  pageStartMs?: number;
  scriptLoadedMs?: number;
  /** From panels.show() until the host posted the snapshot, and the snapshot's size (JSON characters). */
  snapshotMs?: number;
  snapshotChars?: number;
  /** From the host's send() to the finished reply on screen. */
  streamShownMs: number;
  webview: FrameStats;
  workbench: FrameStats;
}

/**
 * Part 6: in a fresh real VS Code (code-server + Chromium), the packaged extension opens a chat panel on a
 * 500-message conversation (time from `show` to 500 messages in the webview's DOM), then streams a 5,000-chunk reply
 * into it while Long Tasks and animation frames are recorded in the webview and in the workbench page.
 */
export const chatPanelPart: BenchPart = {
  id: 'chat',
  title: 'Chat panel rendering in real Chromium',
  async run(context: BenchContext): Promise<ResultRow[]> {
    const figures = [
      `render a ${MESSAGES}-message conversation`,
      `streaming ${CHUNKS.toLocaleString('en-US')} chunks: longest task in the webview`,
      `streaming ${CHUNKS.toLocaleString('en-US')} chunks: frames over 50 ms`,
    ];
    const goals = ['—', '—', '0'];
    const pageSource = pageEntry(buildScript().PAGES, CHAT_BUNDLE);
    requireHost();
    const service = await context.service();
    await service.reset();
    await service.setScenario({ chat: { bulk: { chunks: CHUNKS, chunkChars: 8 } } });
    const staged = await context.stagedPackage();
    if (!fs.existsSync(path.join(staged.dir, 'dist', 'webview', CHAT_BUNDLE)))
      throw new Error(`the package has no dist/webview/${CHAT_BUNDLE} (built from ${pageSource})`);
    const session = await runHostSession<Driven>(staged.dir, ENTRY, {
      env: { PROMPTREEL_BENCH_BASE_URL: service.baseUrl, PROMPTREEL_BENCH_KEY: service.key, PROMPTREEL_BENCH_MESSAGES: String(MESSAGES) },
      drive: measure,
    }).finally(() => service.reset());
    const host = hostResultSchema.parse(session.result);
    const driven = session.driven;
    if (!driven) throw new Error('the webview was not measured');
    if (host.replyStatus !== 'done') throw new Error(`the streamed reply ended ${host.replyStatus}`);
    context.details['chat panel'] = { host, ...driven };
    const longest = Math.max(0, ...driven.webview.longTasks);
    const slowFrames = driven.webview.frameGaps.filter((gap) => gap > 50);
    const workbenchLongest = Math.max(0, ...driven.workbench.longTasks);
    return [
      {
        part: PART,
        figure: figures[0],
        unit: 'ms',
        ours: driven.renderMs,
        goal: goals[0],
        note:
          'from panels.show() in the host to the last message in the webview DOM (one VS Code session, the panel opened while the window starts up)' +
          (driven.pageStartMs !== undefined ? `; VS Code started the webview's page at ${driven.pageStartMs} ms` : '') +
          (driven.scriptLoadedMs !== undefined ? `, its script was loaded at ${driven.scriptLoadedMs} ms` : '') +
          (driven.snapshotMs !== undefined
            ? `, the webview said ready and the host posted the snapshot (${((driven.snapshotChars ?? 0) / 1024).toFixed(0)} KB of JSON) at ${driven.snapshotMs} ms`
            : '') +
          `; every message's text rendered at ${driven.renderedAllMs} ms`,
      },
      {
        part: PART,
        figure: figures[1],
        unit: 'ms',
        ours: longest,
        goal: goals[1],
        note: `${driven.webview.longTasks.length} tasks over 50 ms in the webview${driven.webview.supported ? '' : ' (Long Tasks API unavailable)'}; workbench page longest ${workbenchLongest.toFixed(0)} ms (webview and workbench may share a renderer); reply of ${host.replyCharacters} characters: ${host.streamMs} ms in the host, ${driven.streamShownMs} ms until shown done`,
      },
      {
        part: PART,
        figure: figures[2],
        unit: 'frames',
        ours: slowFrames.length,
        goal: goals[2],
        met: slowFrames.length === 0,
        note: `of ${driven.webview.frameGaps.length} animation frames in the webview; longest ${Math.max(0, ...driven.webview.frameGaps).toFixed(0)} ms`,
      },
    ];
  },
};

async function measure({ page, waitForLine, signalFile }: HostSessionDriverContext): Promise<Driven> {
  const opened = Number((await waitForLine(new RegExp(`${PHASE} render (\\d+)`)))[1]);
  const frame = await chatFrame(page);
  const renderedAt = await frame.evaluate(
    (count: number) =>
      new Promise<number>((resolve) => {
        const check = () => (document.querySelectorAll('article.message').length >= count ? resolve(Date.now()) : requestAnimationFrame(check));
        check();
      }),
    MESSAGES,
  );
  // Messages far up may render in the frames after the bottom ones: until no text waits (`data-pending`).
  const renderedAllAt = await frame.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const check = () => (document.querySelector('#messages [data-pending]') === null ? resolve(Date.now()) : requestAnimationFrame(check));
        check();
      }),
  );
  const page0 = await frame.evaluate((bundle: string) => {
    const script = performance.getEntriesByType('resource').find((entry) => entry.name.includes(bundle)) as PerformanceResourceTiming | undefined;
    return { origin: performance.timeOrigin, scriptEnd: script?.responseEnd };
  }, CHAT_BUNDLE);
  const snapshot = await waitForLine(new RegExp(`${PHASE} snapshot (\\d+) (\\d+)`), 5000).catch(() => undefined);
  // PROMPTREEL_BENCH_PROFILE_DIR=dir: a CPU profile and a timeline trace of the webview's renderer while the reply streams.
  const profileDir = process.env.PROMPTREEL_BENCH_PROFILE_DIR;
  const profiler = profileDir ? await startProfile(page, frame) : undefined;
  await Promise.all([arm(frame), arm(page.mainFrame())]);
  fs.writeFileSync(`${signalFile}.armed`, '');
  const streamStarted = Number((await waitForLine(new RegExp(`${PHASE} stream (\\d+)`)))[1]);
  await waitForLine(new RegExp(`${PHASE} streamed`));
  // The host is done sending; the webview may still be rendering what it was sent: wait for the reply to show done.
  const shownAt = await frame.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const check = () => {
          const replies = document.querySelectorAll('article.message.assistant');
          const last = replies[replies.length - 1];
          if (last && last.getAttribute('data-status') !== 'streaming') requestAnimationFrame(() => requestAnimationFrame(() => resolve(Date.now())));
          else requestAnimationFrame(check);
        };
        check();
      }),
  );
  const [webview, workbench] = await Promise.all([collect(frame), collect(page.mainFrame())]);
  if (profiler && profileDir) await profiler(path.resolve(profileDir, 'chat-webview-stream'));
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'bench-chat-panel.png') }).catch(() => undefined);
  fs.writeFileSync(`${signalFile}.measured`, '');
  return {
    renderMs: renderedAt - opened,
    renderedAllMs: renderedAllAt - opened,
    pageStartMs: Math.round(page0.origin - opened),
    ...(page0.scriptEnd !== undefined ? { scriptLoadedMs: Math.round(page0.origin + page0.scriptEnd - opened) } : {}),
    ...(snapshot ? { snapshotMs: Number(snapshot[1]) - opened, snapshotChars: Number(snapshot[2]) } : {}),
    streamShownMs: shownAt - streamStarted,
    webview,
    workbench,
  };
}

/**
 * Starts the CPU profiler and a timeline trace in the frame's process (the page's, when the webview shares its
 * renderer); the function returned stops both and writes `<base>.cpuprofile` and `<base>.trace.json`.
 */
async function startProfile(page: Page, frame: Frame): Promise<(base: string) => Promise<void>> {
  const session = await page
    .context()
    .newCDPSession(frame)
    .catch(() => page.context().newCDPSession(page));
  const events: unknown[] = [];
  session.on('Tracing.dataCollected', (data) => events.push(...data.value));
  await session.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await session.send('Profiler.enable');
  await session.send('Profiler.setSamplingInterval', { interval: 200 });
  await session.send('Profiler.start');
  return async (base) => {
    const { profile } = await session.send('Profiler.stop');
    const traced = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()));
    await session.send('Tracing.end');
    await traced;
    fs.mkdirSync(path.dirname(base), { recursive: true });
    fs.writeFileSync(`${base}.cpuprofile`, JSON.stringify(profile));
    fs.writeFileSync(`${base}.trace.json`, JSON.stringify(events));
    await session.detach();
  };
}

/** The content frame of the newest webview (VS Code nests it: iframe.webview → #active-frame). */
export async function chatFrame(page: Page): Promise<Frame> {
  const outer = await page.locator('iframe.webview.ready').last().elementHandle({ timeout: 60_000 });
  const outerFrame = await outer?.contentFrame();
  if (!outerFrame) throw new Error('no webview frame');
  const inner = await outerFrame.waitForSelector('#active-frame', { timeout: 60_000 });
  const frame = await inner.contentFrame();
  if (!frame) throw new Error('no active frame in the webview');
  return frame;
}

interface BenchWindow {
  __bench?: { longTasks: number[]; frameGaps: number[]; stop: boolean; supported: boolean };
}

/** Starts recording Long Tasks (> 50 ms) and the time between animation frames. */
export function arm(frame: Frame): Promise<void> {
  return frame.evaluate(() => {
    const state = {
      longTasks: [] as number[],
      frameGaps: [] as number[],
      stop: false,
      supported: PerformanceObserver.supportedEntryTypes.includes('longtask'),
    };
    (window as BenchWindow).__bench = state;
    if (state.supported)
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => state.longTasks.push(entry.duration))).observe({ type: 'longtask' });
    let last = performance.now();
    const loop = (time: number) => {
      state.frameGaps.push(time - last);
      last = time;
      if (!state.stop) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

export async function collect(frame: Frame): Promise<FrameStats> {
  const raw: unknown = await frame.evaluate(() => {
    const state = (window as BenchWindow).__bench;
    if (state) state.stop = true;
    return state;
  });
  return frameStatsSchema.parse(raw);
}
