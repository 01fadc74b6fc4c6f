import * as vscode from 'vscode';

/** `path` is the entry's path as it was created: a case-insensitive file system keeps it, but finds it in any case. */
type Entry =
  | { type: vscode.FileType.File; path: string; data: Uint8Array; ctime: number; mtime: number }
  | { type: vscode.FileType.Directory; path: string; ctime: number; mtime: number };

/**
 * A file system that lives in memory under its own scheme, as a virtual workspace's provider does (GitHub
 * Repositories, a remote file system extension): nothing of it is on this machine's disk, so only code that goes
 * through `vscode.workspace.fs` and URIs can use it.
 */
export class MemoryFileSystem implements vscode.FileSystemProvider {
  /** By `key(path)`. */
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, path: '/', ctime: Date.now(), mtime: Date.now() }]]);
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Every path written, in order (a test checks nothing went elsewhere). */
  readonly written: string[] = [];

  /** `caseSensitive: false` behaves as the disks of macOS and Windows do: `.GIT/config` is `.git/config`. */
  constructor(
    readonly scheme: string,
    private readonly caseSensitive = true,
  ) {}

  register(): vscode.Disposable {
    return vscode.workspace.registerFileSystemProvider(this.scheme, this, { isCaseSensitive: this.caseSensitive });
  }

  private key(path: string): string {
    const normalized = normalize(path);
    return this.caseSensitive ? normalized : normalized.toLowerCase();
  }

  uri(path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path });
  }

  /** The paths of the files below `folder`, sorted. */
  filesBelow(folder: string): string[] {
    const prefix = this.key(folder.endsWith('/') ? folder : `${folder}/`);
    return [...this.entries]
      .filter(([key, entry]) => key.startsWith(prefix) && entry.type === vscode.FileType.File)
      .map(([, entry]) => entry.path)
      .sort();
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const entry = this.entry(uri);
    return { type: entry.type, ctime: entry.ctime, mtime: entry.mtime, size: entry.type === vscode.FileType.File ? entry.data.byteLength : 0 };
  }

  readDirectory(uri: vscode.Uri): [string, vscode.FileType][] {
    const folder = this.directory(uri).key;
    const prefix = folder === '/' ? '/' : `${folder}/`;
    return [...this.entries]
      .filter(([key]) => key !== folder && key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .map(([, entry]) => [entry.path.slice(prefix.length), entry.type]);
  }

  createDirectory(uri: vscode.Uri): void {
    const path = normalize(uri.path);
    if (this.entries.has(this.key(path))) throw vscode.FileSystemError.FileExists(uri);
    this.directory(uri.with({ path: parentOf(path) }));
    this.entries.set(this.key(path), { type: vscode.FileType.Directory, path, ctime: Date.now(), mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.entry(uri);
    if (entry.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const path = normalize(uri.path);
    const existing = this.entries.get(this.key(path));
    if (existing?.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!existing && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.directory(uri.with({ path: parentOf(path) }));
    this.entries.set(this.key(path), {
      type: vscode.FileType.File,
      path: existing?.path ?? path,
      data: content.slice(),
      ctime: existing?.ctime ?? Date.now(),
      mtime: Date.now(),
    });
    this.written.push(path);
    this.changed.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): void {
    const path = this.key(uri.path);
    this.entry(uri);
    const below = [...this.entries.keys()].filter((key) => key.startsWith(`${path}/`));
    if (below.length > 0 && !options.recursive) throw vscode.FileSystemError.NoPermissions(`${path} is not empty`);
    for (const key of [path, ...below]) this.entries.delete(key);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): void {
    const source = this.key(from.path);
    const target = this.key(to.path);
    const targetPath = normalize(to.path);
    const entry = this.entry(from);
    if (this.entries.has(target) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    this.directory(to.with({ path: parentOf(targetPath) }));
    for (const [key, value] of [...this.entries]) {
      if (key === source || key.startsWith(`${source}/`)) {
        this.entries.delete(key);
        this.entries.set(target + key.slice(source.length), { ...value, path: targetPath + value.path.slice(source.length) });
      }
    }
    this.entries.set(target, { ...entry, path: targetPath });
    this.changed.fire([
      { type: vscode.FileChangeType.Deleted, uri: from },
      { type: vscode.FileChangeType.Created, uri: to },
    ]);
  }

  private entry(uri: vscode.Uri): Entry {
    const entry = this.entries.get(this.key(uri.path));
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  private directory(uri: vscode.Uri): { key: string } {
    const key = this.key(uri.path);
    const entry = this.entries.get(key);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    if (entry.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    return { key };
  }
}

function normalize(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
