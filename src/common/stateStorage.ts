/**
 * The part of `vscode.Memento` that stores use: globalState or workspaceState in the extension, an in-memory fake
 * in unit tests. The value changes at once; the returned promise settles when it is persisted.
 */
export interface StateStorage {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}
