/**
 * An in-memory disk with a page cache, for the deterministic fault simulator (a HostFs, see host-fs.ts).
 *
 * Each file (an inode) has its CURRENT bytes (what reads see: the page cache) and its DURABLE bytes (what
 * survives a power loss); each directory has current and durable entries (name -> file or directory).
 * - `FileHandle.datasync()` makes the file's current bytes durable; `truncate` cuts and syncs the data.
 * - `fsyncDir(dir)` makes the directory's entries durable: creations, renames and removals in it.
 * - `mkdirp` creates directories durably (it fsyncs each new directory's parent, as nodeFs does).
 * - `crash(opts)` returns the disk after a power loss: every file keeps its durable bytes plus, as `opts`
 *   decide, none, all, a prefix, or a zero-filled copy of its unsynced suffix; each directory falls back to
 *   its durable entries (a file whose creation was never dir-fsynced disappears, an unsynced rename reverts).
 * - Faults are injected on demand, deterministically: `failNextDatasync()` (EIO), `failNextWrite(bytes)`,
 *   `failNextFsyncDir()`, `flipBit(file, offset, bit)`. As on Linux, a failed fdatasync leaves the unsynced
 *   data in the page cache but no longer dirty: if it is retried and "succeeds", those bytes still read as
 *   zeros after a crash (the error was reported once; `crash` decides their fate when there was no retry).
 *
 * Paths are POSIX; a relative path is taken from `/`. Randomness comes only from a caller's PRNG (`CrashRng`).
 */
import path from 'node:path';
import type { FileHandle, HostFs } from './host-fs';

/** What reaches the disk of one file's unsynced suffix in a crash. */
export type UnsyncedFate =
  /** None of it (the default). */
  | 'drop'
  /** All of it (the writeback happened just before the power went). */
  | 'keep'
  /** The file keeps its length but the suffix reads as zeros (blocks allocated, data never written: XFS, ext4). */
  | 'zero'
  /** The first `tornAt` bytes of it (clamped to its length): a write torn at a byte count. */
  | { tornAt: number };

/** What happens to a directory's unsynced entry changes in a crash: lost (the default) or kept. */
export type DirFate = 'drop' | 'keep';

/** A seeded PRNG, e.g. domains/market-jobs/prng.ts `Prng`: an integer in [lo, hi], both inclusive. */
export interface CrashRng {
  nextInt(lo: number, hi: number): number;
}

/** How `crash` treats unsynced data and directory changes. Explicit fates win over `rng`. */
export interface CrashOptions {
  /** One fate for every file, or one per file (called in sorted path order with the unsynced byte count). */
  data?: UnsyncedFate | ((file: string, unsyncedBytes: number) => UnsyncedFate);
  /** One fate for every directory, or one per directory (called in sorted path order). */
  dirs?: DirFate | ((dir: string) => DirFate);
  /** Draws every fate not given above: drop, keep, zero or torn at a uniform byte count; drop or keep. */
  rng?: CrashRng;
}

/** Counters of the operations performed (since construction, clone or crash). */
export interface MemoryFsStats {
  writes: number;
  bytesWritten: number;
  /** Successful fdatasyncs (including the one inside `truncate`). */
  datasyncs: number;
  failedDatasyncs: number;
  /** Successful directory fsyncs (including those inside `mkdirp`). */
  dirSyncs: number;
}

/** A growable byte array (appends are amortized O(1), so a long journal does not copy itself on every write). */
class Bytes {
  private buf: Buffer;
  length = 0;
  constructor(initial?: Uint8Array) {
    this.buf = Buffer.alloc(Math.max(64, initial?.length ?? 0));
    if (initial) this.append(initial);
  }
  view(): Buffer {
    return this.buf.subarray(0, this.length);
  }
  append(data: Uint8Array): void {
    this.reserve(this.length + data.length);
    this.buf.set(data, this.length);
    this.length += data.length;
  }
  /** Cuts or extends (with zeros) to `n` bytes. */
  resize(n: number): void {
    this.reserve(n);
    if (n > this.length) this.buf.fill(0, this.length, n);
    this.length = n;
  }
  private reserve(n: number): void {
    if (n <= this.buf.length) return;
    const next = Buffer.alloc(Math.max(n, this.buf.length * 2));
    this.buf.copy(next, 0, 0, this.length);
    this.buf = next;
  }
}

