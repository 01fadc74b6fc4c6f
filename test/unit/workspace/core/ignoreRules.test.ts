import * as assert from 'node:assert/strict';
import { excludeGlob, excludeMatcher } from '../../../../src/workspace/core/excludeSettings';
import { compileGlob } from '../../../../src/workspace/core/globMatcher';
import { IgnoreRules } from '../../../../src/workspace/core/ignoreRules';

describe('.gitignore rules and exclude settings', () => {
  const rules = new IgnoreRules();
  rules.add('', ['# build output', 'dist/', '*.log', '!keep.log', '/root-only.txt', 'docs/**/*.tmp', ''].join('\n'));
  rules.add('packages/web', 'generated\n');

  it('ignores a folder and everything in it (trailing slash: folders only)', () => {
    assert.equal(rules.ignores('dist', true), true);
    assert.equal(rules.ignores('dist/app.js'), true);
    assert.equal(rules.ignores('src/dist/app.js'), true);
    assert.equal(rules.ignores('dist'), false, 'a file named dist is not a folder');
  });

  it('matches a pattern without a slash at any depth, and re-includes with !', () => {
    assert.equal(rules.ignores('error.log'), true);
    assert.equal(rules.ignores('logs/deep/error.log'), true);
    assert.equal(rules.ignores('logs/keep.log'), false);
  });

  it('anchors a pattern with a slash to its .gitignore folder', () => {
    assert.equal(rules.ignores('root-only.txt'), true);
    assert.equal(rules.ignores('src/root-only.txt'), false);
    assert.equal(rules.ignores('docs/a/b/x.tmp'), true);
    assert.equal(rules.ignores('docs/x.tmp'), true);
    assert.equal(rules.ignores('other/x.tmp'), false);
  });

  it('applies a nested .gitignore below its folder only', () => {
    assert.equal(rules.ignores('packages/web/generated/a.ts'), true);
    assert.equal(rules.ignores('packages/api/generated/a.ts'), false);
  });

  it('does not bring back a file inside an ignored folder', () => {
    const nested = new IgnoreRules();
    nested.add('', 'build/\n!build/keep.txt\n');
    assert.equal(nested.ignores('build/keep.txt'), true);
  });

  it('turns VS Code exclude settings into a matcher and a findFiles glob, leaving out those set to false', () => {
    const settings = [
      { '**/node_modules': true, '**/.git': true, 'tmp/*.txt': false },
      { '**/*.min.js': true, out: { when: '$(basename).ts' } },
    ];
    const excluded = excludeMatcher(settings);
    assert.equal(excluded('node_modules/x/index.js'), true);
    assert.equal(excluded('packages/a/node_modules/x.js'), true);
    assert.equal(excluded('web/app.min.js'), true);
    assert.equal(excluded('out/main.js'), true);
    assert.equal(excluded('tmp/a.txt'), false);
    assert.equal(excluded('src/app.ts'), false);
    assert.equal(excludeGlob(settings), '{**/node_modules,**/.git,**/*.min.js,out}');
    assert.equal(excludeGlob([{}]), undefined);
  });

  it('translates braces, brackets and escapes', () => {
    const test = (glob: string, path: string) => compileGlob(glob).matches(path);
    assert.equal(test('*.{ts,js}', 'a.js'), true);
    assert.equal(test('*.{ts,js}', 'a.css'), false);
    assert.equal(test('file[0-9].txt', 'file7.txt'), true);
    assert.equal(test('file[!0-9].txt', 'file7.txt'), false);
    assert.equal(test('a.b', 'axb'), false);
    assert.equal(test('src/*', 'src/a/b'), false);
  });
});
