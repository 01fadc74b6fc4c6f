import type { IDisposable } from '../../common/lifecycle';

export type Listener<T> = (value: T) => void;
export type Event<T> = (listener: Listener<T>) => IDisposable;

/** A minimal event emitter for code that must not import `vscode` (same shape as `vscode.Event`). */
export class Emitter<T> implements IDisposable {
  private listeners: Listener<T>[] = [];

  readonly event: Event<T> = (listener) => {
    this.listeners.push(listener);
    return {
      dispose: () => {
        this.listeners = this.listeners.filter((candidate) => candidate !== listener);
      },
    };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) listener(value);
  }

  dispose(): void {
    this.listeners = [];
  }
}
