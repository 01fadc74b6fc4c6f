import * as vscode from 'vscode';
import { Emitter } from '../common/emitter';
import { Disposable } from '../common/lifecycle';
import { describeError, type ComponentLogger } from '../common/logger';
import { canonicalPlace, joinRelative, pathBelow, type FolderEntry, type PlaceInRoot, type TreeReader } from './core/canonicalPlace';
import { excludeGlob, excludeMatcher } from './core/excludeSettings';
import { HiddenRules, type HiddenReason } from './core/hiddenRules';
import { IgnoreRules } from './core/ignoreRules';
import { relativeSegments } from './core/workspacePath';
import { LOCAL_SEPARATOR, readLocalFolder, realPathOf } from './localDisk';

const admitted: unique symbol = Symbol('admitted by the workspace boundary');

/**
 * A file or folder inside a workspace folder, as `WorkspaceBoundary` found it: only the boundary makes one, and what
 * reads, lists or mentions workspace files takes one (not a URI), so every path passes the boundary.
 */
export interface WorkspacePlace {
  readonly [admitted]: true;
  /** Where it really is: its workspace folder's URI and the path below it, each link followed, as the file system spells it. */
  readonly uri: vscode.Uri;
  /** The URI it was asked by (a link inside the workspace, another case). */
  readonly asked: vscode.Uri;
  /** The workspace folder's index. */
  readonly root: number;
  /** Below that folder, `/`-separated, every link followed; '' for the folder itself. */
  readonly relative: string;
  /** As the user reads it: the relative path (with the folder's name in a multi-root workspace), the folder's name for a folder. */
  readonly label: string;
  readonly isFolder: boolean;
  /** Why the chat's tools leave it out (where it is, or the path it was asked by); a mention the user makes still reaches it. */
  readonly hidden?: HiddenReason;
}

/** Why a URI or a path is not a place of the workspace. */
export interface Refusal {
  readonly refused: 'noFolder' | 'outside' | 'link' | 'absent';
  /** As it was asked: relative to its workspace folder when it is below one by its path, else whole. */
  readonly label: string;
  /** For a link: the path as asked up to the link, below the workspace folder it was asked in… */
  readonly at?: string;
  /** …and as the user reads it. */
  readonly link?: string;
}

export interface WorkspaceRules {
  readonly hidden: HiddenRules;
  /** The exclude settings as one glob for `workspace.findFiles` (null: none). */
  readonly excludeGlob: string | null;
}

/**
 * The one owner of the workspace's boundary, for the chat's tools and mentions alike: what is inside a workspace
 * folder is decided on where a file really is (every link followed, the file system's spelling), never on the text of
 * its path; what is hidden (`.git`, `files.exclude`, `search.exclude`, `.gitignore`) on that place too. Folder listings
 * and where links lead are cached until the files or the rules change.
 */
export class WorkspaceBoundary extends Disposable {
  private readonly changed = this._register(new Emitter<void>());
  /** Fires when what is hidden may have changed (the settings, a `.gitignore` file, the workspace folders). */
  readonly onDidChangeRules = this.changed.event;
  private loading: Promise<WorkspaceRules> | undefined;
  private readonly listings = new Map<string, Promise<readonly FolderEntry[] | undefined>>();
  private readonly links = new Map<string, Promise<{ place: PlaceInRoot; isFolder: boolean } | undefined>>();
  private readonly realRoots = new Map<number, Promise<string | undefined>>();
  private readonly reader: TreeReader = {
    list: (folder, fresh) => this.listing(folder, fresh),
    follow: (link) => this.follow(link),
  };

