import * as assert from 'node:assert/strict';
import { canonicalPlace, pathBelow, type FolderEntry, type PlaceInRoot, type TreeReader } from '../../../../src/workspace/core/canonicalPlace';
import { HiddenRules } from '../../../../src/workspace/core/hiddenRules';
import { IgnoreRules } from '../../../../src/workspace/core/ignoreRules';

type Node = { folder: Record<string, Node> } | { file: true } | { link: PlaceInRoot | undefined; isFolder: boolean };

/** A workspace folder in memory, case-insensitive or not, whose links lead where `link` says (undefined: outside). */
function tree(roots: Record<string, Node>[], { caseSensitive = true } = {}): TreeReader {
  const find = ({ root, relative }: PlaceInRoot): Node | undefined => {
    let node: Node | undefined = { folder: roots[root]! };
    for (const segment of relative ? relative.split('/') : []) {
      if (!node || !('folder' in node)) return undefined;
      const entries: Record<string, Node> = node.folder;
      node = entries[segment] ?? (caseSensitive ? undefined : Object.entries(entries).find(([name]) => name.toLowerCase() === segment.toLowerCase())?.[1]);
    }
    return node;
  };
  return {
    async list(folder) {
      const node = find(folder);
      if (!node || !('folder' in node)) return undefined;
      // As a disk lists a folder: a link is a link, whatever it leads to.
      return Object.entries(node.folder).map(([name, entry]): FolderEntry => ({ name, isFolder: 'folder' in entry, isLink: 'link' in entry }));
    },
    async follow(link) {
      const node = find(link);
      return node && 'link' in node && node.link ? { place: node.link, isFolder: node.isFolder } : undefined;
    },
  };
}

const workspace: Record<string, Node> = {
  '.git': { folder: { config: { file: true } } },
  '.env': { file: true },
  src: { folder: { 'app.ts': { file: true } } },
  v2: { folder: { 'x.ts': { file: true } } },
  // A repository may ship these: a link to a secret, a link to a home folder, a link into itself.
  docs: { folder: { 'notes.txt': { link: undefined, isFolder: false }, 'config.txt': { link: { root: 0, relative: '.git/config' }, isFolder: false } } },
  home: { link: undefined, isFolder: true },
  current: { link: { root: 0, relative: 'v2' }, isFolder: true },
};

describe('the workspace boundary, in parts', () => {
  it('review 2.1: a link that leaves the workspace stops the walk, named where it is; a link inside is followed', async () => {
    const reader = tree([workspace]);
    assert.deepEqual(await canonicalPlace(0, ['docs', 'notes.txt'], reader), { found: false, why: 'link', at: 'docs/notes.txt' });
    assert.deepEqual(await canonicalPlace(0, ['home', '.aws', 'credentials'], reader), { found: false, why: 'link', at: 'home' });
    assert.deepEqual(await canonicalPlace(0, ['current', 'x.ts'], reader), { found: true, place: { root: 0, relative: 'v2/x.ts' }, isFolder: false });
    assert.deepEqual(await canonicalPlace(0, ['src', 'app.ts'], reader), { found: true, place: { root: 0, relative: 'src/app.ts' }, isFolder: false });
    assert.deepEqual(await canonicalPlace(0, [], reader), { found: true, place: { root: 0, relative: '' }, isFolder: true });
    assert.deepEqual(await canonicalPlace(0, ['src', 'missing.ts'], reader), { found: false, why: 'absent' });
    assert.deepEqual(await canonicalPlace(0, ['src', 'app.ts', 'x'], reader), { found: false, why: 'absent' }, 'a file has nothing below it');
  });

  it('review 2.1: a real path is below a workspace folder only segment by segment', () => {
    assert.equal(pathBelow('/home/me/ws', '/home/me/ws/src/a.ts', '/'), 'src/a.ts');
    assert.equal(pathBelow('/home/me/ws/', '/home/me/ws', '/'), '');
    assert.equal(pathBelow('/home/me/ws', '/home/me/ws2/a.ts', '/'), undefined);
    assert.equal(pathBelow('/home/me/ws', '/home/me/.aws/credentials', '/'), undefined);
    assert.equal(pathBelow('C:\\Users\\me\\ws', 'C:\\Users\\me\\ws\\src\\a.ts', '\\'), 'src/a.ts');
  });

  it('review 2.2: another spelling reaches the entry as the file system spells it, so .GIT and .ENV are hidden as .git and .env', async () => {
    const reader = tree([workspace], { caseSensitive: false });
    const ignores = new IgnoreRules();
    ignores.add('', '.env\n');
    const hidden = new HiddenRules(() => false, new Map([[0, ignores]]));
    const spelled = async (...segments: string[]) => {
      const canonical = await canonicalPlace(0, segments, reader);
      assert.ok(canonical.found, segments.join('/'));
      return { relative: canonical.place.relative, hidden: hidden.reason(0, canonical.place.relative, canonical.isFolder) };
    };
    assert.deepEqual(await spelled('.GIT', 'CONFIG'), { relative: '.git/config', hidden: 'git' });
    assert.deepEqual(await spelled('.ENV'), { relative: '.env', hidden: 'ignored' });
    assert.deepEqual(await spelled('SRC', 'App.ts'), { relative: 'src/app.ts', hidden: undefined });
    // A link inside the workspace is another spelling too: where it leads decides.
    assert.deepEqual(await spelled('docs', 'config.txt'), { relative: '.git/config', hidden: 'git' });
    assert.equal(hidden.reason(0, 'pkg/.Git/HEAD'), 'git', 'a .git folder in any case, at any depth');
  });

  it('prefers the exact name, and reads a folder again when a name is missing from what it read before', async () => {
    const both: Record<string, Node> = { Readme: { file: true }, README: { file: true } };
    assert.deepEqual(await canonicalPlace(0, ['README'], tree([both], { caseSensitive: false })), {
      found: true,
      place: { root: 0, relative: 'README' },
      isFolder: false,
    });
    assert.deepEqual(await canonicalPlace(0, ['readme'], tree([both], { caseSensitive: false })), { found: false, why: 'absent' }, 'two candidates: neither');
    const fresh = tree([{ late: { file: true } }]);
    // What was read before the file was created lacks it: the walk reads the folder again before saying it is absent.
    const cached: TreeReader = { list: (folder, again) => (again ? fresh.list(folder, true) : Promise.resolve([])), follow: fresh.follow };
    assert.deepEqual(await canonicalPlace(0, ['late'], cached), { found: true, place: { root: 0, relative: 'late' }, isFolder: false });
  });
});
