import type * as http from 'node:http';
import { z } from 'zod';
import { parseBody, readBody, sendJson } from './httpHelpers';
import type { ServiceState } from './serviceState';

/**
 * The control API for tests in other processes (UI tests, `npm start`). Loopback only like the rest,
 * no auth, never recorded. Bodies are JSON; answers are JSON; a bad body is a 400 `{error}`.
 *
 *   GET  /__control/scenario                 the default scenario
 *   POST /__control/scenario                 body: a ScenarioPatch, merged into the default
 *   POST /__control/key-scenario             body: {key, patch}; the key becomes valid
 *   POST /__control/keys                     body: {key}; the key becomes valid
 *   POST /__control/reset                    back to the start state
 *   GET  /__control/requests                 {requests, cdnRequests}
 *   GET  /__control/tasks                    {tasks}
 *   POST /__control/tasks                    body: task fields (all optional); makes a task without HTTP
 *   POST /__control/tasks/<id>/complete|fail force the task final
 *   GET  /__control/log?key=<key>            {entries (newest first), reads}
 *   POST /__control/log                      body: {key, entry: log entry fields}; adds it to the key's log
 */

const keyBody = z.object({ key: z.string().min(1) });
const keyScenarioBody = z.object({ key: z.string().min(1), patch: z.unknown() });
const logEntryBody = z.object({
  key: z.string().min(1),
  entry: z
    .strictObject({
      created_at: z.number().int(),
      type: z.number().int(),
      content: z.string(),
      token_name: z.string(),
      model_name: z.string(),
      quota: z.number(),
      prompt_tokens: z.number().int(),
      completion_tokens: z.number().int(),
      use_time: z.number(),
      is_stream: z.boolean(),
      group: z.string(),
      other: z.string(),
      request_id: z.string(),
    })
    .partial(),
});
const taskInitBody = z
  .strictObject({
    id: z.string().min(1),
    model: z.string(),
    prompt: z.string(),
    seconds: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    createdAt: z.number(),
    polls: z.number().int().min(0),
    forced: z.enum(['completed', 'failed']).nullable(),
    key: z.string().nullable(),
  })
  .partial();

export async function handleControl(state: ServiceState, request: http.IncomingMessage, response: http.ServerResponse, path: string): Promise<void> {
  const method = (request.method ?? 'GET').toUpperCase();
  const body = parseBody(await readBody(request));
  try {
    const route = `${method} ${path}`;
    if (route === 'GET /__control/scenario') return sendJson(response, 200, { scenario: state.scenario() });
    if (route === 'POST /__control/scenario') {
      state.setScenario(body ?? {});
      return sendJson(response, 200, { scenario: state.scenario() });
    }
    if (route === 'POST /__control/key-scenario') {
      const { key, patch } = keyScenarioBody.parse(body);
      state.setKeyScenario(key, patch ?? {});
      return sendJson(response, 200, { key, scenario: state.scenarioFor(key) });
    }
    if (route === 'POST /__control/keys') {
      const { key } = keyBody.parse(body);
      state.addKey(key);
      return sendJson(response, 200, { key });
    }
    if (route === 'POST /__control/reset') {
      state.reset();
      return sendJson(response, 200, { ok: true });
    }
    if (route === 'GET /__control/requests') {
      return sendJson(response, 200, { requests: state.requests, cdnRequests: state.cdnRequests });
    }
    if (route === 'GET /__control/tasks') return sendJson(response, 200, { tasks: [...state.tasks.values()] });
    if (route === 'POST /__control/tasks') {
      return sendJson(response, 200, { task: state.createTask(taskInitBody.parse(body ?? {})) });
    }
    if (route === 'GET /__control/log') {
      const key = new URL(request.url ?? '/', 'http://local').searchParams.get('key') ?? '';
      return sendJson(response, 200, { entries: state.logOf(key), reads: state.logReads });
    }
    if (route === 'POST /__control/log') {
      const { key, entry } = logEntryBody.parse(body);
      return sendJson(response, 200, { entry: state.appendLog(key, entry) });
    }
    const force = /^\/__control\/tasks\/([^/]+)\/(complete|fail)$/.exec(path);
    if (method === 'POST' && force) {
      const task = state.tasks.get(decodeURIComponent(force[1]));
      if (!task) return sendJson(response, 404, { error: `no task ${force[1]}` });
      task.forced = force[2] === 'complete' ? 'completed' : 'failed';
      return sendJson(response, 200, { task });
    }
    return sendJson(response, 404, { error: `no control route ${route}` });
  } catch (error) {
    const message = error instanceof z.ZodError ? z.prettifyError(error) : error instanceof Error ? error.message : String(error);
    return sendJson(response, 400, { error: message });
  }
}
