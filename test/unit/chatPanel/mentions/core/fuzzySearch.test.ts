import * as assert from 'node:assert/strict';
import { FileIndex } from '../../../../../src/chatPanel/mentions/core/fileIndex';
import { fuzzyMatch, fuzzyScore, normalizeQuery } from '../../../../../src/chatPanel/mentions/core/fuzzyMatch';

function ranked(paths: string[], query: string, limit = 10): string[] {
  const index = new FileIndex();
  for (const path of paths) index.add(0, path);
  return index.search(query, limit).map((found) => (found.kind === 'folder' ? `${found.path}/` : found.path));
}

describe('mention search ranking', () => {
  it('needs the characters in order, case-insensitively', () => {
    assert.ok(fuzzyMatch('app', 'src/App.ts'));
    assert.equal(fuzzyMatch('ppa', 'src/app.ts'), undefined);
    assert.equal(fuzzyMatch('xyz', 'src/app.ts'), undefined);
  });

  it('reports where the characters matched, in the file name when they are there', () => {
    assert.deepEqual(fuzzyMatch('app', 'src/app.ts')!.matches, [4, 5, 6]);
    assert.deepEqual(fuzzyMatch('cc', 'src/chatController.ts')!.matches, [4, 8]);
  });

  it('ranks a file-name match over the same letters spread across folders', () => {
    assert.deepEqual(ranked(['apps/parser/plain.ts', 'src/app.ts'], 'app', 2), ['src/app.ts', 'apps/']);
  });

  it('ranks word starts (camelCase, separators) over mid-word letters', () => {
    const order = ranked(['src/blocked.ts', 'src/chatController.ts'], 'cc');
    assert.equal(order[0], 'src/chatController.ts');
  });

  it('ranks the shorter of two equal matches first', () => {
    assert.deepEqual(ranked(['src/application.test.ts', 'src/app.ts'], 'app').slice(0, 2), ['src/app.ts', 'src/application.test.ts']);
  });

  it('finds a path typed with its folder, spaces ignored', () => {
    assert.equal(normalizeQuery('Src App'), 'srcapp');
    assert.equal(ranked(['lib/app.ts', 'src/app.ts', 'src/other.ts'], 'src app')[0], 'src/app.ts');
  });

  it('offers folders derived from the files, and forgets them with their last file', () => {
    const index = new FileIndex();
    index.add(0, 'src/util/strings.ts');
    index.add(0, 'src/util/numbers.ts');
    assert.ok(index.search('util', 5).some((found) => found.kind === 'folder' && found.path === 'src/util'));
    index.remove(0, 'src/util/strings.ts');
    assert.ok(index.search('util', 5).some((found) => found.kind === 'folder'));
    index.remove(0, 'src/util/numbers.ts');
    assert.equal(index.search('util', 5).length, 0);
    assert.equal(index.size, 0);
  });

  it('removes everything under a removed folder', () => {
    const index = new FileIndex();
    for (const path of ['a/b/one.ts', 'a/b/two.ts', 'a/three.ts']) index.add(0, path);
    index.remove(0, 'a/b');
    assert.deepEqual(index.filesUnder(0, 'a'), ['a/three.ts']);
  });

  it('keeps only the best matches, best first, within the limit', () => {
    const paths = Array.from({ length: 500 }, (_, i) => `pkg${i}/module${i}/index.ts`);
    paths.push('src/index.ts');
    const found = ranked(paths, 'index.ts', 5);
    assert.equal(found.length, 5);
    assert.equal(found[0], 'src/index.ts');
  });

  it('lists nothing for an empty query', () => {
    assert.deepEqual(ranked(['a.ts'], '  '), []);
  });
});

describe('mention search as the user types', () => {
  const paths = Array.from(
    { length: 400 },
    (_, i) => `packages/pkg${i % 20}/${i % 3 ? 'src' : 'tests'}/feat${i % 7}/mod${i}${['Util', 'View', 'api'][i % 3]}.ts`,
  );

  it('gives each keystroke the results a fresh search gives, while narrowing to what the last query matched', () => {
    const typing = new FileIndex();
    for (const path of paths) typing.add(0, path);
    for (const query of ['pkg17util', 'mod12', 'srcview', 'pkg1', 'feat3api', 'xyz', 'teststs']) {
      for (let length = 1; length <= query.length; length++) {
        const typed = query.slice(0, length);
        const fresh = new FileIndex();
        for (const path of paths) fresh.add(0, path);
        assert.deepEqual(typing.search(typed, 15), fresh.search(typed, 15), typed);
      }
    }
  });

  it('finds a file added (or forgets one removed) between two keystrokes', () => {
    const index = new FileIndex();
    for (const path of paths) index.add(0, path);
    assert.equal(index.search('zebra', 5).length, 0);
    index.add(0, 'docs/zebraCrossing.md');
    assert.deepEqual(
      index.search('zebrac', 5).map((found) => found.path),
      ['docs/zebraCrossing.md'],
    );
    index.remove(0, 'docs/zebraCrossing.md');
    assert.deepEqual(index.search('zebracr', 5), []);
  });

  it('scores without positions exactly as with them', () => {
    for (const path of paths.slice(0, 60)) {
      for (const query of ['p', 'pkg', 'mu', 'srcv', 'tsts', 'feat2mod', 'zz']) {
        assert.equal(fuzzyScore(query, path), fuzzyMatch(query, path)?.score, `${query} in ${path}`);
      }
    }
  });
});
