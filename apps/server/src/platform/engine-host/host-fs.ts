/**
 * The file system as the engine host sees it: the few operations the journal and the snapshot store need,
 * with their durability made explicit. `nodeFs` is the real one; `MemoryFs` (memory-fs.ts) is an in-memory
 * model of a disk with a page cache, used by the fault simulator: what was written but not yet synced may be
 * lost, torn or zero-filled by a crash, an fdatasync may fail, and an old byte may flip.
 *
 * Durability rules, as on Linux (and as the host relies on them):
 * - a file's bytes are durable after `FileHandle.datasync()` resolves;
 * - a file's existence, a rename and a removal are durable after `fsyncDir(parent)` resolves;
 * - `mkdirp` makes every directory it creates durable (it fsyncs each new directory's parent).
 */

/** An open file: append-only writes (or writes at the end after a truncating open), sync and close. */
export interface FileHandle {
  /** Writes all of `buf` at the end of the file. */
  write(buf: Uint8Array): Promise<void>;
  /** fdatasync: resolves when every byte written so far is durable; rejects when the disk failed. */
  datasync(): Promise<void>;
  close(): Promise<void>;
}

/** The operations of the host on files and directories (paths are absolute or relative to the process). */
export interface HostFs {
  /** Creates `dir` and missing parents; each new directory's creation is made durable. */
  mkdirp(dir: string): Promise<void>;
  /** Entry names of `dir`, sorted; [] when it does not exist. */
  readdir(dir: string): Promise<string[]>;
  /** Whole contents of a file; throws when it does not exist. */
  readFile(file: string): Promise<Buffer>;
  /** Opens for appending, creating the file when missing (its creation is durable only after fsyncDir). */
  openAppend(file: string): Promise<FileHandle>;
  /** Opens for writing from empty, creating or truncating the file. */
  openTruncate(file: string): Promise<FileHandle>;
  /** Cuts `file` to `length` bytes and makes the new length durable. */
  truncate(file: string, length: number): Promise<void>;
  /** Renames (replacing `to`); durable after fsyncDir of the directory. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file (no error when missing); durable after fsyncDir of the directory. */
  rm(file: string): Promise<void>;
  /** Makes creations, renames and removals in `dir` durable. */
  fsyncDir(dir: string): Promise<void>;
}
