import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import { describeError, type ComponentLogger } from '../../common/logger';
import { FileIndex, type RankedPath } from './core/fileIndex';
import { excludeGlob, excludeMatcher } from './core/globPattern';
import { IgnoreRules } from './core/ignoreRules';

/** More than this many files are not indexed (the rest are still reachable by dropping them on the chat). */
const MAX_FILES = 200_000;

/**
 * The workspace's files for the mention popup: listed once with `findFiles` (without what `files.exclude`,
 * `search.exclude` and the `.gitignore` files leave out), then kept current by a file watcher. Built on first use.
 */
export class WorkspaceFileIndex extends Disposable {
  private readonly index = new FileIndex();
  private building: Promise<void> | undefined;
  private isExcluded: (path: string) => boolean = () => false;
  private ignores = new IgnoreRules();

  constructor(private readonly log: ComponentLogger) {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/*', false, true, false));
    this._register(watcher.onDidCreate((uri) => void this.onCreated(uri)));
    this._register(watcher.onDidDelete((uri) => this.onDeleted(uri)));
    // New rules change what is listed: list again on the next search.
    const ignoreFiles = this._register(vscode.workspace.createFileSystemWatcher('**/.gitignore'));
    for (const event of [ignoreFiles.onDidCreate, ignoreFiles.onDidChange, ignoreFiles.onDidDelete]) this._register(event(() => this.invalidate()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) this.invalidate();
      }),
    );
  }

  get size(): number {
    return this.index.size;
  }

  /** Resolves once the first listing is done (at once afterwards). */
  ready(): Promise<void> {
    this.building ??= this.build().catch((error: unknown) => {
      this.log.warn(`Could not list the workspace's files for mentions: ${describeError(error)}`);
      this.building = undefined;
    });
    return this.building;
  }

  async search(query: string, limit: number): Promise<RankedPath[]> {
    await this.ready();
    return this.index.search(query, limit);
  }

  async filesUnder(folder: vscode.Uri): Promise<string[]> {
    await this.ready();
    const located = this.locate(folder);
    return located ? this.index.filesUnder(located.root, located.path) : [];
  }

  /** Files and folders the chat does not see: outside the workspace, or left out by the exclude settings and `.gitignore`. */
  async isHidden(uri: vscode.Uri): Promise<boolean> {
    await this.ready();
    const located = this.locate(uri);
    return !located || this.hides(located.path);
  }

  /** Every indexed file of a workspace folder (by index), sorted. */
  async filesOf(root: number): Promise<string[]> {
    await this.ready();
    return this.index.filesUnder(root, '');
  }

  uriOf(root: number, path: string): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[root];
    return folder ? vscode.Uri.joinPath(folder.uri, ...path.split('/')) : undefined;
  }

  private async build(): Promise<void> {
    const started = Date.now();
    const files = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {};
    const search = vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude') ?? {};
    this.isExcluded = excludeMatcher([files, search]);
    const exclude = excludeGlob([files, search]) ?? null;
    this.ignores = await this.readIgnoreFiles(exclude);
    const found = await vscode.workspace.findFiles('**/*', exclude, MAX_FILES);
    this.index.clear();
    for (const uri of found) this.addFile(uri);
    this.log.info(`Indexed ${this.index.size} workspace file(s) for mentions in ${Date.now() - started} ms.`);
  }

  private async readIgnoreFiles(exclude: string | null): Promise<IgnoreRules> {
    const rules = new IgnoreRules();
    const found = await vscode.workspace.findFiles('**/.gitignore', exclude, 1_000);
    // Parents before children: git reads a folder's rules after its parent's.
    const located = found.map((uri) => ({ uri, where: this.locate(uri) })).sort((a, b) => (a.where?.path.length ?? 0) - (b.where?.path.length ?? 0));
    for (const { uri, where } of located) {
      if (!where) continue;
      try {
        const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
        rules.add(where.path.split('/').slice(0, -1).join('/'), text);
      } catch (error) {
        this.log.debug(`Could not read ${uri.toString(true)}: ${describeError(error)}`);
      }
    }
    return rules;
  }

  private addFile(uri: vscode.Uri): void {
    const located = this.locate(uri);
    if (!located || this.hides(located.path)) return;
    this.index.add(located.root, located.path);
  }

  private hides(path: string): boolean {
    return this.isExcluded(path) || this.ignores.ignores(path) || /(^|\/)\.git(\/|$)/.test(path);
  }

  /** The watcher reports folders too (their files are reported one by one): only files are added. */
  private async onCreated(uri: vscode.Uri): Promise<void> {
    if (!this.building) return;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (stat && (stat.type & vscode.FileType.File) !== 0) this.addFile(uri);
  }

  private onDeleted(uri: vscode.Uri): void {
    const located = this.locate(uri);
    if (located) this.index.remove(located.root, located.path);
  }

  private invalidate(): void {
    this.building = undefined;
    this.index.clear();
  }

  private locate(uri: vscode.Uri): { root: number; path: string } | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder) return undefined;
    const path = uri.path.slice(folder.uri.path.replace(/\/$/, '').length + 1);
    return path ? { root: folder.index, path } : undefined;
  }
}
