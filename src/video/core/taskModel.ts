import type { ApiError } from '../../api/errors';
import type { VideoTask } from '../../api/video/task';
import { t } from '../../api/l10n';
import type { StoredCreateRequest, TaskSource, TaskState, VideoTaskRecord } from './videoTaskRecord';

// Pure functions over task records: how a service answer changes a task, and how a task is described.

/** Pending statuses that mean "not started yet"; any other pending status (including unknown ones) is running. */
const QUEUED_STATUSES = new Set(['unknown', 'queued', 'queueing', 'not_start', 'submitted', 'pending', 'waiting', 'created', 'scheduled']);

export function stateOf(task: Pick<VideoTask, 'state' | 'status'>): TaskState {
  if (task.state !== 'pending') return task.state;
  return QUEUED_STATUSES.has(task.status.trim().toLowerCase()) ? 'queued' : 'running';
}

/** Queued or running: the poller asks the service about it. */
export function isPollable(record: Pick<VideoTaskRecord, 'state'>): boolean {
  return record.state === 'queued' || record.state === 'running';
}

/** Still pending on the service, stale ones included. */
export function isPending(record: Pick<VideoTaskRecord, 'state'>): boolean {
  return isPollable(record) || record.state === 'stale';
}

export function isFinished(record: Pick<VideoTaskRecord, 'state'>): boolean {
  return record.state === 'completed' || record.state === 'failed';
}

export interface NewRecordInit {
  /** The normalized base URL of the service that made the task. */
  service: string;
  request?: StoredCreateRequest;
  source?: TaskSource;
  now: number;
}

/** The record of a task just created (or just tracked by id). */
export function newRecord(task: VideoTask, init: NewRecordInit): VideoTaskRecord {
  const record: VideoTaskRecord = {
    id: task.id,
    service: init.service,
    state: 'queued',
    rawStatus: task.status,
    createdAt: task.createdAt !== undefined && task.createdAt * 1000 <= init.now ? task.createdAt * 1000 : init.now,
    updatedAt: init.now,
    ...(init.request ? { request: init.request, prompt: init.request.prompt, model: init.request.model } : {}),
    ...(init.source ? { source: init.source } : {}),
  };
  return applyAnswer(record, task, init.now).record;
}

export type Transition = 'completed' | 'failed' | undefined;

/**
 * A task after the service answered about it. `transition` says it just became final (for the notification).
 * A stale task the service still reports as pending stays stale.
 */
export function applyAnswer(record: VideoTaskRecord, task: VideoTask, now: number): { record: VideoTaskRecord; transition: Transition } {
  const answered = stateOf(task);
  const state: TaskState = record.state === 'stale' && (answered === 'queued' || answered === 'running') ? 'stale' : answered;
  const next: VideoTaskRecord = {
    ...record,
    state,
    rawStatus: task.status,
    updatedAt: now,
    lastPolledAt: now,
    consecutiveErrors: 0,
    model: record.model ?? task.model,
  };
  // A task tracked by id was made before we heard of it: the service knows when.
  if (task.createdAt !== undefined && task.createdAt * 1000 < record.createdAt) next.createdAt = task.createdAt * 1000;
  delete next.lastPollError;
  if (task.progress !== undefined) next.progress = task.progress;
  else if (state === 'completed') next.progress = 100;
  if (task.videoUrl) next.videoUrl = task.videoUrl;
  if (state === 'failed') next.error = task.error;
  if (!next.error) delete next.error;
  const becameFinal = (state === 'completed' || state === 'failed') && !isFinished(record);
  if (becameFinal) next.finishedAt = now;
  if (state === 'completed' || state === 'failed') delete next.nextPollAt;
  return { record: next, transition: becameFinal ? (state as 'completed' | 'failed') : undefined };
}

/** A pending task past the stale limit, counted from its creation. */
export function isPastStaleLimit(record: VideoTaskRecord, now: number, staleAfterHours: number): boolean {
  return isPollable(record) && now - record.createdAt > staleAfterHours * 3_600_000;
}

/** The tree's state: a completed task whose file is on disk shows as downloaded. */
export type DisplayState = TaskState | 'downloaded';

/** A state's name as the user reads it; `detailed`: with what the states that need it mean (the tree's tooltip). */
export function displayStateName(state: DisplayState, detailed = false): string {
  switch (state) {
    case 'queued':
      return t('Queued');
    case 'running':
      return t('Running');
    case 'completed':
      return t('Completed');
    case 'downloaded':
      return t('Downloaded');
    case 'failed':
      return t('Failed');
    case 'stale':
      return detailed ? t('Stale (still pending after the limit; no longer polled)') : t('Stale');
    case 'unconfirmed':
      return detailed
        ? t("Answer lost: the task may exist on the service (and be charged). Track it by its id from the service's console, or remove this entry.")
        : t('Answer lost');
  }
}

