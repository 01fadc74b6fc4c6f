import { z } from 'zod';

export const clientKinds = ['raw', 'ours', 'sdk'] as const;
export type ClientKind = (typeof clientKinds)[number];

export const streamRunSchema = z.object({
  /** From the call to the end of the stream. */
  totalMs: z.number(),
  /** CPU time (user + system, all threads) the client process spent meanwhile: robust when other work shares the cores. */
  cpuMs: z.number(),
  /** From the call to the first content delta handed to the consumer (raw: the first body bytes). */
  firstMs: z.number(),
  /** Content deltas seen (raw: not parsed, 0). */
  contentEvents: z.number(),
  textChars: z.number(),
  /** Body bytes (raw only: the others do not see bytes). */
  bytes: z.number(),
});
export type StreamRun = z.infer<typeof streamRunSchema>;

/** One streamed chat completion, read to the end by one client library, timed. */
export interface StreamClient {
  run(): Promise<StreamRun>;
  close(): Promise<void>;
}

export interface StreamTarget {
  baseUrl: string;
  key: string;
  model: string;
  prompt: string;
}

/** Milliseconds of CPU this process used since `start` (a `process.cpuUsage()` reading). */
export function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
