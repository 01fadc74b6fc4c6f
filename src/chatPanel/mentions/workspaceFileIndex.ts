import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import { describeError, type ComponentLogger } from '../../common/logger';
import type { HiddenRules } from '../../workspace/core/hiddenRules';
import { isRefusal, textualPlace, type WorkspaceBoundary, type WorkspacePlace } from '../../workspace/workspaceBoundary';
import { FileIndex, type RankedPath } from './core/fileIndex';

/** More than this many files are not indexed (the rest are still reachable by dropping them on the chat). */
const MAX_FILES = 200_000;
/** Files checked at the boundary at once. */
const PARALLEL_CHECKS = 32;
/** A search asks again at most this many times when entries it found turn out to be outside the workspace. */
const SEARCH_ROUNDS = 5;

export type FileEvents = Pick<vscode.FileSystemWatcher, 'onDidCreate' | 'onDidDelete' | 'dispose'>;

export interface VisibleFile {
  /** Relative to its workspace folder, as listed. */
  path: string;
  place: WorkspacePlace;
}

/**
 * The workspace's files for the mention popup and the chat's tools: listed once with `findFiles` (without what
 * `files.exclude`, `search.exclude` and the `.gitignore` files leave out), then kept current by a file watcher. Built
 * on first use. The listing follows links, so what it gives out is first checked at the workspace boundary: an entry
 * that is outside the workspace (a link out of it, or below one) or hidden where it really is, is forgotten.
 */
export class WorkspaceFileIndex extends Disposable {
  private readonly index = new FileIndex();
  private building: Promise<void> | undefined;
  /** Links out of the workspace found in this listing (`root:path`): what is below them is not checked again. */
  private readonly pruned = new Set<string>();

  /** `watcher` tells of files created and deleted (changes are not needed); VS Code's file watcher unless given. */
  constructor(
    readonly boundary: WorkspaceBoundary,
    private readonly log: ComponentLogger,
    watcher: FileEvents = vscode.workspace.createFileSystemWatcher('**/*', false, true, false),
  ) {
    super();
    this._register(watcher);
    this._register(watcher.onDidCreate((uri) => void this.onCreated(uri)));
    this._register(watcher.onDidDelete((uri) => void this.onDeleted(uri)));
    // New rules change what is listed: list again on the next search.
    this._register(boundary.onDidChangeRules(() => this.invalidate()));
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

  /** The best `limit` files and folders for a query, each inside the workspace and visible. */
  async search(query: string, limit: number): Promise<(RankedPath & { place: WorkspacePlace })[]> {
    await this.ready();
    let kept: (RankedPath & { place: WorkspacePlace })[] = [];
    for (let round = 0; round < SEARCH_ROUNDS; round++) {
      const ranked = this.index.search(query, limit);
      const places = await Promise.all(ranked.map((found) => this.admit(found.root, found.path, found.kind === 'folder')));
      kept = ranked.flatMap((found, index) => (places[index] ? [{ ...found, place: places[index] }] : []));
      // What was forgotten leaves room for the next entries.
      if (kept.length === ranked.length) break;
    }
    return kept;
  }

  /** The visible files below a folder of a workspace folder ('' for all of them), sorted. */
  async visibleFiles(root: number, folder = ''): Promise<VisibleFile[]> {
    await this.ready();
    const paths = this.index.filesUnder(root, folder);
    const places: (WorkspacePlace | undefined)[] = new Array(paths.length);
    let next = 0;
    const check = async (): Promise<void> => {
      while (next < paths.length) {
        const index = next++;
        places[index] = await this.admit(root, paths[index]!, false);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL_CHECKS }, check));
    return paths.flatMap((path, index) => (places[index] ? [{ path, place: places[index] }] : []));
  }

  /** Files and folders the chat's tools do not see: outside the workspace, or hidden where they really are. */
  async isHidden(uri: vscode.Uri): Promise<boolean> {
    const place = await this.boundary.locate(uri);
    return isRefusal(place) || place.hidden !== undefined;
  }

  uriOf(root: number, path: string): vscode.Uri | undefined {
    const folder = vscode.workspace.workspaceFolders?.[root];
    return folder ? vscode.Uri.joinPath(folder.uri, ...path.split('/')) : undefined;
  }

  /** The place of a listed entry when the boundary lets the chat see it; else the entry (or the link above it) is forgotten. */
  private async admit(root: number, path: string, isFolder: boolean): Promise<WorkspacePlace | undefined> {
    if (this.isPruned(root, path)) return undefined;
    const uri = this.uriOf(root, path);
    const place = uri ? await this.boundary.locate(uri) : undefined;
    if (place && !isRefusal(place) && !place.hidden && place.isFolder === isFolder) return place;
    const link = place && isRefusal(place) && place.refused === 'link' ? place.at : undefined;
    if (link !== undefined) this.pruned.add(`${root}:${link}`);
    this.index.remove(root, link ?? path);
    return undefined;
  }

  private isPruned(root: number, path: string): boolean {
    if (this.pruned.size === 0) return false;
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) if (this.pruned.has(`${root}:${path.slice(0, slash)}`)) return true;
    return this.pruned.has(`${root}:${path}`);
  }

  private async build(): Promise<void> {
    const started = Date.now();
    const rules = await this.boundary.rules();
    const found = await vscode.workspace.findFiles('**/*', rules.excludeGlob, MAX_FILES);
    this.index.clear();
    this.pruned.clear();
    for (const uri of found) this.addFile(uri, rules.hidden);
    this.log.info(`Indexed ${this.index.size} workspace file(s) for mentions in ${Date.now() - started} ms.`);
  }

  /** Listed by its path; `admit` checks where it really is before it is shown. */
  private addFile(uri: vscode.Uri, hidden: HiddenRules): void {
    const place = textualPlace(uri);
    if (place?.relative && !hidden.reason(place.root, place.relative)) this.index.add(place.root, place.relative);
  }

  /**
   * A new file is added. A new folder is listed: the watcher reports the files made with it only when it watched the
   * folder in time (on Linux, files written right after their folder are often not reported).
   */
  private async onCreated(uri: vscode.Uri): Promise<void> {
    if (!this.building) return;
    const stat = await Promise.resolve(vscode.workspace.fs.stat(uri)).catch(() => undefined);
    if (!stat) return;
    const place = textualPlace(uri);
    if (place) this.pruned.delete(`${place.root}:${place.relative}`);
    const rules = await this.boundary.rules();
    if (stat.type & vscode.FileType.File) {
      this.addFile(uri, rules.hidden);
    } else if (stat.type & vscode.FileType.Directory) {
      const found = await vscode.workspace.findFiles(new vscode.RelativePattern(uri, '**/*'), rules.excludeGlob, MAX_FILES);
      for (const file of found) this.addFile(file, rules.hidden);
    }
  }

  /**
   * A deletion can be reported after the path was made again (a branch switch, a folder deleted and written anew): what
   * is there again stays, and entries below it that are gone are forgotten when `admit` checks them.
   */
  private async onDeleted(uri: vscode.Uri): Promise<void> {
    const place = textualPlace(uri);
    if (!place) return;
    const stillThere = await Promise.resolve(vscode.workspace.fs.stat(uri)).then(
      () => true,
      () => false,
    );
    if (stillThere) return;
    this.pruned.delete(`${place.root}:${place.relative}`);
    this.index.remove(place.root, place.relative);
  }

  private invalidate(): void {
    this.building = undefined;
    this.index.clear();
    this.pruned.clear();
  }
}
