// Pinned by `npm run bench -- --only poller`: requests per cycle, none while idle, a completion seen within one interval.
import type { StateStorage } from '../../common/stateStorage';
import { Disposable } from '../../common/lifecycle';
import type { ApiLogger } from '../../api/apiLogger';
import { Emitter, type Event } from '../../common/emitter';
import { isFinished, isPollable } from './taskModel';
import { parseTaskList, type VideoTaskRecord } from './videoTaskRecord';

export const TASKS_KEY = 'promptreel.video.tasks';

/** Writes remembered to recognise their late echoes, which trail by a write or two and arrive within milliseconds. */
const OWN_WRITES_KEPT = 8;
const ECHO_WINDOW_MS = 3_000;

/**
 * The video tasks, newest first, persisted in globalState so they survive reloads and every window sees them.
 * globalState is shared by windows but tells nobody when another window writes, so every change is a
 * read-modify-write on the freshest value (no cached copy is ever written back), and `reload()` picks up what
 * other windows wrote (the poller calls it on each tick, the view when it becomes visible).
 */
export class VideoTaskStore extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChange: Event<void> = this.changed.event;
  private readonly runningChanged = this._register(new Emitter<void>());
  readonly onDidChangeRunningCount: Event<void> = this.runningChanged.event;
  /** The stored list as last read or written, as an object and (made when first needed) as JSON. */
  private snapshot: { value: unknown; text?: string } = { value: undefined, text: '' };
  /** What this store wrote lately, newest last: globalState briefly hands back an older one (see `reload`). */
  private readonly ownWrites: { value: VideoTaskRecord[]; text?: string; at: number }[] = [];
  private cache: VideoTaskRecord[] = [];
  private running = 0;

  constructor(
    private readonly memento: StateStorage,
    private readonly historySize: () => number,
    private readonly log: ApiLogger,
  ) {
    super();
    this.reload();
  }

  /** Newest first. */
  get tasks(): readonly VideoTaskRecord[] {
    return this.cache;
  }

  get(id: string): VideoTaskRecord | undefined {
    return this.cache.find((task) => task.id === id);
  }

  /** Queued or running tasks (what the status bar counts). */
  get runningCount(): number {
    return this.running;
  }

  /** Re-reads globalState; fires onDidChange and returns true when another window changed something. */
  reload(): boolean {
    const raw = this.memento.get<unknown>(TASKS_KEY);
    // The same object as last time: nobody wrote since (the common case, and free: no list is serialized).
    if (raw !== undefined && raw === this.snapshot.value) return false;
    const text = JSON.stringify(raw ?? []);
    if (text === (this.snapshot.text ??= JSON.stringify(this.snapshot.value ?? []))) {
      this.snapshot = { value: raw, text };
      return false;
    }
    // VS Code echoes each globalState write back from its storage service; an echo that arrives after a newer
    // write replaces the value for a moment. Taking it for news would resurrect what was just removed.
    // Only a recent write counts: later, the same list written by another window is a real change.
    const now = Date.now();
    if (this.ownWrites.some((write) => now - write.at < ECHO_WINDOW_MS && (write.text ??= JSON.stringify(write.value)) === text)) return false;
    const { tasks, dropped } = parseTaskList(raw);
    if (dropped > 0) this.log.warn(`Ignoring ${dropped} stored video task(s) that could not be read.`);
    this.snapshot = { value: raw, text };
    this.setCache(tasks);
    return true;
  }

  /** Adds a task at the top (or replaces the one with the same id), then trims the list to the history size. */
  async add(record: VideoTaskRecord): Promise<void> {
    await this.mutate((tasks) => [record, ...tasks.filter((task) => task.id !== record.id)]);
  }

  /** Changes one task; `change` returning undefined leaves it as it is. Returns the stored result. */
  async update(id: string, change: (task: VideoTaskRecord) => VideoTaskRecord | undefined): Promise<VideoTaskRecord | undefined> {
    let result: VideoTaskRecord | undefined;
    await this.mutate((tasks) =>
      tasks.map((task) => {
        if (task.id !== id) return task;
        result = change(task) ?? task;
        return result;
      }),
    );
    return result;
  }

  /** Changes every task for which `change` returns a new record, in one write; returns how many changed. */
  async updateEach(change: (task: VideoTaskRecord) => VideoTaskRecord | undefined): Promise<number> {
    let changed = 0;
    await this.mutate((tasks) =>
      tasks.map((task) => {
        const next = change(task);
        if (next) changed++;
        return next ?? task;
      }),
    );
    return changed;
  }

  async remove(ids: readonly string[]): Promise<number> {
    let removed = 0;
    await this.mutate((tasks) => {
      const kept = tasks.filter((task) => !ids.includes(task.id));
      removed = tasks.length - kept.length;
      return kept;
    });
    return removed;
  }

  /** Applies the history size now (after the setting changed). */
  async trim(): Promise<void> {
    await this.mutate((tasks) => tasks);
  }

  private async mutate(change: (tasks: VideoTaskRecord[]) => VideoTaskRecord[]): Promise<void> {
    this.reload();
    const next = bounded(change([...this.cache]), this.historySize());
    if (next.length === this.cache.length && next.every((task, index) => task === this.cache[index])) return;
    // Serialized only when a reload needs to compare it: a write per poll answer stays cheap with hundreds of tasks.
    this.snapshot = { value: next };
    this.ownWrites.push({ value: next, at: Date.now() });
    if (this.ownWrites.length > OWN_WRITES_KEPT) this.ownWrites.shift();
    this.setCache(next);
    // VS Code's Memento keeps a copy of the value at once (and persists it in the background), and hands that copy back
    // until the next write: remembering it lets `reload` know the stored list unchanged without serializing it.
    const writing = this.memento.update(TASKS_KEY, next);
    const stored = this.memento.get<unknown>(TASKS_KEY);
    if (this.snapshot.value === next) this.snapshot = { value: stored };
    await writing;
  }

  private setCache(tasks: VideoTaskRecord[]): void {
    this.cache = tasks;
    this.changed.fire();
    const running = tasks.filter(isPollable).length;
    if (running !== this.running) {
      this.running = running;
      this.runningChanged.fire();
    }
  }
}

/** At most `size` tasks: finished ones go first (oldest first), pending ones only when nothing else is left. */
export function bounded(tasks: VideoTaskRecord[], size: number): VideoTaskRecord[] {
  if (tasks.length <= size) return tasks;
  const result = [...tasks];
  for (let index = result.length - 1; index >= 0 && result.length > size; index--) {
    if (isFinished(result[index]) || result[index].state === 'stale' || result[index].state === 'unconfirmed') result.splice(index, 1);
  }
  return result.slice(0, size);
}
