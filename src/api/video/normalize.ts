import * as z from 'zod/mini';
import { orUndefined } from '../tolerant';
import type { VideoState, VideoTask } from './task';

const text = orUndefined(z.nullish(z.string()));
const looseRecord = z.record(z.string(), z.unknown());

const errorField = orUndefined(
  z.nullish(z.union([z.string(), z.object({ message: z.nullish(z.string()), code: z.nullish(z.union([z.string(), z.number()])) })])),
);

/** A task as any of the gateways may send it; every field optional, wrong types ignored rather than fatal. */
const taskFields = z.object({
  id: text,
  task_id: text,
  status: orUndefined(z.nullish(z.union([z.string(), z.number()]))),
  progress: orUndefined(z.nullish(z.union([z.number(), z.string()]))),
  model: text,
  created_at: orUndefined(z.nullish(z.number())),
  metadata: orUndefined(z.nullish(z.object({ url: text }))),
  video_url: text,
  url: text,
  content: orUndefined(z.nullish(z.object({ video_url: text }))),
  result_url: text,
  data: orUndefined(z.nullish(z.object({ result_url: text }))),
  error: errorField,
  fail_reason: text,
});

type TaskFields = z.infer<typeof taskFields>;

const COMPLETED = new Set(['completed', 'complete', 'succeeded', 'success', 'successful', 'done', 'finished']);
const FAILED = new Set(['failed', 'failure', 'fail', 'error', 'cancelled', 'canceled', 'expired', 'rejected']);

/** Anything not known to be final is still running. */
export function stateFromStatus(status: string): VideoState {
  const key = status.trim().toLowerCase();
  if (COMPLETED.has(key)) return 'completed';
  if (FAILED.has(key)) return 'failed';
  return 'pending';
}

/**
 * Normalizes a create or query response: plain (`{id, status, …}`) or enveloped (`{code, data: {…}}`).
 * Returns undefined when no task id can be found.
 */
export function normalizeVideoTask(raw: unknown, fallbackId?: string): VideoTask | undefined {
  const outer = looseRecord.safeParse(raw);
  if (!outer.success) return undefined;
  const envelope = looseRecord.safeParse(outer.data.data);
  // `{code, message, data: {task…}}`: the task lives in `data`; a top-level `data.result_url` is an address, not a task.
  const isEnvelope = envelope.success && outer.data.status === undefined;
  const fields = taskFields.parse(isEnvelope ? envelope.data : outer.data);
  const outerFields = isEnvelope ? taskFields.parse(outer.data) : fields;

  const id = fields.id || fields.task_id || outerFields.task_id || outerFields.id || fallbackId;
  if (!id) return undefined;
  const status = fields.status === undefined || fields.status === null ? 'unknown' : String(fields.status);
  const state = stateFromStatus(status);
  const progress = parseProgress(fields.progress);
  const videoUrl = state === 'failed' ? undefined : (videoAddress(fields) ?? (isEnvelope ? videoAddress(outerFields) : undefined));
  const error = state === 'failed' ? (failureMessage(fields) ?? failureMessage(outerFields)) : undefined;
  return {
    id,
    state,
    status,
    ...(progress !== undefined ? { progress } : {}),
    ...(videoUrl ? { videoUrl } : {}),
    ...(error ? { error } : {}),
    ...(fields.model ? { model: fields.model } : {}),
    ...(typeof fields.created_at === 'number' ? { createdAt: fields.created_at } : {}),
  };
}

/** In the order they are seen most often; empty strings (e.g. `metadata.url` before completion) do not count. */
function videoAddress(fields: TaskFields): string | undefined {
  const candidates = [fields.metadata?.url, fields.video_url, fields.url, fields.content?.video_url, fields.result_url, fields.data?.result_url];
  for (const candidate of candidates) {
    if (candidate && /^https?:\/\//i.test(candidate.trim())) return candidate.trim();
  }
  return undefined;
}

function failureMessage(fields: TaskFields): string | undefined {
  const error = fields.error;
  if (typeof error === 'string' && error.trim()) return error.trim();
  if (error && typeof error === 'object' && error.message) return error.message;
  if (fields.fail_reason && fields.fail_reason.trim()) return fields.fail_reason.trim();
  return undefined;
}

/** `50`, `"50"`, `"50%"` → 50; clamped to 0..100. */
export function parseProgress(value: number | string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const number = typeof value === 'number' ? value : Number.parseFloat(value.replace('%', ''));
  if (!Number.isFinite(number)) return undefined;
  return Math.min(100, Math.max(0, Math.round(number)));
}
