// A real VS Code workbench (code-server + Chromium) with the packaged extension installed, talking to the local
// service. One per test file (`useWorkbench`), one for several files (`useWorkbench` of a session of ./sessions), or
// one per test (`launchWorkbench` + `stop()`).
import * as fs from 'fs';
import * as path from 'path';
import type { Browser, Page } from 'playwright-core';
import { startLocalService, type LocalService } from '../../service';
import { browser as browserModule, extensions, paths, processes, profile as profileModule, server as serverModule } from './harness';
import { fillInput, pickItem, runCommand } from './palette';
import { clearNotifications, waitForNotification } from './notifications';
import { webviewFrame } from './views';

export interface WorkbenchOptions {
  /** User settings, merged over the test defaults; `promptreel.baseUrl` already points at the local service. */
  settings?: Record<string, unknown>;
  /** Environment of code-server and so of the extension host (e.g. PROMPTREEL_API_KEY); may use the service. */
  env?: Record<string, string> | ((service: LocalService) => Record<string, string>);
  /** Extra workspace files (relative path -> content) besides README.md and src/sample.ts. */
  files?: Record<string, string>;
  /** Options for the local service. */
  service?: Parameters<typeof startLocalService>[0];
  /** Used in log and run folder names; defaults to a counter. */
  name?: string;
  /** VS Code's display language (`zh-cn`): Promptreel's strings in it, VS Code's own stay English (no language pack). */
  locale?: string;
  /** Unpacked extension folders (`publisher.name-version`) installed next to Promptreel, e.g. test fixtures. */
  extraExtensions?: string[];
  /**
   * Suites given this same options object share one workbench when they run one after the other (the order of
   * test/.mocharc.ui.json). Each suite after the first starts with the service reset (its tasks, requests and logs
   * gone), every editor closed and no notification left.
   */
  shared?: boolean;
}

export interface Workbench {
  readonly page: Page;
  readonly service: LocalService;
  /** Absolute path of the opened workspace folder. */
  readonly workspace: string;
  readonly url: string;
  /** code-server's output (the workbench's own logs are copied out by `collectLogs`). */
  readonly logFile: string;
  screenshot(name: string): Promise<string>;
  /** Copies VS Code's logs (the extension host's, Promptreel's output) to .artifacts/logs/ and returns the folder. */
  collectLogs(): string;
  /** What Promptreel's output channel (its log file) holds so far; empty before the extension wrote to it. */
  promptreelLog(): string;
  runCommand(title: string): Promise<void>;
  fillInput(text: string, options?: { submit?: boolean }): Promise<void>;
  pickItem(label: string): Promise<void>;
  waitForNotification(text: string | RegExp, options?: { timeoutMs?: number }): ReturnType<typeof waitForNotification>;
  webviewFrame(options?: { nth?: number }): ReturnType<typeof webviewFrame>;
  /** Closes the browser, stops code-server's process group and the service. Safe to call twice. */
  stop(): Promise<void>;
}

let launches = 0;

function slug(text: string): string {
  return (
    text
      .replace(/[^a-zA-Z0-9._-]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 120) || 'workbench'
  );
}

