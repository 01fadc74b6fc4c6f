// Pinned by `npm run bench -- --only film`: seconds per minute of film and peak memory, against copying the same shots.
// The one module outside src/api that reads the disk itself (eslint.config.mjs allows it here alone). It serves
// `file:` URIs, which name this machine's disk: the extension host runs where the workspace's files are (a remote
// window's files are on the remote host, and so is this extension host). `vscode.workspace.fs` cannot say where a link
// leads, and lists a folder eight times slower than Node does here (the boundary lists every folder it checks).
// Every other file operation goes through `vscode.workspace.fs`, except random access to large media (the explainer
// film's join reads its shots part by part and writes the film at positions), which `vscode.workspace.fs` cannot do.
import { open, readdir, realpath, stat } from 'node:fs/promises';
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

/** A file of this disk opened for reads at any position (a film's shot, complete: its size is read once); the caller closes it. */
export interface LocalFileReader {
  size(): Promise<number>;
  read(start: number, end: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

export async function openLocalFile(fsPath: string): Promise<LocalFileReader> {
  const handle = await open(fsPath, 'r');
  const { size } = await handle.stat();
  return {
    size: async () => size,
    read: async (start, end) => {
      const bytes = Buffer.allocUnsafe(end - start);
      let filled = 0;
      while (filled < bytes.length) {
        const { bytesRead } = await handle.read(bytes, filled, bytes.length - filled, start + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return filled === bytes.length ? bytes : bytes.subarray(0, filled);
    },
    close: () => handle.close(),
  };
}

/** A new file of this disk written at positions (the joined film); never one that exists. The caller closes it. */
export interface LocalFileWriter {
  write(data: Uint8Array, position: number): Promise<void>;
  close(): Promise<void>;
}

export async function createLocalFile(fsPath: string): Promise<LocalFileWriter> {
  const handle = await open(fsPath, 'wx');
  return {
    write: async (data, position) => {
      for (let written = 0; written < data.byteLength;) {
        const { bytesWritten } = await handle.write(data, written, data.byteLength - written, position + written);
        written += bytesWritten;
      }
    },
    close: () => handle.close(),
  };
}
