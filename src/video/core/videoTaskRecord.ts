import * as z from 'zod/mini';
import { lazy } from '../../api/lazy';

// What Promptreel remembers about a video task (persisted in globalState, so every field is checked when read:
// another version of the extension, or a hand-edited state, must never hand the rest of the code a wrong type).

/**
 * `stale`: still pending on the service after `promptreel.video.staleAfterHours`; no longer polled.
 * `unconfirmed`: a create request that may have reached the service but whose answer was lost; its id (`lost-…`) is
 * ours, not the service's, so it is never polled: the user tracks the real task by its id, or removes the entry.
 */
export const TASK_STATES = ['queued', 'running', 'completed', 'failed', 'stale', 'unconfirmed'] as const;
export type TaskState = (typeof TASK_STATES)[number];

// z.object drops unknown keys (classic zod's .strip()).
const metadataSchema = lazy(() =>
  z.object({
    resolution: z.optional(z.string()),
    ratio: z.optional(z.string()),
    generate_audio: z.optional(z.boolean()),
    watermark: z.optional(z.boolean()),
    seed: z.optional(z.int()),
  }),
);

/** The image a task started from: where it is (read again by Regenerate), never its bytes. */
export const firstFrameSchema = lazy(() =>
  z.object({
    uri: z.string().check(z.minLength(1)),
    fileName: z.string().check(z.minLength(1)),
    contentType: z.string().check(z.minLength(1)),
  }),
);
export type FirstFrame = z.infer<ReturnType<typeof firstFrameSchema>>;

/** The request that created the task: what Regenerate sends again. */
export const createRequestSchema = lazy(() =>
  z.object({
    model: z.string().check(z.minLength(1)),
    prompt: z.string().check(z.minLength(1)),
    seconds: z.optional(z.string()),
    moderator: z.optional(z.boolean()),
    metadata: z.optional(metadataSchema()),
    firstFrame: z.optional(firstFrameSchema()),
  }),
);
export type StoredCreateRequest = z.infer<ReturnType<typeof createRequestSchema>>;

/** Where an explainer video's prompt came from (0-based, like vscode.Range). */
export const sourceSchema = lazy(() =>
  z.object({
    uri: z.string().check(z.minLength(1)),
    startLine: z.int().check(z.gte(0)),
    startCharacter: z.int().check(z.gte(0)),
    endLine: z.int().check(z.gte(0)),
    endCharacter: z.int().check(z.gte(0)),
  }),
);
export type TaskSource = z.infer<ReturnType<typeof sourceSchema>>;

/** The tasks Generate Variants made together: shown as one group in the tree and the gallery. */
export const taskGroupSchema = lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    label: z.string(),
    /** 0-based place in the group, and how many it has. */
    index: z.int().check(z.gte(0)),
    count: z.int().check(z.gte(1)),
  }),
);
export type TaskGroup = z.infer<ReturnType<typeof taskGroupSchema>>;

export const taskRecordSchema = lazy(() =>
  z.object({
    id: z.string().check(z.minLength(1)),
    /**
     * The service that made the task (its normalized base URL, the key store's scope): the task is followed and
     * downloaded only there, with that service's key. Records from before it was kept have none until migrated.
     */
    service: z.optional(z.string()),
    /** Unknown for a task tracked by id. */
    prompt: z.optional(z.string()),
    model: z.optional(z.string()),
    state: z.enum(TASK_STATES),
    /** The status string exactly as the service last sent it. */
    rawStatus: z.string(),
    progress: z.optional(z.number().check(z.gte(0), z.lte(100))),
    videoUrl: z.optional(z.string()),
    error: z.optional(z.string()),
    /** Milliseconds since the epoch. */
    createdAt: z.number(),
    updatedAt: z.number(),
    finishedAt: z.optional(z.number()),
    request: z.optional(createRequestSchema()),
    source: z.optional(sourceSchema()),
    group: z.optional(taskGroupSchema()),
    /** The price shown before it was created, in US dollars (when one was known). */
    priceUsd: z.optional(z.number().check(z.gte(0))),
    /** What the service's log of the key says it really cost, and why that differs from the price when it can be told. */
    charged: z.optional(z.object({ usd: z.number().check(z.gte(0)), reason: z.optional(z.string()) })),
    /** Where the video was saved: a URI of any file system (remote and virtual workspaces too). */
    downloadedUri: z.optional(z.string()),
    /** The same, as a path on this machine's disk; the only field of tasks downloaded by earlier versions. */
    downloadedPath: z.optional(z.string()),
    /** Poll bookkeeping (shared with the next window that takes over polling). */
    nextPollAt: z.optional(z.number()),
    lastPolledAt: z.optional(z.number()),
    consecutiveErrors: z.optional(z.int().check(z.gte(0))),
    lastPollError: z.optional(z.string()),
  }),
);
export type VideoTaskRecord = z.infer<ReturnType<typeof taskRecordSchema>>;

/** Parses the stored list; entries that do not fit are dropped (and counted), never fatal. */
export function parseTaskList(raw: unknown): { tasks: VideoTaskRecord[]; dropped: number } {
  if (!Array.isArray(raw)) return { tasks: [], dropped: raw === undefined ? 0 : 1 };
  const tasks: VideoTaskRecord[] = [];
  let dropped = 0;
  const seen = new Set<string>();
  for (const entry of raw) {
    const parsed = taskRecordSchema().safeParse(entry);
    if (parsed.success && !seen.has(parsed.data.id)) {
      seen.add(parsed.data.id);
      tasks.push(parsed.data);
    } else {
      dropped++;
    }
  }
  return { tasks, dropped };
}
