import * as z from 'zod/mini';
import type { StateStorage } from '../../common/stateStorage';
import { lazy } from '../../api/lazy';

export const LEASE_KEY = 'promptreel.video.pollLease';
/** In the window's own state (workspaceState): who this window is as the lease's owner, the same after a reload. */
export const LEASE_OWNER_KEY = 'promptreel.video.pollLeaseOwner';

const leaseSchema = lazy(() => z.object({ owner: z.string(), expiresAt: z.number() }));

/**
 * Which window polls. Windows share globalState but not timers: the window holding an unexpired lease polls and
 * writes the results into the shared task list; the others only read it. The holder renews the lease on every
 * tick (well within `ttlMs`) and gives it up when nothing is pending or when it closes; a window that died
 * without giving it up loses it after `ttlMs`. globalState has no compare-and-swap, so two windows that take a
 * free lease at the same moment may both poll until the next tick shows one of them it lost: a few duplicate
 * GETs at worst, never a duplicate task.
 */
export class PollLease {
  /**
   * This window's name as a lease owner, kept in the window's own state: a reloaded window is the same owner and takes
   * its lease back at once. Its release on the way out may never land (a reload in the browser ends the page before the
   * extension host's last writes), and a new name would wait out `ttlMs` before polling again.
   */
  static ownerOfWindow(windowState: StateStorage, newOwner: () => string): string {
    const kept = windowState.get<unknown>(LEASE_OWNER_KEY);
    if (typeof kept === 'string' && kept.length > 0) return kept;
    const owner = newOwner();
    void windowState.update(LEASE_OWNER_KEY, owner);
    return owner;
  }

  constructor(
    private readonly memento: StateStorage,
    readonly owner: string,
    readonly ttlMs = 45_000,
    /** One lease per service: windows set to different services each poll their own tasks. */
    private readonly key: () => string = () => LEASE_KEY,
  ) {}

  private current(): z.infer<ReturnType<typeof leaseSchema>> | undefined {
    const parsed = leaseSchema().safeParse(this.memento.get<unknown>(this.key()));
    return parsed.success ? parsed.data : undefined;
  }

  /** True when another window holds a live lease. */
  heldByOther(now: number): boolean {
    const lease = this.current();
    return !!lease && lease.owner !== this.owner && lease.expiresAt > now;
  }

  /** Takes or renews the lease unless another window holds a live one; true when this window may poll. */
  tryAcquire(now: number): boolean {
    if (this.heldByOther(now)) return false;
    void this.memento.update(this.key(), { owner: this.owner, expiresAt: now + this.ttlMs });
    return true;
  }

  /** Gives the lease up; resolves once the shared state has it (a window that closes waits for that). */
  release(): Promise<void> {
    if (this.current()?.owner !== this.owner) return Promise.resolve();
    return Promise.resolve(this.memento.update(this.key(), undefined)).then(() => undefined);
  }
}
