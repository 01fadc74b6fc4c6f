import { fuzzyMatch, fuzzyScore, normalizeQuery } from './fuzzyMatch';

export interface IndexedPath {
  /** Relative to the workspace folder, with `/`; a folder ends without a slash. */
  path: string;
  kind: 'file' | 'folder';
  /** The workspace folder it is in (by index), for multi-root workspaces. */
  root: number;
}

export interface RankedPath extends IndexedPath {
  score: number;
  matches: number[];
}

interface Entry extends IndexedPath {
  lower: string;
}

/**
 * The workspace's files and folders, in memory, searched with the fuzzy matcher. Folders are derived from the files
 * (an empty folder is not offered). Adding and removing are incremental, so a file watcher keeps it current.
 */
export class FileIndex {
  private readonly files = new Map<string, Entry>();
  private readonly folderCounts = new Map<string, { entry: Entry; files: number }>();
  /**
   * The entries the last query matched. A query typed on from it can only match among them (a match of `abc` is a
   * match of `ab`: the matcher's choice for each character depends only on the characters before it), so each
   * keystroke searches fewer entries than the one before. Forgotten when the index changes.
   */
  private lastMatched?: { needle: string; entries: Entry[] };

  get size(): number {
    return this.files.size;
  }

  add(root: number, path: string): void {
    const key = `${root}:${path}`;
    if (this.files.has(key)) return;
    this.lastMatched = undefined;
    this.files.set(key, { path, kind: 'file', root, lower: path.toLowerCase() });
    for (const folder of parentFolders(path)) {
      const folderKey = `${root}:${folder}`;
      const known = this.folderCounts.get(folderKey);
      if (known) known.files++;
      else this.folderCounts.set(folderKey, { entry: { path: folder, kind: 'folder', root, lower: folder.toLowerCase() }, files: 1 });
    }
  }

  remove(root: number, path: string): void {
    const key = `${root}:${path}`;
    this.lastMatched = undefined;
    if (!this.files.delete(key)) {
      // A folder was removed: everything under it goes.
      const prefix = `${key}/`;
      for (const fileKey of [...this.files.keys()]) if (fileKey.startsWith(prefix)) this.remove(root, fileKey.slice(`${root}:`.length));
      return;
    }
    for (const folder of parentFolders(path)) {
      const folderKey = `${root}:${folder}`;
      const known = this.folderCounts.get(folderKey);
      if (known && --known.files === 0) this.folderCounts.delete(folderKey);
    }
  }

  clear(): void {
    this.lastMatched = undefined;
    this.files.clear();
    this.folderCounts.clear();
  }

  /** The best `limit` matches, best first; an empty query lists nothing (the popup shows its other entries then). */
  search(query: string, limit: number): RankedPath[] {
    const needle = normalizeQuery(query);
    if (!needle) return [];
    const narrowed = this.lastMatched && needle.startsWith(this.lastMatched.needle) ? this.lastMatched.entries : undefined;
    const matched: Entry[] = [];
    const best: RankedPath[] = [];
    const consider = (entry: Entry): void => {
      const score = fuzzyScore(needle, entry.path, entry.lower);
      if (score === undefined) return;
      matched.push(entry);
      // Kept sorted, at most `limit` long: cheap for the small limits the popup uses; positions only for those kept.
      if (best.length === limit && score <= best[best.length - 1]!.score) return;
      const ranked: RankedPath = { path: entry.path, kind: entry.kind, root: entry.root, score, matches: fuzzyMatch(needle, entry.path, entry.lower)!.matches };
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < ranked.score) at--;
      best.splice(at, 0, ranked);
      if (best.length > limit) best.pop();
    };
    if (narrowed) narrowed.forEach(consider);
    else {
      for (const entry of this.files.values()) consider(entry);
      for (const { entry } of this.folderCounts.values()) consider(entry);
    }
    this.lastMatched = { needle, entries: matched };
    return best;
  }

  /** The files directly and deeply under a folder, sorted (for a folder mention's listing). */
  filesUnder(root: number, folder: string): string[] {
    const prefix = folder ? `${folder}/` : '';
    const found: string[] = [];
    for (const entry of this.files.values()) if (entry.root === root && entry.path.startsWith(prefix)) found.push(entry.path);
    return found.sort();
  }
}

function parentFolders(path: string): string[] {
  const folders: string[] = [];
  for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folders.push(path.slice(0, slash));
  return folders;
}
