type Step<T> = IteratorResult<T, void>;
const END: Step<never> = Object.freeze({ value: undefined, done: true });

/**
 * An AsyncIterable that opens its source (sends the request) when iteration starts, then hands each `next()` straight
 * to that source. An `async function*` doing `yield*` would do the same with an extra promise and microtask per event.
 * Each iteration opens its own source; `return()` (a `break`) closes the source, even one that is still opening.
 */
export function openOnRead<T>(open: () => Promise<AsyncIterator<T, void>>): AsyncIterable<T> {
  return { [Symbol.asyncIterator]: () => new OpenOnReadIterator(open) };
}

class OpenOnReadIterator<T> implements AsyncIterator<T, void> {
  private source: AsyncIterator<T, void> | undefined;
  private opening: Promise<AsyncIterator<T, void> | undefined> | undefined;
  private closed = false;

  constructor(private readonly open: () => Promise<AsyncIterator<T, void>>) {}

  next(): Promise<Step<T>> {
    if (this.source) return this.source.next();
    if (this.closed) return Promise.resolve(END);
    return this.opened().then((source) => (source ? source.next() : END));
  }

  async return(): Promise<Step<T>> {
    this.closed = true;
    const source = this.source ?? (this.opening ? await this.opening.catch(() => undefined) : undefined);
    await source?.return?.();
    return END;
  }

  private opened(): Promise<AsyncIterator<T, void> | undefined> {
    this.opening ??= this.open().then(
      (source) => {
        if (this.closed) {
          // Closed while the request was on its way: release what it opened.
          void source.return?.()?.catch(() => undefined);
          return undefined;
        }
        this.source = source;
        return source;
      },
      (error: unknown) => {
        this.closed = true;
        throw error;
      },
    );
    return this.opening;
  }
}
