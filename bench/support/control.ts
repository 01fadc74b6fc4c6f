import { z } from 'zod';

const recordedSchema = z.object({ method: z.string(), path: z.string(), at: z.number() });
const requestsSchema = z.object({ requests: z.array(recordedSchema) });
const taskSchema = z.object({ task: z.object({ id: z.string() }).passthrough() });

/** The local service's control API, for what the bench needs beyond scenarios (see test/service/control.ts). */
export class ServiceControl {
  constructor(private readonly baseUrl: string) {}

  async requests(): Promise<z.infer<typeof recordedSchema>[]> {
    return requestsSchema.parse(await this.call('GET', 'requests')).requests;
  }

  /** Makes a task without HTTP to /v1 (so it is not recorded); returns the raw task for normalizeVideoTask. */
  async createTask(): Promise<Record<string, unknown> & { id: string }> {
    return taskSchema.parse(await this.call('POST', 'tasks', {})).task;
  }

  async completeTask(id: string): Promise<void> {
    await this.call('POST', `tasks/${encodeURIComponent(id)}/complete`, {});
  }

  private async call(method: 'GET' | 'POST', route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}/__control/${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json: unknown = await response.json();
    if (!response.ok) throw new Error(`control ${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }
}
