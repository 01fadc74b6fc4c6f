import type { StateStorage } from '../../src/common/stateStorage';

/**
 * globalState / workspaceState as VS Code's Memento behaves: values go through a JSON-like copy, the value changes
 * at once and persisting is asynchronous. Counts reads and writes.
 */
export class MemoryStorage implements StateStorage {
  readonly values = new Map<string, unknown>();
  reads = 0;
  writes = 0;

  get<T>(key: string): T | undefined {
    this.reads++;
    const value = this.values.get(key);
    return value === undefined ? undefined : (structuredClone(value) as T);
  }

  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, structuredClone(value));
    return Promise.resolve();
  }
}
