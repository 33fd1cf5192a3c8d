/**
 * The data directory's lock: one engine host (one process) writes a data directory's journal, snapshots and PGlite
 * database at a time. `DATA_DIR/server.lock` holds the holder's pid, host name and start time (JSON); it is created
 * exclusively and removed on close. A lock whose process is gone (a kill -9, a crash, a power loss) is stale and is
 * taken over; one held by a live process on this host refuses a second server, and an offline backup of PGlite
 * (tools/backup.ts), which would copy a database being written.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** File name of the lock under the data directory. */
export const LOCK_FILE = 'server.lock';

/** What the lock file says of its holder. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO time the holder took the lock. */
  since: string;
  /** A random id of this taking (two takings in one process and one millisecond differ). */
  token?: string;
}

/** A held lock. */
export interface DataDirLock {
  /** Removes the lock file if it is still this process's (idempotent). */
  release(): void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockHolder | null {
  try {
    const h = JSON.parse(fs.readFileSync(file, 'utf8')) as LockHolder;
    return Number.isSafeInteger(h.pid) && typeof h.hostname === 'string' ? h : null;
  } catch {
    return null;
  }
}

/**
 * The live holder of `dataDir`'s lock other than this process, or null (no lock, a stale one, or this process's own).
 * Liveness is the pid's on this host, as PostgreSQL's postmaster.pid: a container recreated with another host name
 * must not find its own old lock live (a data directory shared by two hosts at once is not supported).
 */
export function dataDirHolder(dataDir: string): LockHolder | null {
  const h = readHolder(path.join(dataDir, LOCK_FILE));
  if (h === null || h.pid === process.pid || !alive(h.pid)) return null;
  return h;
}

/**
 * Takes `dataDir`'s lock for this process. Throws when another live process holds it (the message names its pid and
 * host). A stale lock, or this process's own (a test that opens a directory again), is taken over.
 */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, LOCK_FILE);
  const mine: LockHolder = { pid: process.pid, hostname: os.hostname(), since: new Date().toISOString(), token: randomUUID() };
  const text = `${JSON.stringify(mine)}\n`;
  try {
    fs.writeFileSync(file, text, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const holder = dataDirHolder(dataDir);
    if (holder !== null)
      throw new Error(
        `${dataDir} is in use by another server (pid ${holder.pid} on ${holder.hostname}, since ${holder.since}): stop it first; if it is gone, remove ${file}`,
      );
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o600 });
    fs.renameSync(tmp, file);
  }
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      const h = readHolder(file);
      if (h !== null && h.pid === process.pid && h.token === mine.token) fs.rmSync(file, { force: true });
    },
  };
}
