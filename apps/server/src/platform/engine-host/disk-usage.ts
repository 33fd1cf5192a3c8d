/**
 * The data directory's disk usage as the operators' metrics show it (platform/metrics/metrics.ts): the bytes of the
 * journal, of its archive (journal-retention.ts) and of the snapshots, and the free space of the data directory's
 * file system, next to the configured alert threshold (DISK_FREE_ALERT_BYTES). Read from the real disk (node:fs).
 */
import fsp from 'node:fs/promises';
import path from 'node:path';

/** What `dataDirUsage` found; every figure in bytes. */
export interface DataDirUsage {
  /** Files in `<dataDir>/journal` (segments and the recorded durable position). */
  journalBytes: number;
  /** Files in the journal's archive directory (0 when it does not exist). */
  archiveBytes: number;
  /** Files in `<dataDir>/snapshots`. */
  snapshotsBytes: number;
  /** Space available to this process on the data directory's file system (statfs: bavail * bsize). */
  freeBytes: number;
  /** Size of the data directory's file system (statfs: blocks * bsize). */
  fsSizeBytes: number;
  /** DISK_FREE_ALERT_BYTES: an alert should fire when `freeBytes` is below it. */
  alertBytes: number;
}

/** Sum of the sizes of the regular files directly in `dir` (0 when it is missing; a file removed meanwhile counts 0). */
export async function dirBytes(dir: string): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let total = 0;
  for (const name of names) {
    const st = await fsp.stat(path.join(dir, name)).catch(() => null);
    if (st?.isFile()) total += st.size;
  }
  return total;
}

/**
 * The usage of data directory `dataDir` (journal and snapshots under it; the archive at `archiveDir`) and of its
 * file system, with `alertBytes` passed through. Rejects when the data directory cannot be read or statfs fails.
 */
export async function dataDirUsage(dataDir: string, archiveDir: string, alertBytes: number): Promise<DataDirUsage> {
  const [journalBytes, archiveBytes, snapshotsBytes, st] = await Promise.all([
    dirBytes(path.join(dataDir, 'journal')),
    dirBytes(archiveDir),
    dirBytes(path.join(dataDir, 'snapshots')),
    fsp.statfs(dataDir),
  ]);
  return { journalBytes, archiveBytes, snapshotsBytes, freeBytes: st.bavail * st.bsize, fsSizeBytes: st.blocks * st.bsize, alertBytes };
}
