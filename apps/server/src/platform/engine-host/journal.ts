/**
 * The append-only command journal: segment files `<dir>/segment-<first seq, 20 digits>.log`, each a sequence
 * of frames (framing.ts) whose payload is `[u64 LE sequence number][serialized command]`.
 *
 * Writing: `append(records)` writes one batch with a single write and a single fdatasync (group commit is
 * the caller's loop: it hands every command that arrived during the previous fsync to the next append). A
 * failed write or fdatasync poisons the writer for good: after a failed fdatasync Linux may have dropped the
 * dirty pages and a retry would "succeed" without them, so the state of the file is unknown (as in PostgreSQL,
 * the process must stop and recover from what is on disk).
 *
 * Reading: `readJournal` returns every intact record after a sequence number. The journal is the truth, so
 * damage is judged by position: only an incomplete record at the very end of the newest segment is a torn
 * write (no batch after it was ever synced, so nothing in it was acknowledged) and is dropped; a complete
 * record that is wrong, damage followed by valid data, damage in an older segment, or a gap, duplicate or
 * misplaced sequence number is corruption of possibly acknowledged commands and throws `JournalCorruptError`.
 * Segments are rotated at snapshots; `pruneSegments` drops those wholly covered by an older snapshot and
 * journal-retention.ts archives or deletes them by JOURNAL_RETENTION (`readJournal` reads an archive's segments
 * before the journal's when it must reach further back).
 *
 * Loss is told from a torn write by the recorded durable position (durable-position.ts): after each batch's
 * fdatasync the writer records, in a small checksummed file apart from the segments and off the acknowledgement
 * path, the last sequence number it made durable. A journal that ends (after its torn tail) before that position
 * lost synced, acknowledged records: `readJournal` (given the position) and `verifyJournal` throw / report
 * `JournalLossError` and truncate nothing. Every record acknowledged before the last completed position update
 * started is covered; a record acknowledged at time t is covered by t + POSITION_UPDATE_INTERVAL_MS (5 ms) + two
 * position updates (one small write + fdatasync each) at the latest. A cut among the records acknowledged within that
 * window before it still reads as a torn write.
 *
 * Every function takes the file system first (node-fs.ts `nodeFs` for the real disk, a `MemoryFs` in the fault
 * simulator).
 */
import path from 'node:path';
import { FRAME_HEADER_BYTES, findFrame, scanFrameOffsets, scanFrames, encodeFrame, type CorruptReason, type TornReason } from './framing';
import type { FileHandle, HostFs } from './host-fs';
import {
  DurablePositionLog,
  POSITION_FILE,
  positionFile,
  readDurablePosition,
  writeDurablePosition,
  type DurablePosition,
  type DurablePositionRead,
} from './durable-position';

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

/** Segments of `dir` as { start, file } (file = path.join(dir, name)), ordered by first sequence number; [] when `dir` is missing. */
export async function listSegments(fs: HostFs, dir: string): Promise<Array<{ start: number; file: string }>> {
  return (await fs.readdir(dir))
    .map((f) => SEGMENT_RE.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ start: Number.parseInt(m[1]!, 10), file: path.join(dir, m[0]) }))
    .sort((a, b) => a.start - b.start);
}

/** Encodes one record as a frame (header + seq + body). */
export function encodeRecord(rec: JournalRecord): Buffer {
  const payload = Buffer.allocUnsafe(SEQ_BYTES + rec.body.length);
  payload.writeBigUInt64LE(BigInt(rec.seq), 0);
  payload.set(rec.body, SEQ_BYTES);
  return encodeFrame(payload);
}

// ---- errors ------------------------------------------------------------------------------------------------

/**
 * Why a segment is corrupt: a damaged frame (framing.ts `CorruptReason`), an incomplete record at the end of a
 * segment that is not the newest (`TornReason`: it was synced before the next segment began, so this is damage),
 * or a sequence number that does not follow: `seq_gap` (one or more missing), `seq_duplicate` (repeated or going
 * back), `seq_mismatch` (the first record of a segment is not the one its name says); `acknowledged_lost` (the
 * journal ends before its recorded durable position: `JournalLossError`).
 */
export type JournalCorruptReason = CorruptReason | TornReason | 'seq_gap' | 'seq_duplicate' | 'seq_mismatch' | 'acknowledged_lost';

/**
 * The journal holds damaged data where acknowledged commands are (or may be): recovery must stop. The message
 * names the file and byte offset and the operator commands (`npm run journal -- verify`, and
 * `npm run journal -- repair --truncate-at <file>:<offset>`, which discards acknowledged commands).
 */
