import { toDisposable, type IDisposable } from './lifecycle';

/** Shaped like `vscode.Event`, so plain-Node code (the `core` of each feature, the stores) fires events the UI listens to. */
export type Event<T> = (listener: (event: T) => unknown, thisArgs?: unknown, disposables?: IDisposable[]) => IDisposable;

/** A minimal event emitter without `vscode`: the one emitter of code that runs in plain Node under unit tests. */
export class Emitter<T> implements IDisposable {
  private listeners: ((event: T) => unknown)[] = [];

  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const bound = thisArgs === undefined ? listener : listener.bind(thisArgs);
    this.listeners.push(bound);
    const subscription = toDisposable(() => {
      this.listeners = this.listeners.filter((candidate) => candidate !== bound);
    });
    disposables?.push(subscription);
    return subscription;
  };

  fire(event: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // One failing listener must not keep the others from hearing about the change.
      }
    }
  }

  dispose(): void {
    this.listeners = [];
  }
}
