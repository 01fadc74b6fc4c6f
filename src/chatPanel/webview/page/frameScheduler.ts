// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
/** The frame functions the scheduler uses; tests pass fake ones (the scheduler itself touches no DOM). */
export interface FrameHost {
  requestFrame(callback: () => void): unknown;
  now(): number;
  /** A job threw: reported on its own, so the other jobs of the frame still run. */
  reportError(error: unknown): void;
}

export const browserFrames: FrameHost = {
  requestFrame: (callback) => requestAnimationFrame(() => callback()),
  now: () => performance.now(),
  reportError: (error) => reportError(error),
};

/** `now`: what the user is watching (a streaming reply, the scroll that follows it): every frame. `later`: the rest. */
export type JobPriority = 'now' | 'later';

/** About half of a 60 Hz frame: what background work may take per frame, leaving the rest to layout and paint. */
export const FRAME_BUDGET_MS = 8;

/**
 * Runs the page's rendering work in animation frames. Each owner has at most one job queued (scheduling again keeps
 * its place, replacing the job). Per frame, every `now` job runs, in the order queued (jobs queued meanwhile, such as
 * the scroll after a render, run in the same frame); then `later` jobs run, in the order queued, until the frame has
 * used its budget (at least one per frame, so background work always advances). A burst of work, like a long conversation shown at
 * once, is thus spread over frames instead of blocking one.
 */
export class FrameScheduler {
  private readonly urgent = new Map<object, () => void>();
  private readonly background = new Map<object, () => void>();
  private frame: unknown;
  private running = false;

  constructor(
    private readonly host: FrameHost = browserFrames,
    private readonly budgetMs = FRAME_BUDGET_MS,
  ) {}

  /** Jobs waiting for a frame. */
  get pending(): number {
    return this.urgent.size + this.background.size;
  }

  /** Queues the owner's job; a `now` job replaces a `later` one of the same owner (never the other way round). */
  schedule(owner: object, job: () => void, priority: JobPriority = 'now'): void {
    if (priority === 'now') {
      this.background.delete(owner);
      this.urgent.set(owner, job);
    } else if (this.urgent.has(owner)) {
      this.urgent.set(owner, job);
    } else {
      this.background.set(owner, job);
    }
    this.request();
  }

  cancel(owner: object): void {
    this.urgent.delete(owner);
    this.background.delete(owner);
  }

  private request(): void {
    if (this.frame !== undefined || this.running) return;
    this.frame = this.host.requestFrame(() => this.run());
  }

  private run(): void {
    this.frame = undefined;
    this.running = true;
    const started = this.host.now();
    try {
      this.runUrgent();
      let ran = 0;
      for (const [owner, job] of [...this.background]) {
        if (ran > 0 && this.host.now() - started >= this.budgetMs) break;
        if (this.background.get(owner) !== job) continue;
        this.background.delete(owner);
        this.runJob(job);
        ran++;
        // Urgent work queued by a background job (the scroll after it) still belongs to this frame.
        this.runUrgent();
      }
    } finally {
      this.running = false;
      if (this.pending > 0) this.request();
    }
  }

  private runJob(job: () => void): void {
    try {
      job();
    } catch (error) {
      this.host.reportError(error);
    }
  }

  /** The urgent jobs, and those they queue (a few rounds: a job that keeps queueing itself waits for the next frame). */
  private runUrgent(): void {
    for (let round = 0; round < 3 && this.urgent.size > 0; round++) {
      const jobs = [...this.urgent];
      this.urgent.clear();
      for (const [, job] of jobs) this.runJob(job);
    }
  }
}
