import * as fs from 'node:fs';
import { z } from 'zod';

export const EXTENSION_ID = 'promptreel.promptreel';

/** How a bench entry running in the extension host hands its measurements to the orchestrator. */
export function writeResult(result: unknown): void {
  const file = process.env.PROMPTREEL_BENCH_RESULT_FILE;
  if (!file) throw new Error('PROMPTREEL_BENCH_RESULT_FILE is not set');
  fs.writeFileSync(file, `${JSON.stringify(result)}\n`);
}

export const activationReportSchema = z.object({
  wasActive: z.boolean(),
  activateCallMs: z.number().optional(),
  loadCodeMs: z.number().optional(),
  activateMs: z.number().optional(),
  totalMs: z.number().optional(),
  /** What the V8 code cache did (src/start.ts): `none` in a profile's first window, `used` in the next ones. */
  codeCache: z.enum(['used', 'rejected', 'none']).optional(),
  /** Whether this window wrote the cache for the next one. */
  cacheWritten: z.boolean().optional(),
  /** src/start.ts's own stopwatch: finding the cache folder, reading the bundle and its cache, compiling, its top level, its activate(); its CPU time. */
  phases: z.object({ locate: z.number(), read: z.number(), compile: z.number(), run: z.number(), activate: z.number(), cpu: z.number() }).optional(),
  node: z.string(),
  vscode: z.string(),
});
export type ActivationReport = z.infer<typeof activationReportSchema>;

export const editorStreamReportSchema = z.object({
  status: z.string(),
  chunks: z.number(),
  characters: z.number(),
  edits: z.number(),
  commandMs: z.number(),
  /** The same completion read raw (undici, nothing done with it) in the same host, before and after. */
  rawStreamMs: z.array(z.number()),
  undoSteps: z.number(),
  restored: z.boolean(),
});
export type EditorStreamReport = z.infer<typeof editorStreamReportSchema>;
