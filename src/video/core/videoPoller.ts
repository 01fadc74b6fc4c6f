// Pinned by `npm run bench -- --only poller`: requests per cycle, none while idle, a completion seen within one interval.
import { isApiError, type ApiError } from '../../api/errors';
import type { ApiLogger } from '../../api/apiLogger';
import type { VideoTask } from '../../api/video/task';
import { Disposable, MutableDisposable, toDisposable } from '../../common/lifecycle';
import { Emitter, type Event } from '../../common/emitter';
import type { PollLease } from './pollLease';
import { pollDelay, timerDelay } from './pollSchedule';
import type { Clock } from '../../common/clock';
import { applyAnswer, asStale, asUnknownTask, isFollowedHere, isPastStaleLimit, isPollable, isUnknownTask } from './taskModel';
import type { VideoTaskStore } from './taskStore';
import type { VideoTaskRecord } from './videoTaskRecord';

/** What the poller asks (a PromptreelClient in the extension, a fake in unit tests). */
export interface VideoTaskSource {
  getVideoTask(id: string, signal?: AbortSignal): Promise<VideoTask>;
}

export interface PollerSettings {
  pollIntervalSeconds: number;
  staleAfterHours: number;
}

export interface PollerOptions {
  store: VideoTaskStore;
  /** The client for the current settings; undefined while there is no base URL (nothing is polled). */
  source: () => VideoTaskSource | undefined;
  /**
   * The service `source` talks to (the normalized base URL): only tasks made there are polled, so a task is never
   * asked about (and failed as unknown) on another service, nor with another service's key.
   */
  service: () => string | undefined;
  clock: Clock;
  lease: PollLease;
  settings: () => PollerSettings;
  /** The Video Tasks view is visible: poll faster. */
  viewVisible: () => boolean;
  log: ApiLogger;
  /** Requests in flight while the poller keeps up (default 3). */
  concurrency?: number;
  /** Requests in flight at most while due tasks wait for a free slot (default 8). */
  maxConcurrency?: number;
}

/** A task became final while this window was polling. */
export interface TaskFinished {
  task: VideoTaskRecord;
  state: 'completed' | 'failed';
}

export type PollerPause = 'offline' | 'auth' | undefined;

const DEFAULT_CONCURRENCY = 3;
const DEFAULT_MAX_CONCURRENCY = 8;
/** A task overdue by more than this share of the interval waits past its time: the poller is behind and opens more slots. */
const LATE_FRACTION = 0.02;

/**
 * The one poller. One timer, set only while some task is queued or running: each tick asks the service about
 * every task that is due, one request per task. Each slot that an answer frees takes the task that has waited
 * longest, including tasks that fell due since the tick, so a slow answer never holds a due task back; while due
 * tasks wait past their time, up to `maxConcurrency` requests go out at once. Then the timer is set for the next due
 * task. Per-task delays back off with the task's age and its failed polls; a `Retry-After` holds every request back;
 * a network failure pauses polling (one probe at a time) until the service answers again; a refused key pauses it
 * until `resume()`. Tasks pending past the stale limit are marked stale and left alone.
 */
export class VideoPoller extends Disposable {
  private readonly timer = this._register(new MutableDisposable());
  private readonly inFlight = new Set<AbortController>();
  private readonly finished = this._register(new Emitter<TaskFinished>());
  readonly onDidFinishTask: Event<TaskFinished> = this.finished.event;
  private readonly pauseChanged = this._register(new Emitter<PollerPause>());
  /** Polling paused (offline, key refused) or resumed (undefined). */
  readonly onDidChangePause: Event<PollerPause> = this.pauseChanged.event;
  private ticking = false;
  /** Answers not yet in the store, and the write putting them there. */
  private readonly answers = new Map<string, { answer: VideoTask; at: number; sentAt: number }>();
  private writing: Promise<void> | undefined;
  private disposed = false;
  private pausedFor: PollerPause;
  private failedProbes = 0;
  /** No request before this time (a `Retry-After`). */
  private notBefore = 0;
  private readonly concurrency: number;
  private readonly maxConcurrency: number;
  /** Tasks asked whose answers are not yet in the store: no other slot takes them meanwhile. */
  private readonly claimed = new Set<string>();
  /** Loops sending one request at a time (see `openSlot`). */
  private slots = 0;
  /** This window held the lease at the last tick: its slots may go on. */
  private holdsLease = false;

