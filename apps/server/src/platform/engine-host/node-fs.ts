/**
 * The real HostFs, over node:fs/promises. Durability follows host-fs.ts: `datasync` is fdatasync(2),
 * `fsyncDir` is fsync(2) on the directory, `truncate` syncs the cut file, and `mkdirp` fsyncs the parent of every
 * directory it creates (so that `data/` and `data/journal/` themselves survive a power loss, not only their files).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { FileHandle, HostFs } from './host-fs';

/** Wraps an open node file handle; `write` loops until every byte is written. */
function wrap(fh: fsp.FileHandle): FileHandle {
  return {
    async write(buf: Uint8Array): Promise<void> {
      let off = 0;
      while (off < buf.length) {
        const { bytesWritten } = await fh.write(buf, off, buf.length - off);
        off += bytesWritten;
      }
    },
    datasync: () => fh.datasync(),
    close: () => fh.close(),
  };
}

function isErrno(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** The host's file system on the real disk (see host-fs.ts for the durability contract). */
export const nodeFs: HostFs = {
  async mkdirp(dir: string): Promise<void> {
    // Find the missing directories from the top down, create each and fsync its parent.
    const missing: string[] = [];
    for (let d = path.resolve(dir); ; d = path.dirname(d)) {
      try {
        const st = await fsp.stat(d);
        if (!st.isDirectory()) throw new Error(`${d} exists and is not a directory`);
        break;
      } catch (err) {
        if (!isErrno(err, 'ENOENT')) throw err;
        missing.push(d);
        if (path.dirname(d) === d) break;
      }
    }
    for (const d of missing.reverse()) {
      try {
        await fsp.mkdir(d);
      } catch (err) {
        if (!isErrno(err, 'EEXIST')) throw err;
      }
      await fsyncDir(path.dirname(d));
    }
  },

  async readdir(dir: string): Promise<string[]> {
    try {
      return (await fsp.readdir(dir)).sort();
    } catch (err) {
      if (isErrno(err, 'ENOENT')) return [];
      throw err;
    }
  },

  readFile: (file: string) => fsp.readFile(file),

  openAppend: async (file: string) => wrap(await fsp.open(file, 'a')),

  openTruncate: async (file: string) => wrap(await fsp.open(file, 'w')),

  async truncate(file: string, length: number): Promise<void> {
    const fh = await fsp.open(file, 'r+');
    try {
      await fh.truncate(length);
      await fh.datasync();
    } finally {
      await fh.close();
    }
  },

  rename: (from: string, to: string) => fsp.rename(from, to),

  rm: (file: string) => fsp.rm(file, { force: true }),

  fsyncDir,
};
