import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { z } from 'zod';
import { hostUnavailable, runHostSession, type HostSessionDriverContext } from '../host/hostSession';
import type { ResultRow } from '../report/row';
import { OUT, ROOT, SCREENSHOTS } from '../support/paths';
import { notMeasurable, type BenchContext, type BenchPart } from './part';

const PART = '6 chat panel';
const MESSAGES = 500;
const CHUNKS = 5_000;
const ENTRY = path.join(OUT, 'bench', 'host', 'chatPanelEntry');
const PHASE = 'PROMPTREEL_BENCH_PHASE';

const hostResultSchema = z.object({ streamMs: z.number(), replyStatus: z.string(), replyCharacters: z.number() });
const frameStatsSchema = z.object({ longTasks: z.array(z.number()), frameGaps: z.array(z.number()), supported: z.boolean() });
type FrameStats = z.infer<typeof frameStatsSchema>;

interface Driven {
  renderMs: number;
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
    const figures = [`render a ${MESSAGES}-message conversation`, `streaming ${CHUNKS.toLocaleString('en-US')} chunks: longest task in the webview`, `streaming ${CHUNKS.toLocaleString('en-US')} chunks: frames over 50 ms`];
    const goals = ['—', '—', '0'];
    const missing = !fs.existsSync(path.join(ROOT, 'src', 'webview', 'chat')) ? 'src/webview/chat does not exist yet' : hostUnavailable();
    if (missing) return figures.map((figure, i) => notMeasurable(PART, figure, goals[i], missing));
    const service = await context.service();
    await service.reset();
    await service.setScenario({ chat: { bulk: { chunks: CHUNKS, chunkChars: 8 } } });
    const staged = await context.stagedPackage();
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
      { part: PART, figure: figures[0], unit: 'ms', ours: driven.renderMs, goal: goals[0], note: 'from panels.show() in the host to the last message in the webview DOM (one VS Code session)' },
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
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'bench-chat-panel.png') }).catch(() => undefined);
  fs.writeFileSync(`${signalFile}.measured`, '');
  return { renderMs: renderedAt - opened, streamShownMs: shownAt - streamStarted, webview, workbench };
}

/** The content frame of the newest webview (VS Code nests it: iframe.webview → #active-frame). */
async function chatFrame(page: Page): Promise<Frame> {
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
function arm(frame: Frame): Promise<void> {
  return frame.evaluate(() => {
    const state = { longTasks: [] as number[], frameGaps: [] as number[], stop: false, supported: PerformanceObserver.supportedEntryTypes.includes('longtask') };
    (window as BenchWindow).__bench = state;
    if (state.supported) new PerformanceObserver((list) => list.getEntries().forEach((entry) => state.longTasks.push(entry.duration))).observe({ type: 'longtask' });
    let last = performance.now();
    const loop = (time: number) => {
      state.frameGaps.push(time - last);
      last = time;
      if (!state.stop) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  });
}

async function collect(frame: Frame): Promise<FrameStats> {
  const raw: unknown = await frame.evaluate(() => {
    const state = (window as BenchWindow).__bench;
    if (state) state.stop = true;
    return state;
  });
  return frameStatsSchema.parse(raw);
}
