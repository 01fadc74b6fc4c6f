// Pinned by `npm run bench -- --only editor`: time over the stream alone, and one undo step.
import { systemClock, type Clock } from '../../common/clock';
import type { IDisposable } from '../../common/lifecycle';

/** About one display frame. */
export const FRAME_MS = 16;

/**
 * Collects streamed text and hands it to `apply` at most once per frame, never while the previous apply is still
 * running: however many chunks arrive, the document sees one edit per frame. The first text goes out at once (on the
 * next timer tick, so the chunks of one network read go together); after an apply, what arrived meanwhile goes out as
 * soon as it came back, if a frame has passed, without waiting for a timer (a busy event loop runs timers late).
 * At the end, `close` hands the last text back to the caller, who writes it together with whatever ends the writing.
 */
export class FrameBatcher {
  private pending = '';
  private timer: IDisposable | undefined;
  private running: Promise<void> | undefined;
  private lastApplyAt = Number.NEGATIVE_INFINITY;
  private failure: { error: unknown } | undefined;
  private stopped = false;
  private closing = false;
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
    if (!text || this.stopped || this.closing) return;
    this.pending += text;
    this.schedule();
  }

  /**
   * Ends the batching: waits for the apply in flight (none starts any more, not even for a frame that is due) and
   * resolves with the text still pending, which is NOT applied; rejects if an apply failed.
   */
  async close(): Promise<string> {
    this.closing = true;
    this.cancelTimer();
    while (this.running) await this.running;
    const rest = this.stopped ? '' : this.pending;
    this.pending = '';
    this.stopped = true;
    if (this.failure) throw this.failure.error;
    return rest;
  }

  /** Drops pending text and applies nothing more. */
  stop(): void {
    this.stopped = true;
    this.pending = '';
    this.cancelTimer();
  }

  private schedule(afterApply = false): void {
    if (this.timer !== undefined || this.running || this.closing || this.stopped || !this.pending) return;
    const wait = Math.max(0, this.lastApplyAt + this.frameMs - this.clock.now());
    if (afterApply && wait === 0) {
      void this.runOnce();
      return;
    }
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
      this.schedule(true);
    });
    return this.running;
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.timer.dispose();
    this.timer = undefined;
  }
}
