/**
 * The append-only command journal: segment files `<dir>/segment-<first seq, 20 digits>.log`, each a sequence
 * of frames (framing.ts) whose payload is `[u64 LE sequence number][serialized command]`.
 *
 * Writing: `append(records)` writes one batch with a single write and a single fdatasync (group commit is
 * the caller's loop: it hands every command that arrived during the previous fsync to the next append).
 * Reading: `readJournal` returns every intact record after a sequence number; a torn tail of the last
 * segment (short or bad-crc record, a crash mid-write) is reported, truncated away and never returned.
 * Segments are rotated at snapshots; `pruneSegments` drops those wholly covered by an older snapshot.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { encodeFrame, scanFrames, type TornReason } from './framing';

const SEGMENT_RE = /^segment-(\d{20})\.log$/;
/** Bytes of the sequence-number prefix inside each payload. */
const SEQ_BYTES = 8;

/** One journal record: the host's sequence number (1, 2, 3 ...) and the serialized command bytes. */
export interface JournalRecord {
  seq: number;
  body: Uint8Array;
}

/** File name of the segment whose first record has sequence number `startSeq`. */
export function segmentName(startSeq: number): string {
  return `segment-${String(startSeq).padStart(20, '0')}.log`;
}

/** Segments of `dir` as { start, file }, ordered by their first sequence number. */
export function listSegments(dir: string): Array<{ start: number; file: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => SEGMENT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ start: Number.parseInt(m[1]!, 10), file: path.join(dir, m[0]) }))
    .sort((a, b) => a.start - b.start);
}

/** Fsyncs a directory so that file creations, renames and deletions in it are durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/** Encodes one record as a frame (header + seq + body). */
export function encodeRecord(rec: JournalRecord): Buffer {
  const payload = Buffer.allocUnsafe(SEQ_BYTES + rec.body.length);
  payload.writeBigUInt64LE(BigInt(rec.seq), 0);
  payload.set(rec.body, SEQ_BYTES);
  return encodeFrame(payload);
}

/** What recovery found in the journal. */
export interface JournalReadResult {
  /** Records with seq > afterSeq, in order. */
  records: JournalRecord[];
  /** Highest sequence number present in the journal (afterSeq when none is newer). */
  lastSeq: number;
  /** The torn tail that was dropped (and truncated when `truncate` was set), if any. */
  torn?: { file: string; offset: number; droppedBytes: number; reason: TornReason };
  /** Sequence number of the first record found in the journal at all (undefined when empty). */
  firstSeq?: number;
}

/**
 * Reads every intact record with seq > `afterSeq`. A torn or corrupt record at the end of the LAST segment is
 * dropped together with everything after it (no batch after it was ever fsynced, so none was acknowledged) and,
 * with `truncate`, cut off the file. Damage in an earlier segment, or a gap in the sequence numbers, throws:
 * that is corruption of acknowledged data, not a torn write.
 */
export async function readJournal(dir: string, afterSeq: number, opts: { truncate: boolean }): Promise<JournalReadResult> {
  const segments = listSegments(dir);
  const records: JournalRecord[] = [];
  let lastSeq = afterSeq;
  let firstSeq: number | undefined;
  let prev: number | undefined;
  let torn: JournalReadResult['torn'];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const isLast = i === segments.length - 1;
    const next = segments[i + 1];
    // Skip segments entirely at or before afterSeq (the next segment starts at or before afterSeq + 1).
    if (next && next.start <= afterSeq + 1) {
      prev = next.start - 1;
      continue;
    }
    const buf = await fsp.readFile(seg.file);
    const scan = scanFrames(buf);
    if (scan.torn) {
      if (!isLast) throw new Error(`journal segment ${seg.file} is corrupt at byte ${scan.torn.offset} (${scan.torn.reason})`);
      torn = { file: seg.file, offset: scan.torn.offset, droppedBytes: buf.length - scan.torn.offset, reason: scan.torn.reason };
      if (opts.truncate) {
        const fh = await fsp.open(seg.file, 'r+');
        try {
          await fh.truncate(scan.torn.offset);
          await fh.sync();
        } finally {
          await fh.close();
        }
      }
    }
    for (const p of scan.payloads) {
      if (p.length < SEQ_BYTES) throw new Error(`journal record too short in ${seg.file}`);
      const seq = Number(p.readBigUInt64LE(0));
      if (firstSeq === undefined) {
        firstSeq = seq;
        if (seq > afterSeq + 1) throw new Error(`journal starts at ${seq} but records after ${afterSeq} are needed`);
      } else if (seq !== prev! + 1) {
        throw new Error(`journal gap: ${prev} then ${seq} in ${seg.file}`);
      }
      prev = seq;
      if (seq > afterSeq) {
        records.push({ seq, body: p.subarray(SEQ_BYTES) });
        lastSeq = seq;
      }
    }
  }
  return { records, lastSeq, firstSeq, ...(torn ? { torn } : {}) };
}

