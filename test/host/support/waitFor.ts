export interface WaitOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** What is awaited, for the timeout message. */
  what?: string;
}

/** Polls `probe` until it returns something truthy and resolves with it; rejects after the timeout. */
export async function waitFor<T>(probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: WaitOptions = {}): Promise<T> {
  const { timeoutMs = 10_000, intervalMs = 50, what = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      const detail = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
