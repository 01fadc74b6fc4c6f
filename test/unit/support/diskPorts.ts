import { open } from 'node:fs/promises';
import type { ByteReader, ByteWriter } from '../../../src/video/film/core/filmJoin';

/** A shot on this disk read part by part through the join's reader port (the tests read the clips the service served). */
export async function openDiskFile(fsPath: string): Promise<ByteReader & { close(): Promise<void> }> {
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

/** A new file on this disk written at positions through the join's writer port; never one that exists. */
export async function createDiskFile(fsPath: string): Promise<ByteWriter> {
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