export class JournalCorruptError extends Error {
  override readonly name: string = 'JournalCorruptError';
  constructor(
    /** Path of the damaged segment file. */
    readonly file: string,
    /** Byte offset in `file` of the first damaged record (where a repair would cut). */
    readonly offset: number,
    readonly reason: JournalCorruptReason,
    /** What is wrong, in a sentence. */
    readonly detail: string,
  ) {
    const dataDir = path.dirname(path.dirname(file));
    const at = `${path.basename(file)}:${offset}`;
    super(
      `journal corrupt: ${file} at byte ${offset}: ${detail} (${reason}). This is not a torn write at the end of the journal: ` +
        `the record may have been acknowledged, so recovery stops instead of dropping it. Inspect with ` +
        `\`npm run journal -- verify --data-dir ${dataDir}\` and restore the journal from a backup if there is one. As a last resort, ` +
        `\`npm run journal -- repair --truncate-at ${at} --data-dir ${dataDir}\` cuts the journal there: that DISCARDS every ` +
        `acknowledged command from this record on, and every later segment.`,
    );
  }
}

/**
 * The journal ends before its recorded durable position (durable-position.ts): records that were fdatasynced and
 * acknowledged are missing (the journal was cut short, a segment was removed, or an old copy was put back without
 * its position file). Not a torn write: recovery stops and nothing is truncated. A `JournalCorruptError` whose
 * `file` is the newest segment (the journal's directory's would-be segment when there is none) and `offset` where
 * its intact records end, the cut point `npm run journal -- repair --truncate-at` takes to accept the loss.
 */
export class JournalLossError extends JournalCorruptError {
  override readonly name: string = 'JournalLossError';
  constructor(
    file: string,
    offset: number,
    /** Sequence number of the journal's last intact record (0: none). */
    readonly journalEnd: number,
    /** The recorded durable position (its seq is above `journalEnd`). */
    readonly durable: DurablePosition,
    /** Bytes of an incomplete record after `offset`, when the journal ends in one. */
    tornBytes: number,
  ) {
    const detail =
      `the journal ends at sequence number ${journalEnd}${tornBytes > 0 ? ` (then ${tornBytes} bytes of an incomplete record)` : ''}, ` +
      `but records up to ${durable.seq} were made durable and acknowledged (recorded in ${POSITION_FILE})`;
    super(file, offset, 'acknowledged_lost', detail);
    const dataDir = path.dirname(path.dirname(file));
    this.message =
      `journal lost acknowledged records: ${path.dirname(file)} ends at sequence number ${journalEnd} (${path.basename(file)} at byte ${offset}` +
      `${tornBytes > 0 ? `, followed by ${tornBytes} bytes of an incomplete record` : ''}), but records up to ${durable.seq} were fdatasynced and acknowledged ` +
      `(${POSITION_FILE}). The journal was cut short or a segment was removed: this is not a torn write, so recovery stops and nothing is truncated. ` +
      `Restore the journal directory from a backup (\`npm run restore\`, docs/operations.md) and start again; inspect with ` +
      `\`npm run journal -- verify --data-dir ${dataDir}\`. As a last resort, \`npm run journal -- repair --truncate-at ${path.basename(file)}:${offset} --data-dir ${dataDir}\` ` +
      `accepts the loss (records ${journalEnd + 1}..${durable.seq} stay lost; a database or snapshot past ${journalEnd} no longer matches).`;
  }
}

/**
 * The journal writer can no longer be trusted: a write, an fdatasync or the creation of a new segment failed
 * (the first error is `cause`). Every later append and rotate rejects with this same error; the host must treat
 * it as fatal and recover from disk.
 */
export class JournalFailedError extends Error {
  override readonly name = 'JournalFailedError';
  constructor(file: string, op: 'write' | 'datasync' | 'rotate' | 'position', cause: unknown) {
    super(`journal ${op} failed on ${file}; the journal's state on disk is unknown and it accepts no more appends (restart to recover): ${String(cause)}`, {
      cause,
    });
  }
}

// ---- reading -----------------------------------------------------------------------------------------------

/** How one segment ended, as judged by `scanSegment`. */
export type SegmentEnd =
  { kind: 'ok' } | { kind: 'torn'; offset: number; reason: TornReason; droppedBytes: number } | { kind: 'corrupt'; error: JournalCorruptError };

/**
 * One segment scanned: its intact records up to where it ended, kept as byte offsets into the segment's bytes
 * (record i has sequence number `start + i`, checked by the scan); `records` builds the record objects on first use.
 */
export class SegmentScan {
  private materialized: Array<JournalRecord & { offset: number }> | undefined;

  constructor(
    readonly file: string,
    /** First sequence number, from the file name. */
    readonly start: number,
    /** The segment's bytes. */
    readonly buf: Buffer,
    /** Byte offset of each intact record's frame header, in order. */
    readonly offsets: number[],
    readonly end: SegmentEnd,
  ) {}