  constructor(private readonly log: ComponentLogger) {
    super();
    const files = this._register(vscode.workspace.createFileSystemWatcher('**/*', false, true, false));
    this._register(files.onDidCreate((uri) => this.forget(uri)));
    this._register(files.onDidDelete((uri) => this.forget(uri)));
    const ignoreFiles = this._register(vscode.workspace.createFileSystemWatcher('**/.gitignore'));
    for (const event of [ignoreFiles.onDidCreate, ignoreFiles.onDidChange, ignoreFiles.onDidDelete]) this._register(event(() => this.reset()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.reset()));
    this._register(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('files.exclude') || event.affectsConfiguration('search.exclude')) this.reset();
      }),
    );
  }

  /** Where a URI really is, or why it is not in the workspace. */
  async locate(uri: vscode.Uri): Promise<WorkspacePlace | Refusal> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.length === 0) return { refused: 'noFolder', label: displayed(uri) };
    const textual = textualPlace(uri);
    const label = textual ? labelOf(textual) : displayed(uri);
    const start = textual ?? (await this.realPlace(uri));
    if (!start) return { refused: 'outside', label };
    const canonical = await canonicalPlace(start.root, start.relative ? start.relative.split('/') : [], this.reader);
    if (!canonical.found) {
      if (canonical.why === 'absent') return { refused: 'absent', label };
      return { refused: 'link', label, at: canonical.at, link: labelOf({ root: start.root, relative: canonical.at }) };
    }
    const { hidden } = await this.rules();
    const { place, isFolder } = canonical;
    const spelledOtherwise = textual && (textual.root !== place.root || textual.relative !== place.relative);
    const reason =
      hidden.reason(place.root, place.relative, isFolder) ?? (spelledOtherwise ? hidden.reason(textual.root, textual.relative, isFolder) : undefined);
    const folder = folders[place.root]!;
    return {
      [admitted]: true,
      uri: place.relative ? vscode.Uri.joinPath(folder.uri, ...place.relative.split('/')) : folder.uri,
      asked: uri,
      root: place.root,
      relative: place.relative,
      label: labelOf(place),
      isFolder,
      ...(reason ? { hidden: reason } : {}),
    };
  }

  /**
   * Where a path the model gave really is: relative to the workspace folder (in a multi-root workspace, a first segment
   * that names a folder picks it), or absolute.
   */
  async locatePath(path: string): Promise<WorkspacePlace | Refusal> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const trimmed = path.trim();
    if (folders.length === 0) return { refused: 'noFolder', label: trimmed };
    const outside: Refusal = { refused: 'outside', label: trimmed };
    const drive = /^[A-Za-z]:(?=[\\/])/.exec(trimmed)?.[0];
    if (drive || trimmed.startsWith('/')) {
      const segments = relativeSegments(trimmed.slice(drive?.length ?? 0));
      if (!segments) return outside;
      const located = await this.locate(folders[0]!.uri.with({ path: `${drive ? `/${drive}` : ''}/${segments.join('/')}` }));
      return 'refused' in located && located.refused === 'outside' ? outside : located;
    }
    const segments = relativeSegments(trimmed);
    if (!segments) return outside;
    const named = folders.length > 1 ? folders.find((folder) => folder.name === segments[0]) : undefined;
    const folder = named ?? folders[0]!;
    const rest = named ? segments.slice(1) : segments;
    return this.locate(rest.length ? vscode.Uri.joinPath(folder.uri, ...rest) : folder.uri);
  }

  /** What is hidden, read once until the settings or a `.gitignore` file change. */
  rules(): Promise<WorkspaceRules> {
    this.loading ??= this.loadRules().catch((error: unknown) => {
      this.log.warn(`Could not read the .gitignore files: ${describeError(error)}`);
      this.loading = undefined;
      const settings = excludeSettings();
      return { hidden: new HiddenRules(excludeMatcher(settings)), excludeGlob: excludeGlob(settings) ?? null };
    });
    return this.loading;
  }

  private async loadRules(): Promise<WorkspaceRules> {
    const settings = excludeSettings();
    const exclude = excludeGlob(settings) ?? null;
    const found = await vscode.workspace.findFiles('**/.gitignore', exclude, 1_000);
    // Parents before children: git reads a folder's rules after its parent's.
    const located = found.flatMap((uri) => textualPlace(uri) ?? []).sort((a, b) => a.relative.length - b.relative.length);
    const ignores = new Map<number, IgnoreRules>();
    for (const where of located) {
      // A `.gitignore` that is a link out of the workspace is not read.
      const canonical = await canonicalPlace(where.root, where.relative.split('/'), this.reader);
      if (!canonical.found) continue;
      const folder = vscode.workspace.workspaceFolders?.[canonical.place.root];
      if (!folder) continue;
      try {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, ...canonical.place.relative.split('/')));
        const rules = ignores.get(where.root) ?? new IgnoreRules();
        rules.add(where.relative.split('/').slice(0, -1).join('/'), new TextDecoder().decode(bytes));
        ignores.set(where.root, rules);
      } catch (error) {
        this.log.debug(`Could not read ${where.relative}: ${describeError(error)}`);
      }
    }
    return { hidden: new HiddenRules(excludeMatcher(settings), ignores), excludeGlob: exclude };
  }

  private listing({ root, relative }: PlaceInRoot, fresh: boolean): Promise<readonly FolderEntry[] | undefined> {
    const key = `${root}:${relative}`;
    const cached = fresh ? undefined : this.listings.get(key);
    if (cached) return cached;
    const folder = vscode.workspace.workspaceFolders?.[root];
    if (!folder) return Promise.resolve(undefined);
    const uri = relative ? vscode.Uri.joinPath(folder.uri, ...relative.split('/')) : folder.uri;
    const read =
      uri.scheme === 'file'
        ? readLocalFolder(uri.fsPath)
        : Promise.resolve(vscode.workspace.fs.readDirectory(uri)).then(
            (entries) =>
              entries.map(([name, type]) => ({
                name,
                isFolder: (type & vscode.FileType.Directory) !== 0,
                isLink: (type & vscode.FileType.SymbolicLink) !== 0,
              })),
            () => undefined,
          );
    this.listings.set(key, read);
    return read;
  }

  /** Only the disk can say where a link leads: on any other file system a link counts as leading outside. */
  private follow({ root, relative }: PlaceInRoot): Promise<{ place: PlaceInRoot; isFolder: boolean } | undefined> {
    const key = `${root}:${relative}`;
    let target = this.links.get(key);
    if (!target) {
      const folder = vscode.workspace.workspaceFolders?.[root];
      target = folder?.uri.scheme === 'file' ? this.placeOnDisk(vscode.Uri.joinPath(folder.uri, ...relative.split('/'))) : Promise.resolve(undefined);
      this.links.set(key, target);
    }
    return target;
  }

  /** The place of a `file:` URI by its real path, when that is below the real path of a workspace folder. */
  private async placeOnDisk(uri: vscode.Uri): Promise<{ place: PlaceInRoot; isFolder: boolean } | undefined> {
    const real = await realPathOf(uri.fsPath);
    if (real === undefined) return undefined;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      if (folder.uri.scheme !== 'file') continue;
      let root = this.realRoots.get(folder.index);
      if (!root) this.realRoots.set(folder.index, (root = realPathOf(folder.uri.fsPath).then((found) => found?.path)));
      const realRoot = await root;
      const relative = realRoot === undefined ? undefined : pathBelow(realRoot, real.path, LOCAL_SEPARATOR);
      if (relative !== undefined) return { place: { root: folder.index, relative }, isFolder: real.isFolder };
    }
    return undefined;
  }

  /** A URI that is not below a workspace folder by its path may still be in one by its real path (a folder opened through a link). */
  private async realPlace(uri: vscode.Uri): Promise<PlaceInRoot | undefined> {
    return uri.scheme === 'file' ? (await this.placeOnDisk(uri))?.place : undefined;
  }

  /** A file was created or deleted: its folder's listing and what is known of it as a link are read again. */
  private forget(uri: vscode.Uri): void {
    const place = textualPlace(uri);
    if (!place) return;
    const parent = place.relative.split('/').slice(0, -1).join('/');
    this.listings.delete(`${place.root}:${parent}`);
    this.listings.delete(`${place.root}:${place.relative}`);
    this.links.delete(`${place.root}:${place.relative}`);
  }

  private reset(): void {
    this.loading = undefined;
    this.listings.clear();
    this.links.clear();
    this.realRoots.clear();
    this.changed.fire();
  }
}

/** Whether a boundary's answer is a refusal. */
export function isRefusal(answer: WorkspacePlace | Refusal): answer is Refusal {
  return 'refused' in answer;
}

/** The place a URI names by its path alone: below which workspace folder, and where. */
export function textualPlace(uri: vscode.Uri): PlaceInRoot | undefined {
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== uri.scheme || folder.uri.authority !== uri.authority) continue;
    const base = folder.uri.path.replace(/\/+$/, '');
    if (uri.path === base || uri.path === `${base}/`) return { root: folder.index, relative: '' };
    if (uri.path.startsWith(`${base}/`)) {
      const segments = relativeSegments(uri.path.slice(base.length + 1));
      if (segments) return { root: folder.index, relative: segments.join('/') };
    }
  }
  return undefined;
}

function labelOf({ root, relative }: PlaceInRoot): string {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const name = folders[root]?.name ?? '';
  if (!relative) return name;
  return folders.length > 1 ? joinRelative(name, relative) : relative;
}

function displayed(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? uri.fsPath : uri.toString(true);
}

function excludeSettings(): Record<string, unknown>[] {
  return [
    vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('exclude') ?? {},
    vscode.workspace.getConfiguration('search').get<Record<string, unknown>>('exclude') ?? {},
  ];
}
