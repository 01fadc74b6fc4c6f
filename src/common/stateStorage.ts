/**
 * The part of `vscode.Memento` that stores use: globalState or workspaceState in the extension, an in-memory fake
 * in unit tests. The value changes at once; the returned promise settles when it is persisted.
 */
export interface StateStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** A StateStorage that keeps its values in memory only (for a part made without the extension's globalState). */
export function memoryState(): StateStorage {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: (key, value) => {
      if (value === undefined) values.delete(key);
      else values.set(key, structuredClone(value));
      return Promise.resolve();
    },
  };
}