/** One file. Its durable bytes are either a prefix of its current bytes or a copy of their own. */
interface Inode {
  cur: Bytes;
  durable: { kind: 'prefix'; len: number } | { kind: 'own'; bytes: Buffer };
  /** The file was emptied by openTruncate since its last sync (its durable bytes are the old contents). */
  rewritten: boolean;
  /** Byte ranges whose fdatasync failed: no longer dirty, so a later sync does not write them. */
  lost: Array<[number, number]>;
}

type Entry = { kind: 'file'; inode: Inode } | { kind: 'dir' };

interface Dir {
  current: Map<string, Entry>;
  durable: Map<string, Entry>;
}

function fsError(code: string, syscall: string, p: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${p}'`), { code, syscall, path: p });
}

function durableBytes(n: Inode): Buffer {
  return n.durable.kind === 'prefix' ? n.cur.view().subarray(0, n.durable.len) : n.durable.bytes;
}

/** Makes every byte of the file durable, except those of ranges whose earlier fdatasync failed (they become zeros on disk). */
function syncInode(n: Inode): void {
  if (n.lost.length === 0) {
    n.durable = { kind: 'prefix', len: n.cur.length };
  } else {
    const bytes = Buffer.from(n.cur.view());
    for (const [from, to] of n.lost) bytes.fill(0, Math.min(from, bytes.length), Math.min(to, bytes.length));
    n.durable = { kind: 'own', bytes };
    n.lost = [];
  }
  n.rewritten = false;
}

function newInode(data?: Uint8Array): Inode {
  const cur = new Bytes(data);
  return { cur, durable: { kind: 'prefix', len: cur.length }, rewritten: false, lost: [] };
}

function drawFate(rng: CrashRng, unsynced: number): UnsyncedFate {
  switch (rng.nextInt(0, 3)) {
    case 0:
      return 'drop';
    case 1:
      return 'keep';
    case 2:
      return 'zero';
    default:
      return { tornAt: rng.nextInt(0, unsynced) };
  }
}

/** The in-memory disk (see the module comment). */
export class MemoryFs implements HostFs {
  stats: MemoryFsStats = { writes: 0, bytesWritten: 0, datasyncs: 0, failedDatasyncs: 0, dirSyncs: 0 };
  private dirs = new Map<string, Dir>([['/', { current: new Map(), durable: new Map() }]]);
  private failDatasyncs = 0;
  private failWrite: number | undefined;
  private failDirSyncs = 0;

  // ---- HostFs ------------------------------------------------------------------------------------------

  /** Creates `dir` and its missing parents, each made durable in its parent. Throws ENOTDIR over a file. */
  async mkdirp(dir: string): Promise<void> {
    const abs = norm(dir);
    const parts = abs.split('/').filter(Boolean);
    let cur = '/';
    for (const part of parts) {
      const parent = this.dirs.get(cur)!;
      const next = path.posix.join(cur, part);
      const entry = parent.current.get(part);
      if (entry?.kind === 'file') throw fsError('ENOTDIR', 'mkdir', next);
      if (!entry) {
        parent.current.set(part, { kind: 'dir' });
        this.dirs.set(next, { current: new Map(), durable: new Map() });
        await this.fsyncDir(cur);
      }
      cur = next;
    }
  }

  /** Entry names of `dir` (current view), sorted; [] when it does not exist. */
  async readdir(dir: string): Promise<string[]> {
    const d = this.dirs.get(norm(dir));
    return d ? [...d.current.keys()].sort() : [];
  }

