import type { ChildProcess } from 'child_process';

export interface GroupProcess {
  child: ChildProcess;
  pgid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(graceMs?: number): Promise<void>;
}

export declare function spawnGroup(
  command: string,
  args: string[],
  options?: { cwd?: string; env?: NodeJS.ProcessEnv; logFile?: string; stdio?: unknown },
): GroupProcess;
export declare function stopGroup(pgid: number, graceMs?: number): Promise<void>;
export declare function groupAlive(pgid: number): boolean;
export declare function onShutdown(cleanup: () => Promise<void> | void): () => boolean;
export declare function freePort(preferred?: number): Promise<number>;
export declare function taggedPids(name: string, value: string): number[];
export declare function killTagged(name: string, value: string): number;
export declare function sleep(ms: number): Promise<void>;
