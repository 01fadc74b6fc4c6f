import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import type { ScenarioPatch } from '../../test/service/scenario';
import { SERVICE_MAIN } from './paths';

const readySchema = z.object({ baseUrl: z.string(), cdnUrl: z.string(), demoKey: z.string() });
const READY = 'service-ready ';

/** The local service running in its own process (so it never shares a core's event loop with a measured client). */
export interface ServiceProcess {
  readonly baseUrl: string;
  readonly cdnUrl: string;
  readonly key: string;
  readonly pid: number;
  setScenario(patch: ScenarioPatch): Promise<void>;
  /** Back to the defaults, and forgets recorded requests (they pile up over thousands of bench requests). */
  reset(): Promise<void>;
  stop(): Promise<void>;
}

export async function startServiceProcess(timeoutMs = 30_000): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [SERVICE_MAIN], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (data: Buffer) => (stderr += data.toString()));
  const ready = await new Promise<z.infer<typeof readySchema>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the local service did not start in ${timeoutMs} ms: ${stderr}`)), timeoutMs);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (!line.startsWith(READY)) return;
      clearTimeout(timer);
      lines.close();
      resolve(readySchema.parse(JSON.parse(line.slice(READY.length))));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local service exited (${code}) before it was ready: ${stderr}`));
    });
  });
  child.stdout?.resume();
  const control = async (route: string, body: unknown) => {
    const response = await fetch(`${ready.baseUrl}/__control/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`control ${route} answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  return {
    baseUrl: ready.baseUrl,
    cdnUrl: ready.cdnUrl,
    key: ready.demoKey,
    pid: child.pid ?? -1,
    setScenario: (patch) => control('scenario', patch),
    reset: () => control('reset', {}),
    stop: () => stopChild(child),
  };
}

export function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
