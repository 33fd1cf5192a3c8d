/**
 * The journal's retention (JOURNAL_RETENTION, platform/config/env.ts): what becomes of the segments that the oldest
 * kept snapshot covers, once the engine host has written a snapshot.
 *
 * - `keep` (the default): nothing; the journal holds every command since genesis.
 * - `archive`: each covered segment is moved into the archive directory (JOURNAL_ARCHIVE_DIR, default
 *   `DATA_DIR/journal-archive`; a folder, or an object store mounted as one), durably and never losing one: copied to
 *   `<name>.tmp` in the archive, fdatasynced, renamed to its name and the archive directory fsynced; only then removed
 *   from the journal directory (which is fsynced). A crash at any point leaves the segment in the journal, in the
 *   archive, or in both (a later run copies it again over the archive's and removes it); a `.tmp` left behind is
 *   ignored by every reader and overwritten by the next move. Recovery reads the archive when the journal directory
 *   does not reach back far enough (a lost database is rebuilt from genesis: journal.ts `readJournal`'s `archiveDir`).
 * - `delete`: the covered segments are removed (journal.ts `pruneSegments`). A lost database can then no longer be
 *   rebuilt: its history is gone (the host refuses to start on one and says so; restore the database from a backup).
 *
 * Which segments: those all of whose records are at or before `coveredSeq`, which the host sets to the lower of the
 * oldest kept snapshot's sequence number and the database's projection cursor, and only while two snapshots are kept
 * (the older one is the fallback of the newest: a restart that cannot read the newest replays the journal after the
 * older one, so that stretch stays). The newest segment (the one being written) is never touched. The recorded durable
 * position (durable-position.ts) is unaffected: it is about the journal's end, and only older segments go.
 */
import path from 'node:path';
import type { HostFs } from './host-fs';
import { listSegments, pruneSegments } from './journal';

/** JOURNAL_RETENTION's values (platform/config/env.ts `JournalRetention`). */
export type JournalRetentionPolicy = 'keep' | 'archive' | 'delete';

/** What one `applyJournalRetention` did. */
export interface RetentionResult {
  /** Segments moved into the archive. */
  archived: number;
  /** Segments removed (policy `delete`). */
  deleted: number;
}

/**
 * The segments of `dir` all of whose records are at or before `coveredSeq` (a segment's records end where the next
 * segment starts), oldest first; never the newest segment.
 */
export async function coveredSegments(fs: HostFs, dir: string, coveredSeq: number): Promise<Array<{ start: number; file: string }>> {
  const segments = await listSegments(fs, dir);
  return segments.filter((_, i) => i < segments.length - 1 && segments[i + 1]!.start <= coveredSeq + 1);
}

/**
 * Moves `segments` (files of the journal directory `dir`) into `archiveDir` durably: every one copied (temporary
 * file, fdatasync, rename) and the archive directory fsynced before any is removed from `dir` (then fsynced). Returns
 * how many were moved. Rejects when the file system fails: a segment is then in the journal, the archive or both,
 * never in neither.
 */
export async function archiveSegments(fs: HostFs, dir: string, archiveDir: string, segments: ReadonlyArray<{ file: string }>): Promise<number> {
  if (segments.length === 0) return 0;
  await fs.mkdirp(archiveDir);
  for (const seg of segments) {
    const final = path.join(archiveDir, path.basename(seg.file));
    const tmp = `${final}.tmp`;
    const bytes = await fs.readFile(seg.file);
    const fh = await fs.openTruncate(tmp);
    try {
      await fh.write(bytes);
      await fh.datasync();
    } finally {
      await fh.close();
    }
    await fs.rename(tmp, final);
  }
  await fs.fsyncDir(archiveDir);
  for (const seg of segments) await fs.rm(seg.file);
  await fs.fsyncDir(dir);
  return segments.length;
}

/**
 * Applies `policy` to the segments of the journal directory `dir` all of whose records are at or before
 * `coveredSeq` (never the newest segment; see the module comment for how the host chooses `coveredSeq`): nothing
 * (`keep`), moved into `archiveDir` (`archive`) or removed (`delete`). Rejects when the file system fails (nothing is
 * lost: see `archiveSegments`).
 */
export async function applyJournalRetention(
  fs: HostFs,
  dir: string,
  policy: JournalRetentionPolicy,
  archiveDir: string,
  coveredSeq: number,
): Promise<RetentionResult> {
  if (policy === 'keep' || coveredSeq <= 0) return { archived: 0, deleted: 0 };
  if (policy === 'delete') return { archived: 0, deleted: await pruneSegments(fs, dir, coveredSeq) };
  return { archived: await archiveSegments(fs, dir, archiveDir, await coveredSegments(fs, dir, coveredSeq)), deleted: 0 };
}