  constructor(private readonly options: PollerOptions) {
    super();
    this.concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
    this.maxConcurrency = Math.max(this.concurrency, options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    this._register(options.store.onDidChange(() => this.schedule()));
    this._register(
      toDisposable(() => {
        this.disposed = true;
        for (const controller of this.inFlight) controller.abort();
        this.inFlight.clear();
        void options.lease.release();
      }),
    );
    this.schedule();
  }

  /** Stops polling and gives the lease up, resolving once other windows can take it (the extension is closing). */
  async stop(): Promise<void> {
    this.disposed = true;
    this.timer.clear();
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    await this.options.lease.release();
  }

  /** Why polling is paused, if it is. */
  get pause(): PollerPause {
    return this.pausedFor;
  }

  /** A timer is set (false when nothing is pending, or while paused for the key). */
  get isScheduled(): boolean {
    return this.timer.value !== undefined;
  }

  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /** Polls these tasks (default: every pending one) as soon as possible, stale ones included. */
  async pollNow(ids?: readonly string[]): Promise<void> {
    const now = this.options.clock.now();
    const wanted = (task: VideoTaskRecord) => (ids ? ids.includes(task.id) : true);
    for (const task of this.followedTasks().filter(wanted)) {
      if (task.state === 'stale' && ids) {
        await this.pollStale(task);
      } else if (isPollable(task)) {
        await this.options.store.update(task.id, (current) => ({ ...current, nextPollAt: now }));
      }
    }
    this.schedule();
  }

  /** After the key changed: polling starts again. */
  resume(): void {
    if (this.pausedFor === 'auth') this.setPause(undefined);
    this.schedule();
  }

  /** Sets the one timer for the next due task that no request is out for, or none when nothing is pending. */
  schedule(): void {
    if (this.disposed || this.ticking) return;
    const { clock, lease } = this.options;
    const pollable = this.followedTasks().filter(isPollable);
    if (pollable.length === 0) {
      this.timer.clear();
      void lease.release();
      return;
    }
    if (this.pausedFor === 'auth') {
      this.timer.clear();
      return;
    }
    const now = clock.now();
    const waiting = pollable.filter((task) => !this.claimed.has(task.id));
    const due = waiting.length > 0 ? Math.min(...waiting.map((task) => task.nextPollAt ?? now)) : Number.POSITIVE_INFINITY;
    // Slots running take due tasks themselves: the timer opens another only for a task they leave waiting (late),
    // and with every slot open (or every pending task asked) it only keeps the lease; the answers schedule again.
    const nextDue = this.slots >= this.maxConcurrency ? Number.POSITIVE_INFINITY : this.slots >= this.concurrency ? due + this.lateMs() + 1 : due;
    const delay = timerDelay({
      now,
      baseMs: this.baseMs(),
      follower: lease.heldByOther(now),
      offlineProbes: this.pausedFor === 'offline' ? this.failedProbes : undefined,
      nextDue,
      notBefore: this.notBefore,
      leaseTtlMs: lease.ttlMs,
    });
    this.timer.value = clock.setTimeout(() => void this.tick(), delay);
  }

  private async tick(): Promise<void> {
    if (this.disposed || this.ticking) return;
    this.timer.clear();
    this.ticking = true;
    try {
      await this.cycle();
    } catch (error) {
      this.options.log.error(`the poll cycle failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.ticking = false;
      this.schedule();
    }
  }

  private async cycle(): Promise<void> {
    const { store, clock, lease, settings } = this.options;
    store.reload();
    const now = clock.now();
    await this.markStale(now, settings().staleAfterHours);
    const pollable = this.followedTasks().filter(isPollable);
    this.holdsLease = pollable.length > 0 && lease.tryAcquire(now);
    if (!this.holdsLease || now < this.notBefore) return;
    const source = this.options.source();
    if (!source) return;
    if (this.pausedFor === 'offline') {
      // Offline: one probe; when it gets an answer, the others follow at once.
      if (this.inFlight.size > 0) return;
      const due = pollable.filter((task) => (task.nextPollAt ?? 0) <= now).sort((a, b) => (a.nextPollAt ?? 0) - (b.nextPollAt ?? 0));
      await this.pollOne((due[0] ?? pollable[0]).id, source);
      // The next timer is set from what the answer says: it is in the store first.
      await this.answersWritten();
      return;
    }
    for (let task = this.nextDue(); task && this.slots < this.slotLimit(task); task = this.nextDue()) this.openSlot(source);
  }

  /** `concurrency` slots while the poller keeps up; up to `maxConcurrency` while a task waits past its time. */
  private slotLimit(task: VideoTaskRecord): number {
    return this.options.clock.now() - (task.nextPollAt ?? 0) > this.lateMs() ? this.maxConcurrency : this.concurrency;
  }

  /**
   * One request at a time, each for the task that has waited longest, until none is due. A slot that finds itself
   * behind (another task overdue by more than 2% of the interval) opens another, up to `maxConcurrency`.
   */
  private openSlot(source: VideoTaskSource): void {
    this.slots++;
    const proceed = () => !this.disposed && this.holdsLease && this.pausedFor === undefined && this.options.clock.now() >= this.notBefore;
    void (async () => {
      try {
        for (let task = proceed() ? this.nextDue() : undefined; task; task = proceed() ? this.nextDue() : undefined) {
          this.claimed.add(task.id);
          const waiting = this.nextDue();
          if (waiting && this.slots < this.slotLimit(waiting)) this.openSlot(source);
          await this.pollOne(task.id, source);
        }
      } catch (error) {
        this.options.log.error(`polling failed: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        this.slots--;
        this.schedule();
      }
    })();
  }

