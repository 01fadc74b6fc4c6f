import { z } from 'zod';

// What Promptreel remembers about a video task (persisted in globalState, so every field is checked when read:
// another version of the extension, or a hand-edited state, must never hand the rest of the code a wrong type).

/** `stale`: still pending on the service after `promptreel.video.staleAfterHours`; no longer polled. */
export const TASK_STATES = ['queued', 'running', 'completed', 'failed', 'stale'] as const;
export type TaskState = (typeof TASK_STATES)[number];

const metadataSchema = z
  .object({
    resolution: z.string().optional(),
    ratio: z.string().optional(),
    generate_audio: z.boolean().optional(),
    watermark: z.boolean().optional(),
    seed: z.number().int().optional(),
  })
  .strip();

/** The request that created the task: what Regenerate sends again. */
export const createRequestSchema = z
  .object({
    model: z.string().min(1),
    prompt: z.string().min(1),
    seconds: z.string().optional(),
    moderator: z.boolean().optional(),
    metadata: metadataSchema.optional(),
  })
  .strip();
export type StoredCreateRequest = z.infer<typeof createRequestSchema>;

/** Where an explainer video's prompt came from (0-based, like vscode.Range). */
export const sourceSchema = z
  .object({
    uri: z.string().min(1),
    startLine: z.number().int().min(0),
    startCharacter: z.number().int().min(0),
    endLine: z.number().int().min(0),
    endCharacter: z.number().int().min(0),
  })
  .strip();
export type TaskSource = z.infer<typeof sourceSchema>;

export const taskRecordSchema = z
  .object({
    id: z.string().min(1),
    /** Unknown for a task tracked by id. */
    prompt: z.string().optional(),
    model: z.string().optional(),
    state: z.enum(TASK_STATES),
    /** The status string exactly as the service last sent it. */
    rawStatus: z.string(),
    progress: z.number().min(0).max(100).optional(),
    videoUrl: z.string().optional(),
    error: z.string().optional(),
    /** Milliseconds since the epoch. */
    createdAt: z.number(),
    updatedAt: z.number(),
    finishedAt: z.number().optional(),
    request: createRequestSchema.optional(),
    source: sourceSchema.optional(),
    /** Absolute file system path of the downloaded video. */
    downloadedPath: z.string().optional(),
    /** Poll bookkeeping (shared with the next window that takes over polling). */
    nextPollAt: z.number().optional(),
    lastPolledAt: z.number().optional(),
    consecutiveErrors: z.number().int().min(0).optional(),
    lastPollError: z.string().optional(),
  })
  .strip();
export type VideoTaskRecord = z.infer<typeof taskRecordSchema>;

/** Parses the stored list; entries that do not fit are dropped (and counted), never fatal. */
export function parseTaskList(raw: unknown): { tasks: VideoTaskRecord[]; dropped: number } {
  if (!Array.isArray(raw)) return { tasks: [], dropped: raw === undefined ? 0 : 1 };
  const tasks: VideoTaskRecord[] = [];
  let dropped = 0;
  const seen = new Set<string>();
  for (const entry of raw) {
    const parsed = taskRecordSchema.safeParse(entry);
    if (parsed.success && !seen.has(parsed.data.id)) {
      seen.add(parsed.data.id);
      tasks.push(parsed.data);
    } else {
      dropped++;
    }
  }
  return { tasks, dropped };
}
