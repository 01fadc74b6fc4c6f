import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { CodeServer } from '../../scripts/vscode/server.d';
import { ROOT } from '../support/paths';

/** The harness modules of scripts/vscode (plain JS), loaded by path: they are not compiled into out/. */
interface Harness {
  paths: { RUNS: string; LOGS: string };
  profile: {
    writeProfile(dir: string, options?: { fresh?: boolean }): { dir: string; userDataDir: string; extensionsDir: string; configFile: string };
    writeWorkspace(dir: string): string;
  };
  server: {
    startCodeServer(options: {
      profile: unknown;
      workspace: string;
      smokeDriver?: boolean;
      env?: Record<string, string>;
      logFile?: string;
    }): Promise<CodeServer>;
  };
  browser: { launchBrowser(): Promise<Browser> };
  stack: { stackProblem(): string | undefined };
  noise: { OFFLINE_NOISE: RegExp };
}

function harness(): Harness {
  const load = (name: string): unknown => require(path.join(ROOT, 'scripts', 'vscode', name));
  return {
    paths: load('paths') as Harness['paths'],
    profile: load('profile') as Harness['profile'],
    server: load('server') as Harness['server'],
    browser: load('browser') as Harness['browser'],
    stack: load('stack') as Harness['stack'],
    noise: load('offlineNoise') as Harness['noise'],
  };
}

/** Throws when the real VS Code cannot be started here (the bench installs it first: scripts/install-vscode.js). */
export function requireHost(): void {
  const problem = harness().stack.stackProblem();
  if (problem) throw new Error(`the real VS Code cannot start: ${problem} (node scripts/install-vscode.js installs it)`);
}

/** What a driver running next to the host entry gets: the workbench page and the entry's console lines. */
export interface HostSessionDriverContext {
  page: Page;
  /** Resolves with the first console line of the extension host matching `pattern` (past or future). */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** A file the entry polls for: the driver creates it (with a suffix per signal) to let the entry go on. */
  signalFile: string;
}

export interface HostSessionOptions<T> {
  env?: Record<string, string>;
  timeoutMs?: number;
  /** A profile folder to use as it is (and keep), e.g. for a second window of the same user; a fresh one otherwise. */
  profileDir?: string;
  /** Runs in this process alongside the entry, e.g. to measure the workbench page with Playwright. */
  drive?: (context: HostSessionDriverContext) => Promise<T>;
}

/**
 * One fresh VS Code (code-server + Chromium, fresh profile and workspace, the harness of scripts/run-host-tests.js)
 * with `extensionPath` as the extension under development and `entry` as its tests module; returns the JSON the
 * entry wrote to the file named by PROMPTREEL_BENCH_RESULT_FILE. `env` reaches the extension host.
 */
export async function runHostSession<T = undefined>(
  extensionPath: string,
  entry: string,
  options: HostSessionOptions<T> = {},
): Promise<{ result: unknown; driven: T | undefined }> {
  const { env = {}, timeoutMs = 180_000, drive, profileDir } = options;
  const { paths, profile, server: servers, browser: browsers, noise } = harness();
  const offlineNoise = noise.OFFLINE_NOISE;
  const runDir = path.join(paths.RUNS, `bench-${process.pid}-${Date.now()}`);
  const reportFile = path.join(runDir, 'result.json');
  const signalFile = path.join(runDir, 'signal');
  fs.mkdirSync(paths.LOGS, { recursive: true });
  const userProfile = profile.writeProfile(profileDir ?? path.join(runDir, 'profile'), { fresh: profileDir === undefined });
  const workspace = profile.writeWorkspace(path.join(runDir, 'workspace'));
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    server = await servers.startCodeServer({
      profile: userProfile,
      workspace,
      smokeDriver: true,
      env: { ...env, PROMPTREEL_BENCH_RESULT_FILE: reportFile, PROMPTREEL_BENCH_SIGNAL_FILE: signalFile },
      logFile: path.join(paths.LOGS, 'bench-code-server.log'),
    });
    browser = await browsers.launchBrowser();
    const page = await browser.newPage();
    let finish: (code: unknown) => void = () => undefined;
    const finished = new Promise<unknown>((resolve) => (finish = resolve));
    const lines: string[] = [];
    const listeners = new Set<() => void>();
    // The host's console: for drivers, and for the error message when no result comes.
    await page.exposeFunction('codeAutomationLog', (_type: unknown, args: unknown) => {
      const line = Array.isArray(args) ? args.map(String).join(' ') : String(args);
      if (offlineNoise.test(line)) return;
      lines.push(line);
      for (const listener of listeners) listener();
    });
    const waitForLine = (pattern: RegExp, lineTimeoutMs = timeoutMs) =>
      new Promise<RegExpExecArray>((resolve, reject) => {
        const check = () => {
          for (const line of lines) {
            const match = pattern.exec(line);
            if (match) {
              listeners.delete(check);
              clearTimeout(timer);
              resolve(match);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`no host console line matched ${pattern} in ${lineTimeoutMs} ms`));
        }, lineTimeoutMs);
        listeners.add(check);
        check();
      });
    await page.exposeFunction('codeAutomationExit', (code: unknown) => finish(code));
    const authority = new URL(server.url).host;
    const remote = (file: string) => `vscode-remote://${authority}${file}`;
    const payload = JSON.stringify([
      ['extensionDevelopmentPath', remote(extensionPath)],
      ['extensionTestsPath', remote(entry)],
    ]);
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(payload)}`);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    let driverError: unknown;
    const driving = drive?.({ page, waitForLine, signalFile }).catch((error: unknown) => {
      driverError = error ?? new Error('the driver failed');
      finish('the driver failed');
      return undefined;
    });
    const exitCode = await Promise.race([finished, timeout]);
    clearTimeout(timer);
    // A host that ended early leaves its driver waiting for lines that never come: a short grace, then give up.
    const grace = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000).unref());
    const driven = driving ? await Promise.race([driving, grace]) : undefined;
    if (driverError) throw driverError instanceof Error ? driverError : new Error(String(driverError));
    if (!fs.existsSync(reportFile)) {
      throw new Error(`the host session ended (${String(exitCode)}) without a result: ${lines.slice(-5).join(' | ').slice(0, 600)}`);
    }
    return { result: JSON.parse(fs.readFileSync(reportFile, 'utf8')) as unknown, driven };
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    fs.rmSync(runDir, { recursive: true, force: true });
  }
}
