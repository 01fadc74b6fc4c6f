import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');

/** Folders of a tier that hold no tests of src/: the tier's shared helpers and the files tests load. */
const TIER_FOLDERS = ['support', 'fixtures'];
/**
 * The unit tier's checks of what is not in src/, each named after the repo-level thing it tests: bench/ (the
 * benchmark's report logic, bench/), build/ (esbuild.js, package.json, eslint.config.mjs), l10n/ (the bundles in
 * l10n/), service/ (the local service, test/service/).
 */
const REPO_LEVEL = { unit: ['bench', 'build', 'l10n', 'service'], host: [] as string[] };

/** The folders below `tier` (relative, `/`-separated) that are not a folder of `src` at the same place. */
function foldersNotInSrc(tier: string, src: string, exceptions: readonly string[]): string[] {
  const strays: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(tier, relative), { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (!relative && exceptions.includes(entry.name)) continue;
      if (fs.statSync(path.join(src, child), { throwIfNoEntry: false })?.isDirectory()) walk(child);
      else strays.push(child);
    }
  };
  walk('');
  return strays;
}

describe('the test folders mirror src/', () => {
  for (const [tier, repoLevel] of Object.entries(REPO_LEVEL)) {
    it(`every folder of test/${tier} is a folder of src/ (apart from ${[...TIER_FOLDERS, ...repoLevel].join(', ')})`, () => {
      const strays = foldersNotInSrc(path.join(ROOT, 'test', tier), path.join(ROOT, 'src'), [...TIER_FOLDERS, ...repoLevel]);
      assert.deepEqual(strays, [], `move the tests of test/${tier}/${strays[0] ?? ''} into the folder of the code they test`);
    });
  }

  it('names a folder that src/ does not have, at any depth, and one nested in the wrong place', () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'promptreel-layout-'));
    try {
      for (const folder of ['src/video/core', 'src/api', 'test/video/core', 'test/video/api', 'test/shell', 'test/support/deep'])
        fs.mkdirSync(path.join(scratch, folder), { recursive: true });
      assert.deepEqual(foldersNotInSrc(path.join(scratch, 'test'), path.join(scratch, 'src'), TIER_FOLDERS).sort(), ['shell', 'video/api']);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