  /** The due task that has waited longest and that no request is out for. */
  private nextDue(): VideoTaskRecord | undefined {
    const now = this.options.clock.now();
    let best: VideoTaskRecord | undefined;
    for (const task of this.followedTasks()) {
      const due = task.nextPollAt ?? 0;
      if (due > now || this.claimed.has(task.id) || !isPollable(task)) continue;
      if (!best || due < (best.nextPollAt ?? 0)) best = task;
    }
    return best;
  }

  private async pollOne(id: string, source: VideoTaskSource): Promise<void> {
    // The next poll is timed from when this one was sent: how long the answer took does not stretch the interval.
    const sentAt = this.options.clock.now();
    const controller = new AbortController();
    this.inFlight.add(controller);
    let answer: VideoTask;
    try {
      answer = await source.getVideoTask(id, controller.signal);
    } catch (error) {
      this.inFlight.delete(controller);
      try {
        if (!controller.signal.aborted && !this.disposed) await this.failed(id, error);
      } finally {
        this.release([id]);
      }
      return;
    }
    this.inFlight.delete(controller);
    if (this.disposed) return;
    if (this.pausedFor === 'offline') {
      this.options.log.info('the service answers again: polling resumes.');
      this.failedProbes = 0;
      this.setPause(undefined);
    }
    this.answers.set(id, { answer, at: this.options.clock.now(), sentAt });
    this.writing ??= this.writeAnswers().finally(() => {
      this.writing = undefined;
      // An answer that came as the last write ended.
      if (this.answers.size > 0 && !this.disposed) this.writing = this.writeAnswers().finally(() => (this.writing = undefined));
    });
  }