  /** File size in bytes. */
  get bytes(): number {
    return this.buf.length;
  }

  /** Number of intact records. */
  get count(): number {
    return this.offsets.length;
  }

  /** Where the command bytes of record `i` start in `buf` (after the frame header and the sequence number). */
  bodyStart(i: number): number {
    return this.offsets[i]! + FRAME_HEADER_BYTES + SEQ_BYTES;
  }

  /** Where the command bytes of record `i` end in `buf` (exclusive). */
  bodyEnd(i: number): number {
    const o = this.offsets[i]!;
    return o + FRAME_HEADER_BYTES + this.buf.readUInt32LE(o);
  }

  /** The intact records as objects (views into `buf`), with their byte offsets. */
  get records(): Array<JournalRecord & { offset: number }> {
    this.materialized ??= this.offsets.map((offset, i) => ({ seq: this.start + i, body: this.buf.subarray(this.bodyStart(i), this.bodyEnd(i)), offset }));
    return this.materialized;
  }
}

/** The sequence number in the record whose frame starts at `off` (u64 LE; a value over 2^53 reads as NaN: never equal). */
function seqAt(buf: Buffer, off: number): number {
  const hi = buf.readUInt32LE(off + FRAME_HEADER_BYTES + 4);
  return hi >= 0x200000 ? Number.NaN : hi * 0x100000000 + buf.readUInt32LE(off + FRAME_HEADER_BYTES);
}

/**
 * Scans one segment's bytes: frames, then sequence numbers (the first must be `start`, from the name; each next
 * one the previous + 1). A torn tail is `torn` only when `isLast`; otherwise it is corruption. Never throws:
 * corruption is returned as `end.kind === 'corrupt'` with the records before it.
 */
export function scanSegment(file: string, start: number, buf: Buffer, isLast: boolean): SegmentScan {
  const scan = scanFrameOffsets(buf, { minPayload: SEQ_BYTES });
  const offsets = scan.offsets;
  const corrupt = (count: number, offset: number, reason: JournalCorruptReason, detail: string): SegmentScan => {
    offsets.length = count;
    return new SegmentScan(file, start, buf, offsets, { kind: 'corrupt', error: new JournalCorruptError(file, offset, reason, detail) });
  };
  for (let i = 0; i < offsets.length; i++) {
    const offset = offsets[i]!;
    const seq = seqAt(buf, offset);
    const expected = start + i;
    if (seq !== expected) {
      const shown = Number.isNaN(seq) ? buf.readBigUInt64LE(offset + FRAME_HEADER_BYTES).toString() : String(seq);
      if (i === 0) return corrupt(i, offset, 'seq_mismatch', `the segment is named for sequence number ${start} but its first record is ${shown}`);
      if (seq > expected || Number.isNaN(seq)) {
        return corrupt(
          i,
          offset,
          'seq_gap',
          `sequence number ${shown} follows ${expected - 1} (records ${expected}..${Number.isNaN(seq) ? shown : seq - 1} are missing)`,
        );
      }
      return corrupt(i, offset, 'seq_duplicate', `sequence number ${shown} follows ${expected - 1} (a repeat or a step back)`);
    }
  }
  if (scan.corrupt) return corrupt(offsets.length, scan.corrupt.offset, scan.corrupt.reason, scan.corrupt.detail);
  if (scan.torn) {
    const droppedBytes = buf.length - scan.torn.offset;
    if (!isLast) {
      return corrupt(
        offsets.length,
        scan.torn.offset,
        scan.torn.reason,
        `an incomplete record (${droppedBytes} bytes, ${scan.torn.reason}) ends a segment that is not the newest; it was synced before the next one began`,
      );
    }
    return new SegmentScan(file, start, buf, offsets, { kind: 'torn', offset: scan.torn.offset, reason: scan.torn.reason, droppedBytes });
  }
  return new SegmentScan(file, start, buf, offsets, { kind: 'ok' });
}

/** Records of one segment that a read returns: those of `scan` from index `from` on. */
export interface RecordRun {
  scan: SegmentScan;
  from: number;
}

/** What recovery found in the journal. */
export interface JournalReadResult {
  /** Records with seq > afterSeq, in order (built on first use from `runs`). */
  readonly records: JournalRecord[];
  /** The same records without an object each: per segment, the scan and the index of its first record read. */
  runs: RecordRun[];
  /** Number of records with seq > afterSeq. */
  count: number;
  /** Highest sequence number present in the journal (afterSeq when none is newer). */
  lastSeq: number;
  /** The torn tail of the newest segment that was dropped (and truncated when `truncate` was set), if any. */
  torn?: { file: string; offset: number; droppedBytes: number; reason: TornReason };
  /** Sequence number of the first record read (segments wholly before afterSeq are not read); undefined when none. */
  firstSeq?: number;
}