  /** A copy of the file's current bytes. Throws ENOENT / EISDIR. */
  async readFile(file: string): Promise<Buffer> {
    return Buffer.from(this.fileInode(file, 'open').cur.view());
  }

  /** Opens for appending, creating the file (not yet durably) when missing. Throws ENOENT when the directory is missing. */
  async openAppend(file: string): Promise<FileHandle> {
    return this.handle(file, this.openOrCreate(file));
  }

  /** Opens from empty, creating or emptying the file; neither is durable before datasync / fsyncDir. */
  async openTruncate(file: string): Promise<FileHandle> {
    const inode = this.openOrCreate(file);
    if (inode.cur.length > 0 || inode.durable.kind === 'own' || inode.durable.len > 0) {
      if (inode.durable.kind === 'prefix') inode.durable = { kind: 'own', bytes: Buffer.from(durableBytes(inode)) };
      inode.rewritten = true;
      inode.cur = new Bytes();
      inode.lost = [];
    }
    return this.handle(file, inode);
  }

  /** Cuts (or zero-extends) `file` to `length` bytes and syncs its data (a datasync: it can be made to fail). */
  async truncate(file: string, length: number): Promise<void> {
    const inode = this.fileInode(file, 'open');
    // The old bytes stay durable until the sync below succeeds.
    if (inode.durable.kind === 'prefix' && length < inode.durable.len) inode.durable = { kind: 'own', bytes: Buffer.from(durableBytes(inode)) };
    inode.cur.resize(length);
    inode.lost = inode.lost.map(([a, b]): [number, number] => [Math.min(a, length), Math.min(b, length)]).filter(([a, b]) => b > a);
    this.datasyncInode(inode, norm(file));
  }

  /** Moves the entry `from` to `to` (replacing it); durable once both directories are fsynced. Files only. */
  async rename(from: string, to: string): Promise<void> {
    const [fromDir, fromName] = this.parentOf(from, 'rename');
    const [toDir, toName] = this.parentOf(to, 'rename');
    const entry = fromDir.current.get(fromName);
    if (!entry) throw fsError('ENOENT', 'rename', norm(from));
    if (entry.kind !== 'file' || toDir.current.get(toName)?.kind === 'dir') throw fsError('EISDIR', 'rename', norm(from));
    fromDir.current.delete(fromName);
    toDir.current.set(toName, entry);
  }

  /** Removes a file's entry (no error when missing); durable after fsyncDir. */
  async rm(file: string): Promise<void> {
    const [dir, name] = this.parentOf(file, 'rm', true);
    const entry = dir?.current.get(name);
    if (entry?.kind === 'dir') throw fsError('EISDIR', 'rm', norm(file));
    if (entry) dir!.current.delete(name);
  }

  /** Makes the directory's current entries durable. Throws ENOENT when missing, EIO when a failure was injected. */
  async fsyncDir(dir: string): Promise<void> {
    const d = this.dirs.get(norm(dir));
    if (!d) throw fsError('ENOENT', 'open', norm(dir));
    if (this.failDirSyncs > 0) {
      this.failDirSyncs--;
      throw fsError('EIO', 'fsync', norm(dir));
    }
    d.durable = new Map(d.current);
    this.stats.dirSyncs++;
  }

  // ---- faults ------------------------------------------------------------------------------------------

  /** The next datasync (of any file, `truncate` included) rejects with EIO; its unsynced bytes are no longer dirty. */
  failNextDatasync(): void {
    this.failDatasyncs++;
  }

  /** The next write writes its first `bytesWritten` bytes (clamped), then rejects with EIO. */
  failNextWrite(bytesWritten = 0): void {
    this.failWrite = bytesWritten;
  }

  /** The next fsyncDir rejects with EIO (the directory's changes stay unsynced). */
  failNextFsyncDir(): void {
    this.failDirSyncs++;
  }

