import type { Clock } from '../../common/clock';

/** How long a finished call is remembered: a caller that retries it (a timeout, a lost answer) gets its result again. */
export const REMEMBERED_MS = 60_000;

interface Entry<T> {
  result: Promise<T>;
  settledAt?: number;
}

/**
 * At most one run per call: a call made again while it runs, or within a minute after, shares the first run's
 * result, so one confirmed tool call never creates two tasks. Keys are the caller's chat and the call's input.
 */
export class ToolCallLedger<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(private readonly clock: Clock) {}

  run(key: string, start: () => Promise<T>): { result: Promise<T>; repeated: boolean } {
    this.forgetOld();
    const existing = this.entries.get(key);
    if (existing) return { result: existing.result, repeated: true };
    const entry: Entry<T> = { result: start() };
    this.entries.set(key, entry);
    const settle = () => (entry.settledAt = this.clock.now());
    entry.result.then(settle, settle);
    return { result: entry.result, repeated: false };
  }

  /** Whether `run` would share an earlier run of this call (it runs, or ended within the minute). */
  has(key: string): boolean {
    this.forgetOld();
    return this.entries.has(key);
  }

  get size(): number {
    this.forgetOld();
    return this.entries.size;
  }

  private forgetOld(): void {
    const now = this.clock.now();
    for (const [key, entry] of this.entries) if (entry.settledAt !== undefined && now - entry.settledAt > REMEMBERED_MS) this.entries.delete(key);
  }
}

/** The ledger key of a call: the chat it came from (none outside a chat) and its input, key order ignored. */
export function callKey(chat: unknown, input: Record<string, unknown>): string {
  const sorted = Object.fromEntries(Object.entries(input).sort(([a], [b]) => a.localeCompare(b)));
  let from: string;
  try {
    from = JSON.stringify(chat ?? null);
  } catch {
    from = String(chat);
  }
  return JSON.stringify([from, sorted]);
}