/** Options of `readJournal`. */
export interface ReadJournalOptions {
  /** Cut a torn tail off the newest segment (durably), after everything before it was checked. */
  truncate: boolean;
  /**
   * Also check the segments wholly at or before `afterSeq` (checksums, sequence numbers, continuity), in the
   * same pass: the read then throws every corruption `verifyJournal` reports, as recovery requires, without
   * reading the journal twice. Off by default (those segments are skipped unread).
   */
  verifyAll?: boolean;
  /**
   * The recorded durable position (durable-position.ts `readDurablePosition`): a journal that ends, after its torn
   * tail, before `durable.seq` throws `JournalLossError` and nothing is truncated. Unset: no such check (a journal
   * written before positions were recorded; a short end is then taken as a torn write).
   */
  durable?: DurablePosition;
  /**
   * The journal's archive (journal-retention.ts: segments moved there by JOURNAL_RETENTION=archive). Read only when
   * the journal directory does not reach back to `afterSeq + 1`: its segments that start before the journal's first
   * one are read first, as older segments of the same journal (never as the newest: a torn end in one is
   * corruption). A segment in both places is read from the journal directory.
   */
  archiveDir?: string;
}

/**
 * Reads every intact record with seq > `afterSeq` from the segments of `dir` (segments wholly at or before
 * `afterSeq` are skipped unread, or only checked with `opts.verifyAll`). A torn tail at the end of the newest
 * segment is dropped and, with `opts.truncate`, cut off the file durably (only after everything before it was
 * checked). Throws `JournalCorruptError` (nothing is truncated) on any corruption (see the module comment), its
 * subclass `JournalLossError` when the journal ends before `opts.durable` (checked before anything is cut), and a
 * plain Error when the journal (with `opts.archiveDir`: the archive, then the journal) starts after `afterSeq + 1`
 * (older segments are missing; with `verifyAll`, only when no segment is corrupt). A journal that ends before `afterSeq` is not an error here (`lastSeq` is then
 * `afterSeq`): the caller checks it against its snapshot.
 */
export async function readJournal(fs: HostFs, dir: string, afterSeq: number, opts: ReadJournalOptions): Promise<JournalReadResult> {
  const segments: Array<{ start: number; file: string; archived?: boolean }> = await listSegments(fs, dir);
  const first = segments[0]?.start;
  if (opts.archiveDir !== undefined && (first === undefined || first > afterSeq + 1)) {
    const older = (await listSegments(fs, opts.archiveDir)).filter((s) => first === undefined || s.start < first);
    segments.unshift(...older.map((s) => ({ ...s, archived: true })));
  }
  const runs: RecordRun[] = [];
  let count = 0;
  let lastSeq = afterSeq;
  let firstSeq: number | undefined;
  /** Sequence number of the last record before the next segment to read (undefined before the first one read). */
  let prev: number | undefined;
  let torn: JournalReadResult['torn'];
  /** Where the newest segment's intact records end. */
  let end: { file: string; offset: number } | undefined;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const isLast = i === segments.length - 1 && seg.archived !== true;
    const next = segments[i + 1];
    // Skip segments entirely at or before afterSeq (the next segment starts at or before afterSeq + 1).
    if (next && next.start <= afterSeq + 1) {
      if (opts.verifyAll) {
        if (prev !== undefined && seg.start !== prev + 1) throw discontinuity(seg, prev);
        const scan = scanSegment(seg.file, seg.start, await fs.readFile(seg.file), false);
        if (scan.end.kind === 'corrupt') throw scan.end.error;
        prev = seg.start + scan.count - 1;
        continue;
      }
      prev = next.start - 1;
      continue;
    }
    if (prev === undefined) {
      if (seg.start > afterSeq + 1) {
        const missing = new Error(`journal starts at ${seg.start} but records after ${afterSeq} are needed (${afterSeq + 1}..${seg.start - 1} are missing)`);
        if (opts.verifyAll) throw (await verifyJournal(fs, dir)).corrupt ?? missing;
        throw missing;
      }
    } else if (seg.start !== prev + 1) {
      throw discontinuity(seg, prev);
    }
    const scan = scanSegment(seg.file, seg.start, await fs.readFile(seg.file), isLast);
    if (scan.end.kind === 'corrupt') throw scan.end.error;
    if (scan.count > 0) {
      firstSeq ??= seg.start;
      const from = Math.max(0, afterSeq + 1 - seg.start);
      if (from < scan.count) {
        runs.push({ scan, from });
        count += scan.count - from;
        lastSeq = seg.start + scan.count - 1;
      }
    }
    prev = seg.start + scan.count - 1;
    end = { file: seg.file, offset: scan.end.kind === 'torn' ? scan.end.offset : scan.bytes };
    if (scan.end.kind === 'torn') {
      torn = { file: seg.file, offset: scan.end.offset, droppedBytes: scan.end.droppedBytes, reason: scan.end.reason };
    }
  }
  if (opts.durable !== undefined && opts.durable.seq > (prev ?? 0)) {
    throw lossError(dir, end, prev ?? 0, opts.durable, torn?.droppedBytes ?? 0);
  }
  if (torn && opts.truncate) await fs.truncate(torn.file, torn.offset);
  let records: JournalRecord[] | undefined;
  return {
    get records(): JournalRecord[] {
      records ??= runs.flatMap((run) => run.scan.records.slice(run.from));
      return records;
    },
    runs,
    count,
    lastSeq,
    firstSeq,
    ...(torn ? { torn } : {}),
  };
}

