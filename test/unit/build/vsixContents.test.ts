import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listedName, missingFiles, notForUsers } from '../../vsix/packageContents';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface PinnedStack {
  vscode: string;
  codeServer: string;
}

// The VS Code versions `npm run test:vsix` installs (plain JS, shared with the npm scripts).
const { STACKS } = require(path.join(ROOT, 'scripts', 'vscode', 'stack.js')) as { STACKS: Record<string, PinnedStack> };

describe('npm run test:vsix: what it checks the package against (issue 28.8)', () => {
  it('names the files of a package a user does not need', () => {
    const listed = [
      'package.json',
      'dist/extension.js',
      'dist/extension.js.map',
      'src/extension.ts',
      'test/vsix/index.ts',
      'out/test/vsix/index.js',
      'node_modules/zod/index.js',
      '.artifacts/logs/unit.log',
      'media/screenshots/chat-panel.png',
    ];
    assert.deepEqual(notForUsers(listed), [
      'dist/extension.js.map',
      'src/extension.ts',
      'test/vsix/index.ts',
      'out/test/vsix/index.js',
      'node_modules/zod/index.js',
      '.artifacts/logs/unit.log',
    ]);
  });

  it('finds what the package names but does not hold: a manifest path, a locale’s l10n bundle, a required or resolved file', () => {
    const sources: Record<string, string> = {
      'package.json': JSON.stringify({ main: './dist/start.js', icon: 'media/icon.png', l10n: './l10n', contributes: { x: [{ icon: 'media/a.svg' }] } }),
      'dist/start.js': 'var e=load(require.resolve("./extension.js"));',
      'dist/extension.js': 'var a=require("./chunk-A.js"),b=require("./undici.js"),v=require("vscode");',
      'dist/undici.js': 'module.exports={}',
    };
    const files = ['package.json', 'package.nls.json', 'package.nls.zh-cn.json', 'dist/start.js', 'dist/undici.js', 'l10n/bundle.l10n.json', 'media/a.svg'];
    assert.deepEqual(
      missingFiles(files, (file) => sources[file] ?? ''),
      ['dist/extension.js', 'l10n/bundle.l10n.zh-cn.json', 'media/icon.png'],
    );
    const withBundle = [...files, 'dist/extension.js'];
    assert.deepEqual(
      missingFiles(withBundle, (file) => sources[file] ?? ''),
      ['dist/chunk-A.js', 'l10n/bundle.l10n.zh-cn.json', 'media/icon.png'],
    );
    assert.deepEqual(
      missingFiles([...withBundle, 'dist/chunk-A.js', 'l10n/bundle.l10n.zh-cn.json', 'media/icon.png'], (file) => sources[file] ?? ''),
      [],
    );
  });

  it('names an installed file as vsce ls does', () => {
    assert.deepEqual(['readme.md', 'changelog.md', 'LICENSE.txt', '.vsixmanifest', 'README.zh-cn.md', 'dist/extension.js'].map(listedName), [
      'README.md',
      'CHANGELOG.md',
      'LICENSE',
      undefined,
      'README.zh-cn.md',
      'dist/extension.js',
    ]);
  });

  it('installs the oldest VS Code that engines.vscode allows, and the typings are of that version', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      engines: { vscode: string };
      devDependencies: Record<string, string>;
    };
    const oldest = /^\^(\d+\.\d+)\.0$/.exec(manifest.engines.vscode)?.[1];
    assert.ok(oldest, `engines.vscode is ^MAJOR.MINOR.0: ${manifest.engines.vscode}`);
    assert.ok(STACKS[oldest], `scripts/vscode/stack.js pins VS Code ${oldest} (pinned: ${Object.keys(STACKS).join(', ')})`);
    assert.ok(STACKS[oldest].vscode.startsWith(`${oldest}.`), `code-server ${STACKS[oldest].codeServer} bundles VS Code ${STACKS[oldest].vscode}`);
    assert.equal(manifest.devDependencies['@types/vscode'], `~${oldest}.0`);
  });
});