/** Deletes the segments all of whose records have seq <= `coveredSeq`; never the newest segment. */
export async function pruneSegments(dir: string, coveredSeq: number): Promise<number> {
  const segments = listSegments(dir);
  let removed = 0;
  for (let i = 0; i < segments.length - 1; i++) {
    if (segments[i + 1]!.start <= coveredSeq + 1) {
      await fsp.rm(segments[i]!.file, { force: true });
      removed++;
    }
  }
  if (removed > 0) await fsyncDir(dir);
  return removed;
}

/** Counters for tests and metrics. */
export interface JournalStats {
  /** fdatasync calls made on segment files. */
  fsyncs: number;
  /** Batches written (one write + one fdatasync each). */
  batches: number;
  /** Records written. */
  records: number;
  /** Bytes written. */
  bytes: number;
}

/** Appends batches to the newest segment; one write + one fdatasync per batch. */
export class JournalWriter {
  readonly stats: JournalStats = { fsyncs: 0, batches: 0, records: 0, bytes: 0 };

  private constructor(
    private readonly dir: string,
    private fh: fsp.FileHandle,
    /** Sequence number of the current segment's first record. */
    public segmentStart: number,
  ) {}

  /**
   * Opens `dir` for appending: continues the newest segment, or creates `segment-<nextSeq>` when there is none.
   * Call after `readJournal(..., { truncate: true })` so that a torn tail is gone.
   */
  static async open(dir: string, nextSeq: number): Promise<JournalWriter> {
    await fsp.mkdir(dir, { recursive: true });
    const segments = listSegments(dir);
    const last = segments[segments.length - 1];
    if (last) return new JournalWriter(dir, await fsp.open(last.file, 'a'), last.start);
    const fh = await fsp.open(path.join(dir, segmentName(nextSeq)), 'a');
    await fsyncDir(dir);
    return new JournalWriter(dir, fh, nextSeq);
  }

  /** Writes `records` (consecutive sequence numbers) with one write and one fdatasync; resolves when durable. */
  async append(records: JournalRecord[]): Promise<void> {
    if (records.length === 0) return;
    const buf = Buffer.concat(records.map(encodeRecord));
    let off = 0;
    while (off < buf.length) {
      const { bytesWritten } = await this.fh.write(buf, off, buf.length - off);
      off += bytesWritten;
    }
    await this.fh.datasync();
    this.stats.fsyncs++;
    this.stats.batches++;
    this.stats.records += records.length;
    this.stats.bytes += buf.length;
  }

  /**
   * Starts a new segment whose first record will be `nextSeq` (the previous one is complete and synced).
   * The directory is fsynced so the new file survives a crash before records in it are acknowledged.
   */
  async rotate(nextSeq: number): Promise<void> {
    if (nextSeq === this.segmentStart) return;
    const fh = await fsp.open(path.join(this.dir, segmentName(nextSeq)), 'a');
    await fsyncDir(this.dir);
    const old = this.fh;
    this.fh = fh;
    this.segmentStart = nextSeq;
    await old.close();
  }

  /** Closes the current segment (every batch is already synced). */
  async close(): Promise<void> {
    await this.fh.close();
  }
}