/** The loss of the records after `journalEnd` up to `durable.seq`; `end` is where the newest segment's intact records end (none: no segment). */
function lossError(dir: string, end: { file: string; offset: number } | undefined, journalEnd: number, durable: DurablePosition, tornBytes: number) {
  return new JournalLossError(end?.file ?? path.join(dir, segmentName(journalEnd + 1)), end?.offset ?? 0, journalEnd, durable, tornBytes);
}

/** The corruption of a segment that does not continue the previous one's sequence numbers. */
function discontinuity(seg: { file: string; start: number }, prev: number): JournalCorruptError {
  const reason = seg.start > prev + 1 ? 'seq_gap' : 'seq_duplicate';
  return new JournalCorruptError(seg.file, 0, reason, `the segment starts at sequence number ${seg.start} but the one before it ends at ${prev}`);
}

/** `verifyJournal`'s finding for one segment. */
export interface SegmentReport {
  file: string;
  /** First sequence number, from the file name. */
  start: number;
  bytes: number;
  /** Intact records before where the segment ended. */
  records: number;
  firstSeq?: number;
  lastSeq?: number;
  /** Byte offsets at which a repair may cut this segment: each intact record, and where it ended. */
  boundaries: number[];
  end: SegmentEnd;
}

/** What `verifyJournal` found. The journal is usable (the host would recover from it) when `corrupt` is unset. */
export interface JournalVerifyReport {
  dir: string;
  segments: SegmentReport[];
  /** The recorded durable position (durable-position.ts), or why there is none. */
  durable: DurablePositionRead;
  /** The first corruption, in segment order, when there is one; else a `JournalLossError` when the journal ends before `durable`. */
  corrupt?: JournalCorruptError;
}

/**
 * Checks every segment of `dir` (including those a snapshot covers) without changing anything: records, range,
 * bytes and how each segment ends; a segment that does not continue the previous one's sequence numbers is
 * corrupt at offset 0; a journal that ends before its recorded durable position has lost acknowledged records
 * (`JournalLossError`). Never throws for damage (it is reported); throws only when a file cannot be read.
 */
export async function verifyJournal(fs: HostFs, dir: string): Promise<JournalVerifyReport> {
  const segments = await listSegments(fs, dir);
  const durable = await readDurablePosition(fs, dir);
  const reports: SegmentReport[] = [];
  let corrupt: JournalCorruptError | undefined;
  let prev: number | undefined;
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const scan = scanSegment(seg.file, seg.start, await fs.readFile(seg.file), i === segments.length - 1);
    let end = scan.end;
    if (prev !== undefined && seg.start !== prev + 1) {
      const reason = seg.start > prev + 1 ? 'seq_gap' : 'seq_duplicate';
      end = {
        kind: 'corrupt',
        error: new JournalCorruptError(seg.file, 0, reason, `the segment starts at sequence number ${seg.start} but the one before it ends at ${prev}`),
      };
    }
    const stop = end.kind === 'ok' ? scan.bytes : end.kind === 'torn' ? end.offset : end.error.offset;
    let boundaries: number[] | undefined;
    reports.push({
      file: seg.file,
      start: seg.start,
      bytes: scan.bytes,
      records: scan.count,
      ...(scan.count > 0 ? { firstSeq: seg.start, lastSeq: seg.start + scan.count - 1 } : {}),
      // Built on first use: recovery verifies every segment but never cuts one.
      get boundaries(): number[] {
        boundaries ??= [...new Set([...scan.offsets, stop])].filter((o) => o <= stop);
        return boundaries;
      },
      end,
    });
    if (end.kind === 'corrupt') corrupt ??= end.error;
    prev = end.kind === 'ok' ? seg.start + scan.count - 1 : undefined;
  }
  const last = reports.at(-1);
  const journalEnd = last ? last.start + last.records - 1 : 0;
  if (corrupt === undefined && durable.kind === 'ok' && durable.position.seq > journalEnd) {
    const end = last && { file: last.file, offset: last.end.kind === 'torn' ? last.end.offset : last.bytes };
    corrupt = lossError(dir, end, journalEnd, durable.position, last?.end.kind === 'torn' ? last.end.droppedBytes : 0);
  }
  return { dir, segments: reports, durable, ...(corrupt ? { corrupt } : {}) };
}