  /** Flips bit `bit` (0..7) of byte `byteOffset` of `file`, in its current and its durable bytes. Throws past both ends. */
  flipBit(file: string, byteOffset: number, bit: number): void {
    const inode = this.fileInode(file, 'open');
    const mask = 1 << bit;
    const cur = inode.cur.view();
    const durable = durableBytes(inode);
    if (byteOffset >= cur.length && byteOffset >= durable.length) throw new Error(`flipBit: byte ${byteOffset} is past the end of ${file}`);
    if (byteOffset < cur.length) cur[byteOffset] = cur[byteOffset]! ^ mask;
    // A durable prefix shares its bytes with the current ones: flip it only when it has its own copy.
    if (inode.durable.kind === 'own' && byteOffset < durable.length) durable[byteOffset] = durable[byteOffset]! ^ mask;
  }

  // ---- crash, clone, inspection ------------------------------------------------------------------------

  /**
   * The disk after a power loss now (this instance is left as it is; handles opened on it stay on it): see
   * `CrashOptions`. In the result every byte and entry is durable and the counters start at zero. For a file
   * emptied by openTruncate and not synced since, 'keep' gives the new bytes and any other fate the old ones.
   */
  crash(opts: CrashOptions = {}): MemoryFs {
    const dirFate = (dir: string): DirFate => {
      if (typeof opts.dirs === 'string') return opts.dirs;
      if (opts.dirs) return opts.dirs(dir);
      return opts.rng ? (opts.rng.nextInt(0, 1) === 0 ? 'drop' : 'keep') : 'drop';
    };
    const dataFate = (file: string, unsynced: number): UnsyncedFate => {
      if (typeof opts.data === 'string' || (opts.data && typeof opts.data === 'object')) return opts.data;
      if (opts.data) return opts.data(file, unsynced);
      return opts.rng ? drawFate(opts.rng, unsynced) : 'drop';
    };
    return this.rebuild(
      (dirPath, d) => (dirFate(dirPath) === 'keep' ? d.current : d.durable),
      (file, n) => {
        const base = durableBytes(n);
        if (n.rewritten) return dataFate(file, n.cur.length) === 'keep' ? n.cur.view() : base;
        const suffix = n.cur.view().subarray(base.length);
        const fate = dataFate(file, suffix.length);
        if (fate === 'drop' || suffix.length === 0) return base;
        if (fate === 'keep') return Buffer.concat([base, suffix]);
        if (fate === 'zero') return Buffer.concat([base, Buffer.alloc(suffix.length)]);
        return Buffer.concat([base, suffix.subarray(0, Math.max(0, Math.min(suffix.length, fate.tornAt)))]);
      },
    );
  }

  /** An independent copy of this disk (current and durable state, nothing pending); counters start at zero. */
  clone(): MemoryFs {
    const copy = new MemoryFs();
    const inodes = new Map<Inode, Inode>();
    const copyEntries = (m: Map<string, Entry>) =>
      new Map(
        [...m].map(([name, e]): [string, Entry] => {
          if (e.kind === 'dir') return [name, e];
          let n = inodes.get(e.inode);
          if (!n) {
            n = {
              cur: new Bytes(e.inode.cur.view()),
              durable: e.inode.durable.kind === 'prefix' ? { ...e.inode.durable } : { kind: 'own', bytes: Buffer.from(e.inode.durable.bytes) },
              rewritten: e.inode.rewritten,
              lost: e.inode.lost.map(([a, b]): [number, number] => [a, b]),
            };
            inodes.set(e.inode, n);
          }
          return [name, { kind: 'file', inode: n }];
        }),
      );
    copy.dirs = new Map([...this.dirs].map(([p, d]) => [p, { current: copyEntries(d.current), durable: copyEntries(d.durable) }]));
    return copy;
  }

  /** The current and durable bytes of `file` (copies), or undefined when it does not exist (current view). */
  inspect(file: string): { current: Buffer; durable: Buffer } | undefined {
    const [dir, name] = this.parentOf(file, 'open', true);
    const entry = dir?.current.get(name);
    if (entry?.kind !== 'file') return undefined;
    return { current: Buffer.from(entry.inode.cur.view()), durable: Buffer.from(durableBytes(entry.inode)) };
  }

