/** Anything that holds resources; structurally compatible with `vscode.Disposable`. */
export interface IDisposable {
  dispose(): void;
}

export function toDisposable(dispose: () => void): IDisposable {
  let disposed = false;
  return {
    dispose() {
      if (disposed) return;
      disposed = true;
      dispose();
    },
  };
}

/** Disposes everything added to it, newest first, exactly once. */
export class DisposableStore implements IDisposable {
  private readonly items: IDisposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<T extends IDisposable>(item: T): T {
    if (this.disposed) {
      // Adding after disposal would leak: release it at once instead.
      item.dispose();
    } else {
      this.items.push(item);
    }
    return item;
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of this.items.splice(0).reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'Several disposables failed to dispose.');
  }
}

/** Base class for objects that own registrations: `_register` them and `dispose()` releases them all. */
export abstract class Disposable implements IDisposable {
  // An ES private name, so subclasses are free to have a member called `store`.
  readonly #registrations = new DisposableStore();

  protected _register<T extends IDisposable>(item: T): T {
    return this.#registrations.add(item);
  }

  /** For work that resumes after an await: whether the object was disposed meanwhile. */
  protected get isDisposed(): boolean {
    return this.#registrations.isDisposed;
  }

  dispose(): void {
    this.#registrations.dispose();
  }
}

/** Holds at most one disposable; setting a new value disposes the previous one (e.g. an in-flight request). */
export class MutableDisposable<T extends IDisposable> implements IDisposable {
  private current: T | undefined;
  private disposed = false;

  get value(): T | undefined {
    return this.current;
  }

  set value(value: T | undefined) {
    if (this.disposed) {
      value?.dispose();
      return;
    }
    if (value === this.current) return;
    const previous = this.current;
    this.current = value;
    previous?.dispose();
  }

  clear(): void {
    this.value = undefined;
  }

  dispose(): void {
    this.disposed = true;
    const previous = this.current;
    this.current = undefined;
    previous?.dispose();
  }
}
