/** The timer functions the batcher uses; tests pass a fake one. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** About one display frame. */
export const FRAME_MS = 16;

/**
 * Collects streamed text and hands it to `apply` at most once per frame, never while the previous apply is still
 * running: however many chunks arrive, the document sees one edit per frame. The first text goes out at once
 * (on the next timer tick), later text waits for the frame to pass.
 */
export class FrameBatcher {
  private pending = '';
  private timer: unknown;
  private running: Promise<void> | undefined;
  private lastApplyAt = Number.NEGATIVE_INFINITY;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private draining = false;
  private applied = 0;

  constructor(
    private readonly apply: (text: string) => Promise<void>,
    private readonly clock: Clock = systemClock,
    private readonly frameMs = FRAME_MS,
  ) {}

  /** How many times `apply` was called. */
  get applyCount(): number {
    return this.applied;
  }

  /** Text received but not applied yet. */
  get pendingText(): string {
    return this.pending;
  }

  push(text: string): void {
    if (!text || this.stopped) return;
    this.pending += text;
    this.schedule();
  }

  /** Applies what is pending now and resolves once everything pushed so far is applied; rejects if an apply failed. */
  async drain(): Promise<void> {
    this.draining = true;
    this.cancelTimer();
    try {
      while (this.running || (this.pending && !this.stopped)) {
        if (this.running) await this.running;
        else await this.runOnce();
      }
    } finally {
      this.draining = false;
    }
    if (this.failure) throw this.failure.error;
  }

  /** Drops pending text and applies nothing more. */
  stop(): void {
    this.stopped = true;
    this.pending = '';
    this.cancelTimer();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.running || this.draining || this.stopped || !this.pending) return;
    const wait = Math.max(0, this.lastApplyAt + this.frameMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.runOnce();
    }, wait);
  }

  private runOnce(): Promise<void> {
    const text = this.pending;
    this.pending = '';
    this.lastApplyAt = this.clock.now();
    this.applied++;
    const run = this.apply(text).then(
      () => undefined,
      (error: unknown) => {
        this.failure ??= { error };
        this.stop();
      },
    );
    this.running = run.then(() => {
      this.running = undefined;
      this.schedule();
    });
    return this.running;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
