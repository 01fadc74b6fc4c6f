/**
 * Runs `work` over the items, at most `concurrency` at a time, in order. Before each item it asks `proceed`; once
 * that says no, no further item starts (those running finish).
 */
export async function runBounded<T>(items: readonly T[], concurrency: number, proceed: () => boolean, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) {
      if (!proceed()) return;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, concurrency), queue.length) }, worker));
}
