import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BENCH_ARTIFACTS, ROOT } from '../support/paths';

/** What `npm run package` packs, copied so the bench never rewrites the dist/ other work is using. */
const COPIED = ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', '.vscodeignore', 'esbuild.js', 'tsconfig.json', 'media', 'src'];

export interface StagedPackage {
  dir: string;
  extensionJs: string;
  vsix: string;
  seconds: number;
}

/**
 * Runs the real `npm run package` (production esbuild + vsce) in a copy of the sources under .artifacts/bench/package,
 * with node_modules linked: the sizes are those of the shipped files, and the copy is also the extension whose
 * activation the host part measures.
 */
export async function stagePackage(): Promise<StagedPackage> {
  const dir = path.join(BENCH_ARTIFACTS, 'package');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  for (const entry of COPIED) {
    const from = path.join(ROOT, entry);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, entry), { recursive: true });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    execFile('npm', ['run', 'package', '--silent'], { cwd: dir, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`npm run package failed in the staged copy: ${(stderr || stdout || error.message).trim().slice(-800)}`));
      else resolve();
    });
  });
  return {
    dir,
    extensionJs: path.join(dir, 'dist', 'extension.js'),
    vsix: path.join(dir, 'dist', 'promptreel.vsix'),
    seconds: (Date.now() - started) / 1000,
  };
}
