import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listFiles, PackageManager } from '@vscode/vsce';
import { notForUsers } from '../../vsix/packageContents';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

interface Manifest {
  repository?: unknown;
  bugs?: unknown;
  homepage?: unknown;
  qna?: unknown;
  galleryBanner?: { color?: unknown; theme?: unknown };
}

function read(file: string): string {
  return fs.readFileSync(path.join(ROOT, file), 'utf8');
}

/** What a user sees before the README's developer section. */
function userPart(readme: string, developHeading: string): string {
  const at = readme.indexOf(`\n${developHeading}\n`);
  assert.ok(at > 0, `the README has its "${developHeading}" section`);
  return readme.slice(0, at);
}

describe('the Marketplace page: the manifest, the README and what the VSIX holds (issue 28)', function () {
  this.timeout(30_000);

  it('names no made-up address: repository, bugs and homepage are real https addresses or absent; no Q&A link', () => {
    const manifest = JSON.parse(read('package.json')) as Manifest;
    for (const field of ['repository', 'bugs', 'homepage'] as const) {
      const value = manifest[field];
      if (value === undefined) continue;
      const url = typeof value === 'string' ? value : (value as { url?: string }).url;
      assert.match(String(url), /^https:\/\/(?![^/]*\.(invalid|example|test|localhost)\b)/, `${field}: ${JSON.stringify(value)}`);
    }
    assert.equal(manifest.qna, false);
    assert.match(String(manifest.galleryBanner?.color), /^#[0-9a-f]{6}$/i);
    assert.ok(manifest.galleryBanner?.theme === 'dark' || manifest.galleryBanner?.theme === 'light');
  });

  it('opens with what Promptreel does for users: no developer command before the Develop section, both set-up commands in it', () => {
    for (const [file, heading] of [
      ['README.md', '## Develop'],
      ['README.zh-cn.md', '## 参与开发'],
    ] as const) {
      const readme = read(file);
      const forUsers = userPart(readme, heading);
      assert.doesNotMatch(forUsers, /\bnpm (ci|start|test|run)\b|apt-get|playwright|chromium/i, `${file} before "${heading}"`);
      const develop = readme.slice(forUsers.length);
      assert.match(develop, /npm ci && npm start/);
      assert.match(develop, /npm test/);
    }
  });

  it('ships only what a user needs, the README’s screenshots included', async () => {
    const listed = (await listFiles({ cwd: ROOT, packageManager: PackageManager.None })).map((file) => file.replace(/\\/g, '/'));
    assert.deepEqual(notForUsers(listed), []);
    for (const file of ['README.md', 'README.zh-cn.md']) {
      const images = [...read(file).matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((match) => match[1]);
      assert.ok(images.length >= 3, `${file} shows the panel, a video task and the gallery`);
      for (const image of images) {
        assert.ok(listed.includes(image), `${file}: ${image} is in the VSIX`);
        assert.ok(fs.existsSync(path.join(ROOT, image)), `${file}: ${image} exists`);
      }
    }
  });
});