export function displayState(record: VideoTaskRecord, downloaded: boolean): DisplayState {
  return record.state === 'completed' && downloaded ? 'downloaded' : record.state;
}

/** `videoTask:<state>[:downloaded][:source][:request]`: menus match it with `viewItem =~ /^videoTask:completed/`. */
export function contextValue(record: VideoTaskRecord, downloaded: boolean): string {
  const parts = ['videoTask', record.state];
  if (downloaded && (record.downloadedUri || record.downloadedPath)) parts.push('downloaded');
  if (record.source) parts.push('source');
  if (record.request) parts.push('request');
  return parts.join(':');
}

export function shortenPrompt(prompt: string, max = 48): string {
  const flat = prompt.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, max - 1).trimEnd()}…`;
}

export function taskLabel(record: VideoTaskRecord): string {
  return record.prompt ? shortenPrompt(record.prompt) : t('Task {0}', record.id);
}

/** `42s`, `3m 05s`, `1h 02m`, `2d 03h`. */
export function formatElapsed(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const pad = (value: number) => String(value).padStart(2, '0');
  if (seconds < 60) return t('{0}s', seconds);
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return t('{0}m {1}s', minutes, pad(seconds % 60));
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return t('{0}h {1}m', hours, pad(minutes % 60));
  return t('{0}d {1}h', Math.floor(hours / 24), pad(hours % 24));
}

/** How long the task ran (until it finished) or has been running. */
export function elapsedOf(record: VideoTaskRecord, now: number): number {
  return (record.finishedAt ?? now) - record.createdAt;
}

/** True when this window follows the task: it belongs to the service the window is set to. */
export function isFollowedHere(record: Pick<VideoTaskRecord, 'service'>, service: string | undefined): boolean {
  return record.service === service;
}

/** The item's description: model, progress while pending, elapsed time, and a status nobody knows shown raw. */
export function describeTask(record: VideoTaskRecord, now: number): string {
  if (record.state === 'unconfirmed') return t('answer lost: may exist on the service · {0} ago', formatElapsed(elapsedOf(record, now)));
  const parts: string[] = [];
  if (record.model) parts.push(record.model);
  if (isPending(record) && record.progress !== undefined && record.progress > 0) parts.push(`${record.progress}%`);
  parts.push(formatElapsed(elapsedOf(record, now)));
  if (record.state === 'stale') parts.push(t('stale'));
  else if (isPollable(record) && isUnknownStatus(record.rawStatus)) parts.push(record.rawStatus);
  return parts.join(' · ');
}

const KNOWN_PENDING = new Set([...QUEUED_STATUSES, 'in_progress', 'running', 'processing', 'generating']);

function isUnknownStatus(status: string): boolean {
  return !KNOWN_PENDING.has(status.trim().toLowerCase());
}

/** A pending task no longer polled: past the stale limit. `updatedAt` moves when the poller marks it, not on an answer. */
export function asStale(record: VideoTaskRecord, updatedAt?: number): VideoTaskRecord {
  const stale: VideoTaskRecord = { ...record, state: 'stale', ...(updatedAt !== undefined ? { updatedAt } : {}) };
  delete stale.nextPollAt;
  return stale;
}

/** Decided on the code: a bare 404 is more often a wrong base URL, which must not fail every task in the list. */
export function isUnknownTask(error: ApiError): boolean {
  return error.kind === 'http' && error.code === 'task_not_exist';
}

/** The service says it does not know the task: it failed, with the service's words. */
export function asUnknownTask(record: VideoTaskRecord, error: ApiError, now: number): VideoTaskRecord {
  const failed: VideoTaskRecord = {
    ...record,
    state: 'failed',
    rawStatus: error.code ?? `HTTP ${error.status ?? '?'}`,
    error: error.code
      ? t('The service does not know this task (HTTP {0}, {1}): {2}', error.status ?? '?', error.code, error.serverMessage ?? error.hint)
      : t('The service does not know this task (HTTP {0}): {1}', error.status ?? '?', error.serverMessage ?? error.hint),
    updatedAt: now,
    lastPolledAt: now,
    finishedAt: now,
  };
  delete failed.nextPollAt;
  return failed;
}
