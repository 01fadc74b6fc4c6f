import type { Profile } from './profile';

export interface CodeServer {
  url: string;
  port: number;
  pgid: number;
  startedInMs: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  folderUrl(folder: string): string;
  stop(): Promise<void>;
}

export declare function serverEnv(layout: unknown, extra?: Record<string, string>): NodeJS.ProcessEnv;
export declare function installExtension(profile: Profile, vsix: string, options?: { logFile?: string; timeoutMs?: number; layout?: unknown }): Promise<void>;
export declare function startCodeServer(options: {
  profile: Profile;
  workspace: string;
  port?: number;
  smokeDriver?: boolean;
  env?: Record<string, string>;
  logFile?: string;
  startTimeoutMs?: number;
  locale?: string;
  /** A stack layout (scripts/vscode/stack.js); default the newest. */
  layout?: unknown;
}): Promise<CodeServer>;
