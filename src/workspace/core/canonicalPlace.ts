// Where a path of a workspace folder really is: each segment as the file system spells it, each link followed. The
// walk reads folders through a `TreeReader`, so the same logic serves every file system (and the unit tests).

/** A place inside a workspace folder: the folder's index and the `/`-separated path below it ('' for the folder). */
export interface PlaceInRoot {
  root: number;
  relative: string;
}

export interface FolderEntry {
  name: string;
  isFolder: boolean;
  isLink: boolean;
}

export interface TreeReader {
  /** The entries of a folder; undefined when it cannot be read. `fresh` asks past any cache. */
  list(folder: PlaceInRoot, fresh: boolean): Promise<readonly FolderEntry[] | undefined>;
  /**
   * Where a link leads when that is inside a workspace folder, every link on the way followed, and whether it is a
   * folder; undefined when it leads outside them, nowhere, or where the file system cannot say.
   */
  follow(link: PlaceInRoot): Promise<{ place: PlaceInRoot; isFolder: boolean } | undefined>;
}

export type Canonical =
  | { found: true; place: PlaceInRoot; isFolder: boolean }
  | { found: false; why: 'absent' }
  /** `at` is the path as asked up to the link (what to forget of a listing made by that path). */
  | { found: false; why: 'link'; at: string };

export function joinRelative(folder: string, name: string): string {
  return folder ? `${folder}/${name}` : name;
}

/**
 * Walks `segments` from a workspace folder. A segment names the entry of that name, else the one entry that differs
 * only in case (on a case-insensitive file system both are the same file; its real name is kept). A link is followed
 * only to a place inside a workspace folder: a link that leaves them stops the walk.
 */
export async function canonicalPlace(root: number, segments: readonly string[], reader: TreeReader): Promise<Canonical> {
  let place: PlaceInRoot = { root, relative: '' };
  let isFolder = true;
  for (let index = 0; index < segments.length; index++) {
    if (!isFolder) return { found: false, why: 'absent' };
    const segment = segments[index]!;
    const entry = named(await reader.list(place, false), segment) ?? named(await reader.list(place, true), segment);
    if (!entry) return { found: false, why: 'absent' };
    const here = { root: place.root, relative: joinRelative(place.relative, entry.name) };
    if (entry.isLink) {
      const target = await reader.follow(here);
      if (!target) return { found: false, why: 'link', at: segments.slice(0, index + 1).join('/') };
      ({ place, isFolder } = target);
    } else {
      place = here;
      isFolder = entry.isFolder;
    }
  }
  return { found: true, place, isFolder };
}

/** Each listing by name, built once per listing (a folder of many entries is looked up for each of its files). */
const byName = new WeakMap<readonly FolderEntry[], Map<string, FolderEntry>>();

function named(entries: readonly FolderEntry[] | undefined, name: string): FolderEntry | undefined {
  if (!entries) return undefined;
  let names = byName.get(entries);
  if (!names) byName.set(entries, (names = new Map(entries.map((entry) => [entry.name, entry]))));
  const exact = names.get(name);
  if (exact) return exact;
  const lower = name.toLowerCase();
  const folded = entries.filter((entry) => entry.name.toLowerCase() === lower);
  return folded.length === 1 ? folded[0] : undefined;
}

/**
 * The `/`-separated path of `target` below `root`, both absolute real paths of one machine ('' for the root itself);
 * undefined when it is not below. `/ws2/a` is not below `/ws`.
 */
export function pathBelow(root: string, target: string, separator: '/' | '\\'): string | undefined {
  const base = root.endsWith(separator) ? root.slice(0, -1) : root;
  if (target === base) return '';
  if (!target.startsWith(base + separator)) return undefined;
  return target
    .slice(base.length + 1)
    .split(separator)
    .join('/');
}