/** What a repair cuts, removes and discards (`planJournalTruncation`; done by `truncateJournalAt`). */
export interface JournalRepairPlan {
  /** The segment cut short (unset when the cut is at byte 0: that segment is removed whole instead). */
  truncated?: { file: string; fromBytes: number; toBytes: number };
  /** Segments removed whole, in order: the cut one when cut at byte 0, then every later one. */
  removed: Array<{ file: string; start: number }>;
  /** Sequence number of the last record kept (the journal continues at keptLastSeq + 1). */
  keptLastSeq: number;
  /**
   * Records discarded that could still be read (records after a corruption are found by searching for the next
   * intact frame, so this is a best effort), their seq range, and the bytes that could not be read as records.
   */
  discarded: { records: number; firstSeq?: number; lastSeq?: number; unreadableBytes: number };
}

/** Records readable in `buf` from `from` on, resynchronizing after each damaged stretch; and the bytes skipped. */
function salvage(buf: Buffer, from: number): { seqs: number[]; unreadableBytes: number } {
  const seqs: number[] = [];
  let unreadableBytes = 0;
  let off = from;
  while (off < buf.length) {
    const scan = scanFrames(buf.subarray(off), { minPayload: SEQ_BYTES });
    for (const p of scan.payloads) seqs.push(Number(p.readBigUInt64LE(0)));
    off += scan.validBytes;
    if (off >= buf.length) break;
    const next = findFrame(buf, off + 1, SEQ_BYTES);
    const resume = next < 0 ? buf.length : next;
    unreadableBytes += resume - off;
    off = resume;
  }
  return { seqs, unreadableBytes };
}

/**
 * What cutting the journal of `dir` at byte `offset` of `segmentFile` (a name or path of one of its segments)
 * would do, without changing anything. Throws when the file is not a segment of `dir` or `offset` is not a
 * record boundary that verifyJournal reports (the start of an intact record, or where its intact records end).
 */
export async function planJournalTruncation(fs: HostFs, dir: string, segmentFile: string, offset: number): Promise<JournalRepairPlan> {
  const report = await verifyJournal(fs, dir);
  const idx = report.segments.findIndex((s) => path.basename(s.file) === path.basename(segmentFile));
  if (idx < 0) throw new Error(`${segmentFile} is not a segment of ${dir}`);
  const seg = report.segments[idx]!;
  if (!seg.boundaries.includes(offset)) {
    throw new Error(`byte ${offset} is not a record boundary of ${path.basename(seg.file)}; valid cut points: ${seg.boundaries.join(', ')}`);
  }
  const kept = seg.boundaries.filter((o) => o < offset).length;
  const before = report.segments[idx - 1];
  const keptLastSeq = offset > 0 || !before ? seg.start + kept - 1 : (before.lastSeq ?? before.start - 1);
  const removed = report.segments.slice(offset === 0 ? idx : idx + 1);
  const seqs: number[] = [];
  let unreadableBytes = 0;
  const parts = [{ file: seg.file, from: offset }, ...report.segments.slice(idx + 1).map((s) => ({ file: s.file, from: 0 }))];
  for (const part of parts) {
    const found = salvage(await fs.readFile(part.file), part.from);
    seqs.push(...found.seqs);
    unreadableBytes += found.unreadableBytes;
  }
  return {
    ...(offset > 0 ? { truncated: { file: seg.file, fromBytes: seg.bytes, toBytes: offset } } : {}),
    removed: removed.map((s) => ({ file: s.file, start: s.start })),
    keptLastSeq,
    discarded: {
      records: seqs.length,
      ...(seqs.length > 0 ? { firstSeq: Math.min(...seqs), lastSeq: Math.max(...seqs) } : {}),
      unreadableBytes,
    },
  };
}

/**
 * The operator's last resort: does what `planJournalTruncation` plans, durably: first records the journal's new
 * end as its durable position (so that the server starts on the cut journal; a lower position over a longer
 * journal is harmless), then removes the later segments (and the cut one when cut at byte 0) and fsyncs `dir`,
 * then cuts the segment (truncate syncs it); an interrupted repair can simply be run again. This DISCARDS every
 * record from there on, acknowledged or not. Cutting where the intact records end accepts a loss
 * (`JournalLossError`): nothing more is discarded and the recorded position comes down to the journal's end.
 * Returns the plan carried out; throws as planJournalTruncation does, or when the file system fails.
 */