  // ---- internals ---------------------------------------------------------------------------------------

  /** A new disk from the directories reachable from `/` through `pick(dir)` entries, with `data(file)` as each file's bytes. */
  private rebuild(pick: (dirPath: string, d: Dir) => Map<string, Entry>, data: (file: string, n: Inode) => Uint8Array): MemoryFs {
    const out = new MemoryFs();
    out.dirs.clear();
    const inodes = new Map<Inode, Inode>();
    const visit = (dirPath: string): void => {
      const d = this.dirs.get(dirPath)!;
      const entries = new Map<string, Entry>();
      const chosen = pick(dirPath, d);
      for (const name of [...chosen.keys()].sort()) {
        const e = chosen.get(name)!;
        const child = path.posix.join(dirPath, name);
        if (e.kind === 'dir') {
          entries.set(name, e);
          visit(child);
          continue;
        }
        let n = inodes.get(e.inode);
        if (!n) {
          n = newInode(data(child, e.inode));
          inodes.set(e.inode, n);
        }
        entries.set(name, { kind: 'file', inode: n });
      }
      out.dirs.set(dirPath, { current: entries, durable: new Map(entries) });
    };
    visit('/');
    return out;
  }

  private parentOf(file: string, syscall: string): [Dir, string];
  private parentOf(file: string, syscall: string, optional: true): [Dir | undefined, string];
  private parentOf(file: string, syscall: string, optional = false): [Dir | undefined, string] {
    const abs = norm(file);
    const dir = this.dirs.get(path.posix.dirname(abs));
    if (!dir && !optional) throw fsError('ENOENT', syscall, abs);
    return [dir, path.posix.basename(abs)];
  }

  private fileInode(file: string, syscall: string): Inode {
    const [dir, name] = this.parentOf(file, syscall);
    const entry = dir.current.get(name);
    if (!entry) throw fsError('ENOENT', syscall, norm(file));
    if (entry.kind === 'dir') throw fsError('EISDIR', syscall, norm(file));
    return entry.inode;
  }

  private openOrCreate(file: string): Inode {
    const [dir, name] = this.parentOf(file, 'open');
    const entry = dir.current.get(name);
    if (entry?.kind === 'dir') throw fsError('EISDIR', 'open', norm(file));
    if (entry) return entry.inode;
    const inode = newInode();
    dir.current.set(name, { kind: 'file', inode });
    return inode;
  }

  private datasyncInode(inode: Inode, file: string): void {
    if (this.failDatasyncs > 0) {
      this.failDatasyncs--;
      this.stats.failedDatasyncs++;
      // As on Linux: the dirty pages are marked clean although they never reached the disk.
      const from = inode.rewritten ? 0 : durableBytes(inode).length;
      if (inode.cur.length > from) inode.lost.push([from, inode.cur.length]);
      throw fsError('EIO', 'fdatasync', file);
    }
    syncInode(inode);
    this.stats.datasyncs++;
  }

  private handle(file: string, inode: Inode): FileHandle {
    let closed = false;
    const abs = norm(file);
    const check = (op: string) => {
      if (closed) throw fsError('EBADF', op, abs);
    };
    return {
      write: async (buf: Uint8Array) => {
        check('write');
        if (this.failWrite !== undefined) {
          const n = Math.max(0, Math.min(buf.length, this.failWrite));
          this.failWrite = undefined;
          inode.cur.append(buf.subarray(0, n));
          this.stats.bytesWritten += n;
          throw fsError('EIO', 'write', abs);
        }
        inode.cur.append(buf);
        this.stats.writes++;
        this.stats.bytesWritten += buf.length;
      },
      datasync: async () => {
        check('fdatasync');
        this.datasyncInode(inode, abs);
      },
      close: async () => {
        closed = true;
      },
    };
  }
}

function norm(p: string): string {
  return path.posix.resolve('/', p);
}
