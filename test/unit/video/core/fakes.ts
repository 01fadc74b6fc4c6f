import { ApiError } from '../../../../src/api/errors';
import type { VideoTask } from '../../../../src/api/video/task';
import type { VideoTaskSource } from '../../../../src/video/core/videoPoller';
import type { FakeClock } from '../../../fakes/fakeClock';

export { FakeClock, settle } from '../../../fakes/fakeClock';
export { MemoryStorage } from '../../../fakes/memoryStorage';

export type Answer = VideoTask | ApiError | ((id: string) => VideoTask | ApiError);

/** The service as the poller sees it: scripted answers per task id, every request recorded with its time. */
export class FakeSource implements VideoTaskSource {
  readonly calls: { id: string; at: number }[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  fallback: Answer = (id) => ({ id, state: 'pending', status: 'in_progress' });
  /** When set, requests wait for it (to test requests in flight). */
  gate: Promise<void> | undefined;
  /** Per task: its requests wait for this (a slow answer for one task only). */
  readonly gates = new Map<string, Promise<void>>();
  aborted = 0;

  constructor(private readonly clock: FakeClock) {}

  /** The next answers for `id`, in order; the last one repeats. */
  script(id: string, ...answers: Answer[]): void {
    this.scripts.set(id, answers);
  }

  callsFor(id: string): number {
    return this.calls.filter((call) => call.id === id).length;
  }

  async getVideoTask(id: string, signal?: AbortSignal): Promise<VideoTask> {
    this.calls.push({ id, at: this.clock.now() });
    const gate = this.gates.get(id) ?? this.gate;
    if (gate) {
      await new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => {
          this.aborted++;
          reject(new ApiError({ kind: 'aborted', message: 'aborted', hint: '' }));
        });
        void gate.then(resolve);
      });
    }
    const list = this.scripts.get(id);
    const next = list && list.length > 1 ? list.shift() : list?.[0];
    const answer = next ?? this.fallback;
    const value = typeof answer === 'function' ? answer(id) : answer;
    if (value instanceof ApiError) throw value;
    return value;
  }
}

export const silentLog = { debug() {}, info() {}, warn() {}, error() {} };

export function pending(id: string, status = 'in_progress', progress?: number): VideoTask {
  return { id, state: 'pending', status, ...(progress !== undefined ? { progress } : {}) };
}

export function completed(id: string, videoUrl = `http://127.0.0.1:1/files/${id}.mp4`): VideoTask {
  return { id, state: 'completed', status: 'completed', progress: 100, videoUrl };
}

export function failedTask(id: string, error?: string): VideoTask {
  return { id, state: 'failed', status: 'failed', ...(error ? { error } : {}) };
}