  /**
   * Writes the answers that came meanwhile in one store write: the list is written once per batch, not once per
   * answer (with hundreds of tasks pending, a write per answer is what limits how many are asked per second).
   */
  private async writeAnswers(): Promise<void> {
    // Answers that came in the same turn of the event loop join this write.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.answers.size > 0 && !this.disposed) {
      const batch = new Map(this.answers);
      this.answers.clear();
      const finished: TaskFinished[] = [];
      try {
        await this.options.store.updateEach((current) => {
          const got = batch.get(current.id);
          if (!got) return undefined;
          const { answer, at, sentAt } = got;
          this.options.log.debug(`${current.id}: ${answer.status}${answer.progress !== undefined ? ` ${answer.progress}%` : ''}`);
          const { record, transition } = applyAnswer(current, answer, at);
          if (transition) finished.push({ task: record, state: transition });
          if (!isPollable(record)) return record;
          // A task tracked by id may turn out to be older than the limit as soon as the service says when it began.
          if (isPastStaleLimit(record, at, this.options.settings().staleAfterHours)) return asStale(record);
          const delay = this.delayFor(record, at);
          // The interval is the longest a completion may go unseen: the next answer takes as long to come back as this
          // one did, so the request leaves that much before the interval is over. A slow answer never makes the next
          // request follow at once: at least half the delay after the answer.
          const roundTrip = at - sentAt;
          return { ...record, nextPollAt: Math.max(sentAt + delay - roundTrip, at + delay / 2) };
        });
      } finally {
        this.release(batch.keys());
      }
      for (const event of finished) {
        this.options.log.info(`${event.task.id} ${event.state}${event.task.error ? `: ${event.task.error}` : ''}`);
        this.finished.fire(event);
      }
    }
  }

  /** These tasks' answers are in the store (or their requests failed): they may be asked again when due. */
  private release(ids: Iterable<string>): void {
    for (const id of ids) this.claimed.delete(id);
    this.schedule();
  }

  private async failed(id: string, error: unknown): Promise<void> {
    const now = this.options.clock.now();
    const apiError = isApiError(error) ? error : undefined;
    const message = error instanceof Error ? error.message : String(error);
    if (apiError && (apiError.kind === 'network' || apiError.kind === 'timeout')) {
      if (this.pausedFor !== 'offline') this.options.log.warn(`the service cannot be reached (${message}): polling pauses until it answers again.`);
      else this.failedProbes++;
      this.setPause('offline');
      return;
    }
    if (apiError && (apiError.kind === 'no-key' || apiError.status === 401)) {
      this.options.log.warn(`polling paused: ${message}`);
      this.setPause('auth');
      return;
    }
    if (apiError && isUnknownTask(apiError)) {
      await this.markUnknown(id, apiError, now);
      return;
    }
    if (apiError?.retryAfterMs !== undefined) {
      this.notBefore = Math.max(this.notBefore, now + apiError.retryAfterMs);
      this.options.log.warn(`the service asks to wait ${Math.ceil(apiError.retryAfterMs / 1000)} s (HTTP ${apiError.status ?? '?'}).`);
    } else {
      this.options.log.warn(`polling ${id} failed: ${message}`);
    }
    await this.options.store.update(id, (current) => {
      const errors = (current.consecutiveErrors ?? 0) + 1;
      const backedOff = now + this.delayFor({ ...current, consecutiveErrors: errors }, now);
      return { ...current, consecutiveErrors: errors, lastPollError: message, lastPolledAt: now, nextPollAt: Math.max(backedOff, this.notBefore) };
    });
  }

  private async markUnknown(id: string, error: ApiError, now: number): Promise<void> {
    this.options.log.warn(`the service does not know ${id}: ${error.message}`);
    let finished: TaskFinished | undefined;
    await this.options.store.update(id, (current) => {
      const record = asUnknownTask(current, error, now);
      finished = { task: record, state: 'failed' };
      return record;
    });
    if (finished) this.finished.fire(finished);
  }

  private async markStale(now: number, staleAfterHours: number): Promise<void> {
    for (const task of this.followedTasks().filter((candidate) => isPastStaleLimit(candidate, now, staleAfterHours))) {
      this.options.log.info(`${task.id} is still ${task.rawStatus} after ${staleAfterHours} h: marked stale, no longer polled.`);
      await this.options.store.update(task.id, (current) => asStale(current, now));
    }
  }

  /** Refresh of a stale task: one request, whatever the schedule; it stays stale unless it became final. */
  private async pollStale(task: VideoTaskRecord): Promise<void> {
    const source = this.options.source();
    if (!source) return;
    await this.pollOne(task.id, source);
    await this.answersWritten();
  }

  private async answersWritten(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** The tasks of the service this window is set to; the others are left alone. */
  private followedTasks(): VideoTaskRecord[] {
    const service = this.options.service();
    return this.options.store.tasks.filter((task) => isFollowedHere(task, service));
  }

  private baseMs(): number {
    return this.options.settings().pollIntervalSeconds * 1000;
  }

  private lateMs(): number {
    return this.baseMs() * LATE_FRACTION;
  }

  private delayFor(record: VideoTaskRecord, now: number): number {
    return pollDelay({
      baseMs: this.baseMs(),
      viewVisible: this.options.viewVisible(),
      ageMs: now - record.createdAt,
      consecutiveErrors: record.consecutiveErrors ?? 0,
    });
  }

  private setPause(pause: PollerPause): void {
    if (this.pausedFor === pause) return;
    this.pausedFor = pause;
    this.pauseChanged.fire(pause);
  }
}
