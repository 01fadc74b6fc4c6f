import { Worker } from 'node:worker_threads';
import { lineMatch, type TextMatch } from './textSearch';

/** How long a model's regular expression may work on one file before the search is stopped. */
export const REGEXP_BUDGET_MS = 1_000;
/** A worker that has not started in this long is given up. */
const START_BUDGET_MS = 15_000;

// The worker's code, as source: it needs no file of its own beside the bundle (`eval`). It answers, for each text,
// the 0-based index of each matching line and where the match starts, at most `limit` of them. Each line is matched
// alone, so `^` and `$` mean the line's start and end.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ id, text, limit }) => {
  const found = [];
  const lines = text.split(/\\r?\\n/);
  for (let index = 0; index < lines.length && found.length < limit; index++) {
    const match = pattern.exec(lines[index]);
    if (match) found.push([index, match.index]);
  }
  parentPort.postMessage({ id, found });
});
`;

interface Pending {
  path: string;
  text: string;
  resolve: (result: TextMatch[] | string) => void;
}

/**
 * Runs a model's regular expression over files on a worker thread, within a time budget. A JavaScript regular
 * expression backtracks: `(a+)+$` takes exponential time on a line of `a`s, and on the extension host's thread it
 * would freeze every extension. When one file takes longer than the budget, the worker is ended and the search
 * answers why it stopped.
 */
export class RegExpLineSearch {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private started = false;
  private stopped: string | undefined;
  private watchdog: ReturnType<typeof setTimeout> | undefined;

  constructor(
    pattern: RegExp,
    private readonly budgetMs = REGEXP_BUDGET_MS,
  ) {
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { source: pattern.source, flags: pattern.flags },
      // A runaway match may also allocate: the worker's heap is bounded, not the extension host's.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    this.worker.unref();
    this.worker.on('online', () => {
      this.started = true;
      this.arm();
    });
    this.worker.on('message', ({ id, found }: { id: number; found: [number, number][] }) => {
      const request = this.pending.get(id);
      if (!request) return;
      this.pending.delete(id);
      this.arm();
      const lines = request.text.split(/\r?\n/);
      request.resolve(found.map(([index, at]) => lineMatch(request.path, lines[index] ?? '', index, at)));
    });
    this.worker.on('error', (error) => this.stop(`The regular expression could not run: ${error.message}`));
    this.worker.on('exit', () => this.stop('The regular expression search ended early.'));
    this.arm();
  }

  /** The matching lines of a file (at most `limit`), or why the search stopped. */
  matchLines(path: string, text: string, limit: number): Promise<TextMatch[] | string> {
    if (this.stopped) return Promise.resolve(this.stopped);
    return new Promise((resolve) => {
      const id = this.nextId++;
      this.pending.set(id, { path, text, resolve });
      this.worker.postMessage({ id, text, limit });
      this.arm();
    });
  }

  dispose(): void {
    this.stop('The search was stopped.');
  }

  /** The worker answers in order: when it has answered nothing for the budget, the oldest file is the one it is stuck on. */
  private arm(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = undefined;
    if (this.stopped) return;
    if (!this.started) {
      this.watchdog = setTimeout(() => this.stop('The regular expression search could not start.'), START_BUDGET_MS);
      return;
    }
    const stuck = this.pending.values().next().value;
    if (!stuck) return;
    this.watchdog = setTimeout(() => {
      const seconds = this.budgetMs / 1000;
      this.stop(
        `The regular expression took more than ${seconds} second${seconds === 1 ? '' : 's'} on ${stuck.path}, so the search was stopped: ` +
          'it backtracks too much (nested repetition such as (a+)+ does). Search for plain text, or write a simpler expression.',
      );
    }, this.budgetMs);
  }

  private stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = reason;
    if (this.watchdog) clearTimeout(this.watchdog);
    void this.worker.terminate();
    for (const request of this.pending.values()) request.resolve(reason);
    this.pending.clear();
  }
}
