// Typed access to the harness modules in scripts/vscode (plain JS shared with the npm scripts).
// They are loaded from the repository root at run time: the compiled tests live one level deeper (out/).
import * as fs from 'fs';
import * as path from 'path';
import type * as Browser from '../../../scripts/vscode/browser.d';
import type * as Extensions from '../../../scripts/vscode/extensions.d';
import type * as Paths from '../../../scripts/vscode/paths.d';
import type * as Processes from '../../../scripts/vscode/processes.d';
import type * as Profile from '../../../scripts/vscode/profile.d';
import type * as Server from '../../../scripts/vscode/server.d';

function findRepoRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'scripts', 'vscode', 'paths.js'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no scripts/vscode above ${from}`);
  }
}

const root = findRepoRoot(__dirname);

function load<T>(name: string): T {
  return require(path.join(root, 'scripts', 'vscode', name)) as T;
}

export const browser = load<typeof Browser>('browser.js');
export const extensions = load<typeof Extensions>('extensions.js');
export const paths = load<typeof Paths>('paths.js');
export const processes = load<typeof Processes>('processes.js');
export const profile = load<typeof Profile>('profile.js');
export const server = load<typeof Server>('server.js');