export async function truncateJournalAt(fs: HostFs, dir: string, segmentFile: string, offset: number): Promise<JournalRepairPlan> {
  const plan = await planJournalTruncation(fs, dir, segmentFile, offset);
  const removed = new Set(plan.removed.map((s) => s.file));
  const kept = (await listSegments(fs, dir)).filter((s) => !removed.has(s.file)).at(-1);
  await writeDurablePosition(fs, dir, { seq: plan.keptLastSeq, segmentStart: kept?.start ?? plan.keptLastSeq + 1 });
  for (const s of [...plan.removed].reverse()) await fs.rm(s.file);
  if (plan.removed.length > 0) await fs.fsyncDir(dir);
  if (plan.truncated) await fs.truncate(plan.truncated.file, plan.truncated.toBytes);
  return plan;
}

/** Deletes the segments all of whose records have seq <= `coveredSeq`; never the newest segment. Returns how many. */
export async function pruneSegments(fs: HostFs, dir: string, coveredSeq: number): Promise<number> {
  const segments = await listSegments(fs, dir);
  let removed = 0;
  for (let i = 0; i < segments.length - 1; i++) {
    if (segments[i + 1]!.start <= coveredSeq + 1) {
      await fs.rm(segments[i]!.file);
      removed++;
    }
  }
  if (removed > 0) await fs.fsyncDir(dir);
  return removed;
}

// ---- writing -----------------------------------------------------------------------------------------------

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

/** Hears of each batch made durable by `JournalWriter.append` (set as `writer.observer`; metrics). */
export interface JournalObserver {
  /** `records` records (`bytes` bytes) are durable; the write took `writeSeconds`, the fdatasync `fsyncSeconds`. */
  appended(records: number, bytes: number, writeSeconds: number, fsyncSeconds: number): void;
}

/** Options of `JournalWriter.open`. */
export interface JournalWriterOptions {
  /**
   * Record the durable position after each batch (durable-position.ts; default true). False only for a
   * benchmark's baseline: a journal without it cannot tell a cut from a torn write.
   */
  recordPosition?: boolean;
  /** Least time between the starts of two position updates, ms (default POSITION_UPDATE_INTERVAL_MS, durable-position.ts). */
  positionIntervalMs?: number;
}

/**
 * Appends batches to the newest segment; one write + one fdatasync per batch. After each batch's fdatasync the
 * durable position is noted and recorded in the background (`DurablePositionLog`: at most one update in flight,
 * each recording the newest position), so the acknowledgement never waits for it.
 */
export class JournalWriter {
  readonly stats: JournalStats = { fsyncs: 0, batches: 0, records: 0, bytes: 0 };
  /** Told of every durable batch (metrics: group-commit size, write and fdatasync time); must not throw. */
  observer: JournalObserver | undefined;
  /** The first failure; once set, every append and rotate rejects with it. */
  private failure: JournalFailedError | undefined;
  private busy = false;

  private constructor(
    private readonly fs: HostFs,
    private readonly dir: string,
    private fh: FileHandle,
    private file: string,
    /** Sequence number of the current segment's first record. */
    public segmentStart: number,
    /** Sequence number the next appended record must carry. */
    private nextSeq: number,
    /** Records the durable position (null when `recordPosition` is false). */
    private readonly position: DurablePositionLog | null,
  ) {}

  /**
   * Opens `dir` for appending (creating it durably when missing): continues the newest segment, or creates
   * `segment-<nextSeq>` (and fsyncs the directory) when there is none. `nextSeq` is the sequence number the
   * next record must carry. Call after `readJournal(..., { truncate: true })` so that a torn tail is gone.
   * Unless `opts.recordPosition` is false, fdatasyncs the newest segment (what a killed process left in the page
   * cache was read and replayed as if on disk) and starts a new position file recording `nextSeq - 1`.
   * Rejects when the file system fails.
   */
  static async open(fs: HostFs, dir: string, nextSeq: number, opts: JournalWriterOptions = {}): Promise<JournalWriter> {
    await fs.mkdirp(dir);
    const record = opts.recordPosition ?? true;
    const last = (await listSegments(fs, dir)).at(-1);
    let fh: FileHandle;
    if (last) {
      fh = await fs.openAppend(last.file);
      if (record) await fh.datasync();
    } else {
      fh = await fs.openAppend(path.join(dir, segmentName(nextSeq)));
      await fs.fsyncDir(dir);
    }
    const start = last?.start ?? nextSeq;
    const file = last?.file ?? path.join(dir, segmentName(nextSeq));
    const position = record ? await DurablePositionLog.open(fs, dir, { seq: nextSeq - 1, segmentStart: start }, opts.positionIntervalMs) : null;
    return new JournalWriter(fs, dir, fh, file, start, nextSeq, position);
  }

