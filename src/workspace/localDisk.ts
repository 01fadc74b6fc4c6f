// The one module outside src/api that reads the disk itself (eslint.config.mjs allows it here alone). It serves
// `file:` URIs, which name this machine's disk: the extension host runs where the workspace's files are (a remote
// window's files are on the remote host, and so is this extension host). `vscode.workspace.fs` cannot say where a link
// leads, and lists a folder eight times slower than Node does here (the boundary lists every folder it checks).
// Every other file operation goes through `vscode.workspace.fs`.
import { readdir, realpath, stat } from 'node:fs/promises';
import { sep } from 'node:path';
import type { FolderEntry } from './core/canonicalPlace';

/** The separator of the paths `realPathOf` answers. */
export const LOCAL_SEPARATOR = sep === '\\' ? '\\' : '/';

/**
 * The absolute path of a file or folder with every link resolved, spelled as the file system stores it (the real case
 * on macOS and Windows: `fs.promises.realpath` is the native realpath), and whether it is a folder; undefined when it
 * does not exist, or a link leads nowhere or in a loop.
 */
export async function realPathOf(fsPath: string): Promise<{ path: string; isFolder: boolean } | undefined> {
  try {
    const path = await realpath(fsPath);
    return { path, isFolder: (await stat(path)).isDirectory() };
  } catch {
    return undefined;
  }
}

/** The entries of a folder as the disk names them, links as links (not followed); undefined when it cannot be read. */
export async function readLocalFolder(fsPath: string): Promise<FolderEntry[] | undefined> {
  try {
    return (await readdir(fsPath, { withFileTypes: true })).map((entry) => ({
      name: entry.name,
      isFolder: entry.isDirectory(),
      isLink: entry.isSymbolicLink(),
    }));
  } catch {
    return undefined;
  }
}
