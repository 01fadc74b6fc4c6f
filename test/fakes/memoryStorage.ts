import type { StateStorage } from '../../src/common/stateStorage';

/**
 * globalState / workspaceState as VS Code's Memento behaves (ExtensionMemento in 1.139): `update` keeps a JSON copy
 * of the value at once and persists it later; `get` hands back that same copy until the next update. Counts reads
 * and writes.
 */
export class MemoryStorage implements StateStorage {
  readonly values = new Map<string, unknown>();
  reads = 0;
  writes = 0;

  get<T>(key: string): T | undefined {
    this.reads++;
    const value = this.values.get(key);
    return value as T | undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value !== null && typeof value === 'object' ? JSON.parse(JSON.stringify(value)) : value);
    return Promise.resolve();
  }
}
