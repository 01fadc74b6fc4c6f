import { newTaskId, randomAlphanumerics, unixSeconds } from './ids';
import type { FilmClip } from './filmClips';
import type { RecordedFilePart } from './multipart';
import type { VideoScenario } from './scenario';

/** A video task as the service keeps it. */
export interface ServiceTask {
  id: string;
  model: string;
  prompt: string;
  /** As sent (a numeric string), or null. */
  seconds: string | null;
  /** The request's `metadata`, echoed back. */
  metadata: Record<string, unknown>;
  /** Date.now() at creation. */
  createdAt: number;
  /** How many times GET /v1/videos/<id> answered for it. */
  polls: number;
  /** Set by the control API (or a test) to end the task now, whatever the scenario says. */
  forced: 'completed' | 'failed' | null;
  /** The CDN address it gets when completed: <cdnUrl>/files/<id>.mp4?sig=<random>. */
  url: string;
  /** The key that created it; null for tasks made with createTask(). */
  key: string | null;
  /** The last status string a client was sent (create or query); null before any. */
  lastStatus: string | null;
  /** Date.now() when a client was first told it is final. */
  finishedAt: number | null;
  /** The first frame of a multipart request (its name, type, size and hash), or null. */
  inputReference: RecordedFilePart | null;
  /** The film clip its file is (scenario `video.clips` when it was created), or null for the sample. */
  clip: FilmClip | null;
  /** It ends failed whatever the scenario's `outcome` (scenario `video.failTasks` when it was created). */
  fails: boolean;
}

export function newTask(cdnUrl: string, init: Partial<ServiceTask> = {}): ServiceTask {
  const id = init.id ?? newTaskId();
  return {
    model: 'promptreel-video',
    prompt: 'A sample video',
    seconds: null,
    metadata: {},
    createdAt: Date.now(),
    polls: 0,
    forced: null,
    url: `${cdnUrl}/files/${id}.mp4?sig=${randomAlphanumerics(32)}`,
    key: null,
    lastStatus: null,
    finishedAt: null,
    inputReference: null,
    clip: null,
    fails: false,
    ...init,
    id,
  };
}

/** Where a task is in its life. `polls` of a waiting task tells which waiting status to show. */
export type TaskPhase = { kind: 'waiting'; polls: number } | { kind: 'running'; fraction: number } | { kind: 'completed' } | { kind: 'failed' };

/**
 * By poll count (default): the create answer is poll 0; from poll `pollsToRunning` the task runs; from
 * poll `pollsToDone` it is final. By wall time when `durationMs` is set: running after a quarter of it.
 */
export function taskPhase(task: ServiceTask, video: VideoScenario, now = Date.now()): TaskPhase {
  if (task.forced) return { kind: task.forced };
  const final: TaskPhase = { kind: task.fails ? 'failed' : video.outcome };
  if (video.durationMs !== null) {
    const elapsed = now - task.createdAt;
    const runningAt = video.durationMs / 4;
    if (elapsed >= video.durationMs) return final;
    if (elapsed < runningAt) return { kind: 'waiting', polls: task.polls };
    return { kind: 'running', fraction: (elapsed - runningAt) / (video.durationMs - runningAt) };
  }
  const doneAt = video.pollsToDone;
  const runningAt = Math.min(video.pollsToRunning, doneAt);
  if (task.polls >= doneAt) return final;
  if (task.polls < runningAt) return { kind: 'waiting', polls: task.polls };
  return { kind: 'running', fraction: (task.polls - runningAt) / (doneAt - runningAt) };
}

export function isFinal(phase: TaskPhase): boolean {
  return phase.kind === 'completed' || phase.kind === 'failed';
}

/**
 * The status string a gateway shows. While waiting, the create answer relays the upstream's `queued`,
 * then the gateway's own record says `unknown` until its first upstream poll (upper case: NOT_START,
 * SUBMITTED, QUEUED).
 */
export function statusText(phase: TaskPhase, video: VideoScenario): string {
  const upper = video.statusCase === 'upper' || video.queryShape === 'new-api-1';
  switch (phase.kind) {
    case 'waiting':
      if (upper) return ['NOT_START', 'SUBMITTED'][phase.polls] ?? 'QUEUED';
      return phase.polls === 1 ? 'unknown' : 'queued';
    case 'running':
      return video.customRunningStatus ?? (upper ? 'IN_PROGRESS' : 'in_progress');
    case 'completed':
      return upper ? 'SUCCESS' : 'completed';
    case 'failed':
      return upper ? 'FAILURE' : 'failed';
  }
}