  /** The first write or fdatasync failure (of a segment or of the position file), once the writer is poisoned. */
  get failed(): JournalFailedError | undefined {
    this.checkPosition();
    return this.failure;
  }

  /** The durable position last recorded in the position file (undefined when positions are not recorded). */
  get recordedPosition(): DurablePosition | undefined {
    return this.position?.recorded;
  }

  /** Durable position updates made since open (0 when positions are not recorded). */
  get positionUpdates(): number {
    return this.position?.updates ?? 0;
  }

  /**
   * Resolves once the position of every batch appended so far is recorded durably; rejects with the writer's
   * `JournalFailedError` when it is poisoned (a position update failed, or a segment write or fdatasync). For tests
   * and for a caller that wants every acknowledgement covered by the recorded position.
   */
  async positionSettled(): Promise<void> {
    await this.position?.settled();
    this.checkPosition();
    if (this.failure) throw this.failure;
  }

  /** Poisons the writer when a position update failed (the position file's state is unknown). */
  private checkPosition(): void {
    if (this.failure === undefined && this.position?.failure !== undefined) {
      this.failure = new JournalFailedError(positionFile(this.dir), 'position', this.position.failure);
    }
  }

  /**
   * Writes `records` with one write and one fdatasync; resolves when they are durable (the update of the
   * recorded durable position starts then, in the background). Rejects with `JournalFailedError` when the write
   * or the fdatasync fails, and at once, with that same error, on every call after (also once a position update
   * failed) (an fdatasync is never retried on the same file). Throws (a programmer error) when the records do not
   * carry the consecutive sequence numbers that follow the last one written, or when called concurrently.
   */
  async append(records: JournalRecord[]): Promise<void> {
    this.checkPosition();
    if (this.failure) throw this.failure;
    if (this.busy) throw new Error('JournalWriter.append called while another append or rotate is running');
    if (records.length === 0) return;
    records.forEach((r, i) => {
      if (r.seq !== this.nextSeq + i) throw new Error(`journal append out of order: seq ${r.seq} where ${this.nextSeq + i} was expected`);
    });
    const buf = Buffer.concat(records.map(encodeRecord));
    this.busy = true;
    const writeStart = performance.now();
    let syncStart = writeStart;
    try {
      await this.guard('write', () => this.fh.write(buf));
      syncStart = performance.now();
      await this.guard('datasync', () => this.fh.datasync());
    } finally {
      this.busy = false;
    }
    this.nextSeq += records.length;
    this.position?.note({ seq: this.nextSeq - 1, segmentStart: this.segmentStart });
    this.stats.fsyncs++;
    this.stats.batches++;
    this.stats.records += records.length;
    this.stats.bytes += buf.length;
    this.observer?.appended(records.length, buf.length, (syncStart - writeStart) / 1000, (performance.now() - syncStart) / 1000);
  }

  private async guard(op: 'write' | 'datasync' | 'rotate', run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (err) {
      this.failure = new JournalFailedError(this.file, op, err);
      throw this.failure;
    }
  }

  /**
   * Starts a new segment whose first record will be `nextSeq` (the previous one is complete and synced);
   * a no-op when the current segment already starts there. The directory is fsynced so that the new file
   * survives a crash before records in it are acknowledged. A failure to create or fsync poisons the writer
   * (an empty segment of unknown durability would break the sequence of segment names); rejects with the
   * writer's failure once poisoned; throws (a programmer error) when `nextSeq` is not the next sequence number to append.
   */
  async rotate(nextSeq: number): Promise<void> {
    this.checkPosition();
    if (this.failure) throw this.failure;
    if (this.busy) throw new Error('JournalWriter.rotate called while an append is running');
    if (nextSeq === this.segmentStart) return;
    if (nextSeq !== this.nextSeq) throw new Error(`journal rotate to ${nextSeq} but the next record is ${this.nextSeq}`);
    this.busy = true;
    try {
      const file = path.join(this.dir, segmentName(nextSeq));
      let fh: FileHandle | undefined;
      await this.guard('rotate', async () => {
        const opened = await this.fs.openAppend(file);
        try {
          await this.fs.fsyncDir(this.dir);
        } catch (err) {
          await opened.close().catch(() => undefined);
          throw err;
        }
        fh = opened;
      });
      const old = this.fh;
      this.fh = fh!;
      this.file = file;
      this.segmentStart = nextSeq;
      await old.close();
    } finally {
      this.busy = false;
    }
  }

  /** Waits for the position update in flight, then closes the position file and the current segment (every batch is already synced, or the writer is poisoned). */
  async close(): Promise<void> {
    await this.position?.close();
    await this.fh.close();
  }
}