export async function screenshotTo(page: Page, name: string): Promise<string> {
  fs.mkdirSync(paths.SCREENSHOTS, { recursive: true });
  const file = path.join(paths.SCREENSHOTS, `${slug(name.replace(/\.png$/, ''))}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Waits until the workbench is usable: layout rendered, status bar up and the explorer showing the folder. */
async function waitUntilReady(page: Page): Promise<void> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('#workbench\\.parts\\.statusbar').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view').first().waitFor({ timeout: 60_000 });
}

export async function launchWorkbench(options: WorkbenchOptions = {}): Promise<Workbench> {
  const name = slug(options.name ?? `workbench-${++launches}`);
  // Per process, so two runs in one checkout do not share a profile; removed on stop unless PROMPTREEL_KEEP_RUNS=1.
  const runDir = path.join(paths.RUNS, 'ui', `${name}-${process.pid}`);
  const logFile = path.join(paths.LOGS, `ui-${name}-code-server.log`);
  fs.mkdirSync(paths.LOGS, { recursive: true });
  fs.rmSync(logFile, { force: true });

  let service: LocalService | undefined;
  let codeServer: Awaited<ReturnType<typeof serverModule.startCodeServer>> | undefined;
  let browser: Browser | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    unregister();
    // Each step runs even when an earlier one fails: nothing may outlive the test.
    await browser?.close().catch(() => undefined);
    await codeServer?.stop().catch(() => undefined);
    await service?.stop().catch(() => undefined);
    if (process.env.PROMPTREEL_KEEP_RUNS !== '1') fs.rmSync(runDir, { recursive: true, force: true });
  };
  const unregister = processes.onShutdown(stop);

  const started = Date.now();
  const laps: string[] = [];
  const lap = (what: string): void => {
    laps.push(`${what} ${((Date.now() - started) / 1000).toFixed(1)}s`);
  };
  try {
    service = await startLocalService(options.service);
    const env = typeof options.env === 'function' ? options.env(service) : (options.env ?? {});
    const profile = profileModule.writeProfile(path.join(runDir, 'profile'), {
      settings: { 'promptreel.baseUrl': service.baseUrl, ...options.settings },
    });
    if (options.locale) profileModule.addLanguagePack(profile, options.locale);
    await extensions.installVsixInto(paths.VSIX, profile.extensionsDir, { logFile });
    for (const folder of options.extraExtensions ?? []) fs.cpSync(folder, path.join(profile.extensionsDir, path.basename(folder)), { recursive: true });
    lap('extension installed');
    const workspace = profileModule.writeWorkspace(path.join(runDir, 'workspace'), options.files ?? {});
    // Without the smoke-test driver, so notification toasts show as for a user.
    codeServer = await serverModule.startCodeServer({ profile, workspace, env, logFile, ...(options.locale ? { locale: options.locale } : {}) });
    lap('code-server up');
    browser = await browserModule.launchBrowser();
    // Reduced motion, as a user may ask for it: VS Code and the pages stop their endless animations (spinners,
    // progress bars), which otherwise repaint the screen for as long as they show.
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    lap('browser up');
    await page.goto(codeServer.folderUrl(workspace));
    await waitUntilReady(page);
    lap('workbench ready');
    console.log(`      [workbench ${name}] ${laps.join(', ')}`);

    const readyService = service;
    return {
      page,
      service: readyService,
      workspace,
      url: codeServer.url,
      logFile,
      screenshot: (shot) => screenshotTo(page, shot),
      collectLogs: () => {
        const copy = path.join(paths.LOGS, `ui-${name}-vscode-logs`);
        fs.rmSync(copy, { recursive: true, force: true });
        fs.cpSync(path.join(profile.userDataDir, 'logs'), copy, { recursive: true });
        return copy;
      },
      promptreelLog: () => readPromptreelLog(path.join(profile.userDataDir, 'logs')),
      runCommand: (title) => runCommand(page, title),
      fillInput: (text, fillOptions) => fillInput(page, text, fillOptions),
      pickItem: (label) => pickItem(page, label),
      waitForNotification: (text, waitOptions) => waitForNotification(page, text, waitOptions),
      webviewFrame: (frameOptions) => webviewFrame(page, frameOptions),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The last suite's workbench, kept while the next suite asks for the same session (see `WorkbenchOptions.shared`). */
let kept: { options: WorkbenchOptions; workbench: Workbench } | undefined;

async function workbenchFor(options: WorkbenchOptions, name: string | undefined): Promise<Workbench> {
  if (kept?.options === options) {
    const { workbench } = kept;
    workbench.service.reset();
    await workbench.runCommand('View: Close All Editors');
    await clearNotifications(workbench.page);
    return workbench;
  }
  await releaseKept();
  const workbench = await launchWorkbench({ name: options.name ?? name, ...options });
  if (options.shared) kept = { options, workbench };
  return workbench;
}

async function releaseKept(): Promise<void> {
  const last = kept;
  kept = undefined;
  await last?.workbench.stop();
}

// After the last suite of the tier (a root hook: this module is loaded with the test files).
if (typeof after === 'function')
  after(async function () {
    this.timeout(30_000);
    await releaseKept();
  });

/**
 * Mocha helper: one workbench for the enclosing `describe` (or the one it shares with the suite before it), a screenshot of every failed test
 * (.artifacts/screenshots/failed-<test>.png) and a copy of VS Code's logs, both named in the failure's message, and
 * always stopped at the end.
 */
export function useWorkbench(options: WorkbenchOptions = {}): { readonly workbench: Workbench } {
  const holder: { workbench?: Workbench } = {};
  before(async function () {
    this.timeout(120_000);
    holder.workbench = await workbenchFor(options, this.test?.parent?.title);
  });
  afterEach(async function () {
    const test = this.currentTest;
    if (holder.workbench && test?.state === 'failed') {
      const { workbench } = holder;
      const relative = (file: string) => path.relative(paths.ROOT, file);
      const shot = await workbench.screenshot(`failed-${options.name ?? 'workbench'}-${test.title}`).catch((error: unknown) => `none (${String(error)})`);
      let logs: string;
      try {
        logs = relative(workbench.collectLogs());
      } catch (error) {
        logs = `not copied (${String(error)})`;
      }
      // Printed with the failure at the end of the run.
      const err = (test as Mocha.Test & { err?: Error }).err;
      if (err) err.message += `\n  screenshot: ${fs.existsSync(shot) ? relative(shot) : shot}\n  logs: ${relative(workbench.logFile)}, ${logs}/`;
    }
  });
  after(async function () {
    this.timeout(30_000);
    // A shared workbench stays for the next suite of its session; the next suite of another one stops it.
    if (holder.workbench !== kept?.workbench) await holder.workbench?.stop();
  });
  return {
    get workbench(): Workbench {
      if (!holder.workbench) throw new Error('the workbench did not start');
      return holder.workbench;
    },
  };
}

/** Promptreel's log file under VS Code's logs folder (exthost1/promptreel.promptreel/Promptreel.log), the newest one. */
function readPromptreelLog(logs: string): string {
  if (!fs.existsSync(logs)) return '';
  const found = (fs.readdirSync(logs, { recursive: true }) as string[])
    .filter((file) => /(^|[\\/])Promptreel\.log$/.test(file))
    .map((file) => path.join(logs, file))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return found.length > 0 ? fs.readFileSync(found[0], 'utf8') : '';
}
