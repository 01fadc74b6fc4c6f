import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import fc from 'fast-check';
import { resolveDownloadFolder, videoFileName } from '../../../../src/video/core/fileNaming';

describe('video file naming', () => {
  it('names the file from the prompt and the task id', () => {
    assert.equal(videoFileName('A paper boat on a rainy street', 'task_abc123'), 'a-paper-boat-on-a-rainy-street-task_abc123.mp4');
    assert.equal(videoFileName('Café crème — déjà vu!', 'task_1'), 'cafe-creme-deja-vu-task_1.mp4');
    assert.equal(videoFileName(undefined, 'task_1'), 'video-task_1.mp4');
    assert.match(videoFileName('🎬🎬', '../../'), /^video-task-[0-9a-f]{8}\.mp4$/, 'an id that loses everything keeps a hash of itself');
    assert.equal(videoFileName('x'.repeat(300), 'y'.repeat(300)).length, 40 + 1 + 48 + 1 + 8 + 4, 'a cut id keeps a hash of the whole');
  });

  it('never leaves the folder, whatever the id and prompt contain', () => {
    const folder = '/workspace/videos';
    const fileInFolder = (dir: string, name: string) => path.posix.join(dir, name);
    const hostile = ['../../etc/passwd', '..\\..\\windows', '/abs/path', 'C:\\x', '.hidden', 'a/../../b', '\u0000nul', '..', '.'];
    for (const id of hostile) {
      for (const prompt of [...hostile, undefined]) {
        const name = videoFileName(prompt, id);
        assert.match(name, /^[a-z0-9_-][A-Za-z0-9_-]*\.mp4$/, name);
        assert.equal(path.posix.dirname(fileInFolder(folder, name)), folder);
      }
    }
    fc.assert(
      fc.property(fc.string(), fc.string(), (prompt, id) => {
        const name = videoFileName(prompt, id);
        return /^[A-Za-z0-9_-]+\.mp4$/.test(name) && path.posix.dirname(fileInFolder(folder, name)) === folder;
      }),
      { numRuns: 500 },
    );
  });

  it('resolves the download folder inside the workspace folder of any file system, or an absolute one chosen on purpose', () => {
    const root = '/workspace';
    assert.deepEqual(resolveDownloadFolder('videos', root), { path: '/workspace/videos' });
    assert.deepEqual(resolveDownloadFolder('out/clips/', root), { path: '/workspace/out/clips' });
    assert.deepEqual(resolveDownloadFolder('out\\clips', '/workspace/'), { path: '/workspace/out/clips' });
    assert.deepEqual(resolveDownloadFolder('  ', root), { path: '/workspace/videos' });
    assert.deepEqual(resolveDownloadFolder('videos', '/'), { path: '/videos' }, 'a virtual file system rooted at /');
    assert.ok('problem' in resolveDownloadFolder('../elsewhere', root));
    assert.ok('problem' in resolveDownloadFolder('videos/../../x', root));
    assert.deepEqual(resolveDownloadFolder(path.resolve('/tmp/clips'), root), { absolute: path.resolve('/tmp/clips') });
  });
});