/** Integers that jump: 0 while waiting, 10/50/90 while running, 100 when final. */
export function progressValue(phase: TaskPhase): number {
  switch (phase.kind) {
    case 'waiting':
      return 0;
    case 'running':
      return phase.fraction < 1 / 3 ? 10 : phase.fraction < 2 / 3 ? 50 : 90;
    default:
      return 100;
  }
}

/** The task object of a query answer (before any `data` envelope). */
export function taskView(task: ServiceTask, video: VideoScenario, phase: TaskPhase, now = Date.now()): Record<string, unknown> {
  if (video.queryShape === 'new-api-1') return newApiTaskRecord(task, video, phase, now);
  const view: Record<string, unknown> = {};
  if (video.createShape === 'openai') {
    view['id'] = task.id;
    view['task_id'] = task.id;
    view['object'] = 'video';
  } else {
    view['task_id'] = task.id;
  }
  view['model'] = task.model;
  view['status'] = statusText(phase, video);
  addProgress(view, phase, video);
  view['created_at'] = unixSeconds(task.createdAt);
  if (isFinal(phase)) view['completed_at'] = unixSeconds(task.finishedAt ?? now);
  else if (video.completedAtWhileRunning) view['completed_at'] = unixSeconds(now);
  if (task.seconds !== null) view['seconds'] = task.seconds;
  view['prompt'] = task.prompt;
  if (phase.kind === 'failed') {
    if (video.failureStyle === 'error-object') view['error'] = { message: video.failureReason, code: 'generation_failed' };
    if (video.failureStyle === 'fail-reason') view['fail_reason'] = video.failureReason;
  }
  addAddress(view, task, video, phase.kind === 'completed');
  return view;
}

/** new-api 1.0's own record of a task: no address (the video is at `/content`), `fail_reason` always present. */
function newApiTaskRecord(task: ServiceTask, video: VideoScenario, phase: TaskPhase, now: number): Record<string, unknown> {
  const final = isFinal(phase);
  return {
    task_id: task.id,
    status: statusText(phase, video),
    progress: `${progressValue(phase)}%`,
    fail_reason: phase.kind === 'failed' && video.failureStyle !== 'none' ? video.failureReason : '',
    created_at: unixSeconds(task.createdAt),
    finished_at: final ? unixSeconds(task.finishedAt ?? now) : 0,
    platform: 'sora',
  };
}

function addProgress(view: Record<string, unknown>, phase: TaskPhase, video: VideoScenario): void {
  if (video.progress === 'int') view['progress'] = progressValue(phase);
  if (video.progress === 'percent-string') view['progress'] = `${progressValue(phase)}%`;
}

function addAddress(view: Record<string, unknown>, task: ServiceTask, video: VideoScenario, completed: boolean): void {
  const hasMetadata = Object.keys(task.metadata).length > 0;
  switch (video.urlField) {
    case 'metadata.url':
      view['metadata'] = { ...task.metadata, url: completed ? task.url : '' };
      return;
    case 'none':
      break;
    case 'content.video_url':
      if (completed) view['content'] = { video_url: task.url };
      break;
    case 'data.result_url':
      // Inside a data envelope the task object already is `data`.
      if (completed && video.createShape === 'data-envelope') view['result_url'] = task.url;
      else if (completed) view['data'] = { result_url: task.url };
      break;
    default:
      if (completed) view[video.urlField] = task.url;
  }
  if (hasMetadata) view['metadata'] = { ...task.metadata };
}

/** The answer to POST /v1/videos, in the scenario's shape. */
export function createAnswer(task: ServiceTask, video: VideoScenario, phase: TaskPhase): Record<string, unknown> {
  const status = statusText(phase, video);
  switch (video.createShape) {
    case 'task-id-only':
      return { task_id: task.id, status };
    case 'data-envelope':
      return { code: 'success', message: '', data: { task_id: task.id, status } };
    case 'openai': {
      const answer: Record<string, unknown> = { id: task.id, task_id: task.id, object: 'video', model: task.model, status };
      addProgress(answer, phase, video);
      answer['created_at'] = unixSeconds(task.createdAt);
      return answer;
    }
  }
}

/** The answer to GET /v1/videos/<id>, in the scenario's shape. */
export function queryAnswer(task: ServiceTask, video: VideoScenario, phase: TaskPhase, now = Date.now()): Record<string, unknown> {
  const view = taskView(task, video, phase, now);
  return video.createShape === 'data-envelope' ? { code: 'success', message: '', data: view } : view;
}
