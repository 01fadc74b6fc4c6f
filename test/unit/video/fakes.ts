import { ApiError } from '../../../src/api/errors';
import type { VideoTask } from '../../../src/api/video/task';
import { toDisposable, type IDisposable } from '../../../src/common/lifecycle';
import type { Scheduler } from '../../../src/video/scheduler';
import type { StateMemento } from '../../../src/video/taskStore';
import type { VideoTaskSource } from '../../../src/video/videoPoller';

/** globalState as VS Code's Memento behaves: the value changes at once, persisting is asynchronous. */
export class FakeMemento implements StateMemento {
  readonly values = new Map<string, unknown>();
  writes = 0;

  get<T>(key: string): T | undefined {
    const value = this.values.get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }

  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
    return Promise.resolve();
  }
}

interface Timer {
  at: number;
  seq: number;
  callback: () => void;
}

/** A clock that only moves when told to; timers fire in order, with the promises they start settled in between. */
export class FakeClock implements Scheduler {
  private time: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, delayMs: number): IDisposable {
    const timer: Timer = { at: this.time + Math.max(0, delayMs), seq: this.seq++, callback };
    this.timers.push(timer);
    return toDisposable(() => {
      this.timers = this.timers.filter((candidate) => candidate !== timer);
    });
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** When the next timer fires, if any. */
  get nextTimerAt(): number | undefined {
    return this.timers.length ? Math.min(...this.timers.map((timer) => timer.at)) : undefined;
  }

  async advance(ms: number): Promise<void> {
    const target = this.time + ms;
    await settle();
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next || next.at > target) break;
      this.timers = this.timers.filter((timer) => timer !== next);
      this.time = next.at;
      next.callback();
      await settle();
    }
    this.time = target;
  }
}

/** Lets every promise chain started so far run to its end (the fake source answers without real I/O). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

export type Answer = VideoTask | ApiError | ((id: string) => VideoTask | ApiError);

/** The service as the poller sees it: scripted answers per task id, every request recorded with its time. */
export class FakeSource implements VideoTaskSource {
  readonly calls: { id: string; at: number }[] = [];
  private readonly scripts = new Map<string, Answer[]>();
  fallback: Answer = (id) => ({ id, state: 'pending', status: 'in_progress' });
  /** When set, requests wait for it (to test requests in flight). */
  gate: Promise<void> | undefined;
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
    if (this.gate) {
      await new Promise<void>((resolve, reject) => {
        signal?.addEventListener('abort', () => {
          this.aborted++;
          reject(new ApiError({ kind: 'aborted', message: 'aborted', hint: '' }));
        });
        void this.gate?.then(resolve);
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
