import * as vscode from 'vscode';

type Entry = { type: vscode.FileType.File; data: Uint8Array; ctime: number; mtime: number } | { type: vscode.FileType.Directory; ctime: number; mtime: number };

/**
 * A file system that lives in memory under its own scheme, as a virtual workspace's provider does (GitHub
 * Repositories, a remote file system extension): nothing of it is on this machine's disk, so only code that goes
 * through `vscode.workspace.fs` and URIs can use it.
 */
export class MemoryFileSystem implements vscode.FileSystemProvider {
  private readonly entries = new Map<string, Entry>([['/', { type: vscode.FileType.Directory, ctime: Date.now(), mtime: Date.now() }]]);
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  /** Every path written, in order (a test checks nothing went elsewhere). */
  readonly written: string[] = [];

  constructor(readonly scheme: string) {}

  register(): vscode.Disposable {
    return vscode.workspace.registerFileSystemProvider(this.scheme, this, { isCaseSensitive: true });
  }

  uri(path: string): vscode.Uri {
    return vscode.Uri.from({ scheme: this.scheme, path });
  }

  /** The paths of the files below `folder`, sorted. */
  filesBelow(folder: string): string[] {
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    return [...this.entries]
      .filter(([path, entry]) => path.startsWith(prefix) && entry.type === vscode.FileType.File)
      .map(([path]) => path)
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
    const folder = this.directory(uri).path;
    const prefix = folder === '/' ? '/' : `${folder}/`;
    return [...this.entries]
      .filter(([path]) => path !== folder && path.startsWith(prefix) && !path.slice(prefix.length).includes('/'))
      .map(([path, entry]) => [path.slice(prefix.length), entry.type]);
  }

  createDirectory(uri: vscode.Uri): void {
    const path = normalize(uri.path);
    if (this.entries.has(path)) throw vscode.FileSystemError.FileExists(uri);
    this.directory(uri.with({ path: parentOf(path) }));
    this.entries.set(path, { type: vscode.FileType.Directory, ctime: Date.now(), mtime: Date.now() });
    this.changed.fire([{ type: vscode.FileChangeType.Created, uri }]);
  }

  readFile(uri: vscode.Uri): Uint8Array {
    const entry = this.entry(uri);
    if (entry.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return entry.data;
  }

  writeFile(uri: vscode.Uri, content: Uint8Array, options: { create: boolean; overwrite: boolean }): void {
    const path = normalize(uri.path);
    const existing = this.entries.get(path);
    if (existing?.type === vscode.FileType.Directory) throw vscode.FileSystemError.FileIsADirectory(uri);
    if (!existing && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (existing && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.directory(uri.with({ path: parentOf(path) }));
    this.entries.set(path, { type: vscode.FileType.File, data: content.slice(), ctime: existing?.ctime ?? Date.now(), mtime: Date.now() });
    this.written.push(path);
    this.changed.fire([{ type: existing ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri }]);
  }

  delete(uri: vscode.Uri, options: { recursive: boolean }): void {
    const path = normalize(uri.path);
    this.entry(uri);
    const below = [...this.entries.keys()].filter((key) => key.startsWith(`${path}/`));
    if (below.length > 0 && !options.recursive) throw vscode.FileSystemError.NoPermissions(`${path} is not empty`);
    for (const key of [path, ...below]) this.entries.delete(key);
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  rename(from: vscode.Uri, to: vscode.Uri, options: { overwrite: boolean }): void {
    const source = normalize(from.path);
    const target = normalize(to.path);
    const entry = this.entry(from);
    if (this.entries.has(target) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    this.directory(to.with({ path: parentOf(target) }));
    for (const [key, value] of [...this.entries]) {
      if (key === source || key.startsWith(`${source}/`)) {
        this.entries.delete(key);
        this.entries.set(target + key.slice(source.length), value);
      }
    }
    this.entries.set(target, entry);
    this.changed.fire([
      { type: vscode.FileChangeType.Deleted, uri: from },
      { type: vscode.FileChangeType.Created, uri: to },
    ]);
  }

  private entry(uri: vscode.Uri): Entry {
    const entry = this.entries.get(normalize(uri.path));
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    return entry;
  }

  private directory(uri: vscode.Uri): { path: string } {
    const path = normalize(uri.path);
    const entry = this.entries.get(path);
    if (!entry) throw vscode.FileSystemError.FileNotFound(uri);
    if (entry.type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    return { path };
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
