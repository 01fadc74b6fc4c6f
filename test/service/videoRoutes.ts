import { z } from 'zod';
import { byteSourceFor, sendNotAVideo, serveBytes } from './bytes';
import { sendFault, sendTaskError, sendUnknownTask } from './errors';
import { pause, sendJson } from './httpHelpers';
import { isMultipartBody, type MultipartBody, type RecordedFilePart } from './multipart';
import type { RouteContext } from './routeContext';
import { logCharge } from './keyLog';
import { createAnswer, isFinal, queryAnswer, statusText, taskPhase, type ServiceTask, type TaskPhase } from './videoTasks';

const createBody = z.looseObject({
  model: z.string().min(1),
  prompt: z.string().min(1),
  seconds: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const numericSeconds = z.looseObject({ seconds: z.number() });

/** POST /v1/videos: JSON, or multipart/form-data with the first frame as the file part `input_reference` (OpenAI's video API). */
export async function createVideo(context: RouteContext): Promise<void> {
  const { response, scenario, state, signal } = context;
  const startedAt = Date.now();
  const video = scenario.video;
  const multipart = isMultipartBody(context.body) ? fromMultipart(context.body) : undefined;
  if (multipart && 'problem' in multipart) {
    sendTaskError(response, 400, 'invalid_request', multipart.problem);
    return;
  }
  const body = multipart ? multipart.body : context.body;
  // new-api decodes into a Go struct: a number where a string is expected fails the whole request.
  if (numericSeconds.safeParse(body).success) {
    sendTaskError(response, 400, 'invalid_request', 'json: cannot unmarshal number into Go struct field VideoRequest.seconds of type string');
    return;
  }
  const parsed = createBody.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path[0];
    const message = field === undefined ? 'invalid request body' : `${String(field)} is required and must be a non-empty string`;
    sendTaskError(response, 400, 'invalid_request', message);
    return;
  }
  if (!(await pause(video.createDelayMs, signal))) return;
  const { model, prompt, seconds, metadata } = parsed.data;
  const task = state.createTask({
    model,
    prompt,
    seconds: typeof seconds === 'string' ? seconds : null,
    metadata: metadata ?? {},
    key: context.key,
    inputReference: multipart?.inputReference ?? null,
    clip: state.nextClip(video.clips),
    fails: video.failTasks.includes(state.videoCreates++),
  });
  // Charged once the task exists, whatever becomes of the answer.
  logCharge(state, context.key, scenario.account, { model, startedAt, stream: false, requestId: context.requestId, path: '/v1/videos' });
  if (video.dropCreateConnection) {
    response.socket?.destroy();
    return;
  }
  if (video.proxyStatusAfterCreate !== null) {
    sendFault(response, { status: video.proxyStatusAfterCreate, body: 'html' });
    return;
  }
  if (!(await pause(video.answerDelayMs, signal))) return;
  const phase = taskPhase(task, video);
  report(task, phase, context);
  sendJson(response, 200, createAnswer(task, video, phase));
}

/** GET /v1/videos/<id>: every answer counts as one poll. */
export function queryVideo(context: RouteContext): void {
  const task = context.state.tasks.get(context.params[0]);
  const video = context.scenario.video;
  if (!task) {
    sendUnknownTask(context.response, video.unknownTaskStatus);
    return;
  }
  task.polls += 1;
  const now = Date.now();
  const phase = taskPhase(task, video, now);
  report(task, phase, context, now);
  sendJson(context.response, 200, queryAnswer(task, video, phase, now));
}

/** GET /v1/videos/<id>/content: the bytes of a completed task, with the key, Range supported. */
export async function videoContent(context: RouteContext): Promise<void> {
  const { request, response, scenario, signal } = context;
  const task = context.state.tasks.get(context.params[0]);
  if (!task) {
    sendUnknownTask(response, scenario.video.unknownTaskStatus);
    return;
  }
  const phase = taskPhase(task, scenario.video);
  if (phase.kind !== 'completed') {
    const status = statusText(phase, scenario.video);
    sendTaskError(response, 404, 'task_not_completed', `the task is not completed (status: ${status})`);
    return;
  }
  if (scenario.video.contentRedirect) {
    response.writeHead(302, { location: task.url, 'content-length': '0' });
    response.end();
    return;
  }
  if (scenario.cdn.answerAtContent && scenario.cdn.redirectTo !== null) {
    response.writeHead(302, { location: scenario.cdn.redirectTo.replace('{port}', new URL(context.state.cdnUrl).port), 'content-length': '0' });
    response.end();
    return;
  }
  if (scenario.cdn.answerAtContent && scenario.cdn.answer !== 'video') {
    sendNotAVideo(response, scenario.cdn.answer, context.key);
    return;
  }
  await serveBytes(request, response, byteSourceFor(scenario.cdn, task.clip), {
    contentLength: scenario.cdn.contentLength,
    bytesPerSecond: scenario.cdn.bytesPerSecond,
    signal,
  });
}

function report(task: ServiceTask, phase: TaskPhase, context: RouteContext, now = Date.now()): void {
  task.lastStatus = statusText(phase, context.scenario.video);
  if (isFinal(phase) && task.finishedAt === null) task.finishedAt = now;
}

const FIRST_FRAME_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * The multipart form as the JSON body it stands for, and its image: text fields as sent (`metadata` as JSON text,
 * `moderator` as true/false), `input_reference` required, a non-empty PNG, JPEG or WebP file part.
 */
function fromMultipart(form: MultipartBody): { body: Record<string, unknown>; inputReference: RecordedFilePart } | { problem: string } {
  const image = form.files['input_reference'];
  if (!image) {
    const asText = form.fields['input_reference'] !== undefined;
    return { problem: asText ? 'input_reference must be a file part, not a text field' : 'input_reference is required in a multipart request' };
  }
  if (!FIRST_FRAME_TYPES.includes(image.contentType) || image.size === 0) {
    return { problem: `input_reference must be a non-empty png, jpeg or webp image (got ${image.contentType || 'no type'}, ${image.size} bytes)` };
  }
  const body: Record<string, unknown> = { ...form.fields };
  if (form.fields['moderator'] !== undefined) body['moderator'] = form.fields['moderator'] === 'true';
  if (form.fields['metadata'] !== undefined) {
    try {
      body['metadata'] = JSON.parse(form.fields['metadata']) as unknown;
    } catch {
      return { problem: 'metadata must be a JSON object' };
    }
  }
  return { body, inputReference: image };
}
