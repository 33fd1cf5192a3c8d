/**
 * The journal's recorded durable position: how far the journal writer has made the journal durable, kept apart
 * from the segments so that a journal cut short (bytes or a whole segment lost after they were synced and
 * acknowledged) is told from a torn write (bytes never synced, so never acknowledged).
 *
 * File `<journal dir>/durable-position.log` (the name sorts before `segment-*`: a copy of the directory in name
 * order copies it before the segments), an append-only sequence of frames (framing.ts: u32 LE length, u32 LE
 * crc32, payload), each payload 24 bytes:
 *
 *   [4 bytes "JDP1"][u32 LE 0][u64 LE sequence number][u64 LE first sequence number of its segment]
 *
 * Each record says: every journal record up to this sequence number was written and fdatasynced. Positions only
 * grow within one file, so any intact record is a true lower bound and the newest intact one is the best: a torn or
 * damaged record costs only the precision of that one update (the older records are the redundancy). The file is
 * rewritten whole (temporary file, fdatasync, rename, directory fsync: atomic) when the writer opens the journal,
 * when it grows past `POSITION_FILE_MAX_BYTES`, and when a repair discards records (`writeDurablePosition`).
 */
import path from 'node:path';
import { encodeFrame, FRAME_HEADER_BYTES, findFrame, scanFrames } from './framing';
import type { FileHandle, HostFs } from './host-fs';

/** Name of the position file inside the journal directory. */
export const POSITION_FILE = 'durable-position.log';
/** The position file is rewritten with only its newest record once it is larger than this (bytes). */
export const POSITION_FILE_MAX_BYTES = 256 * 1024;
/**
 * Default least time between the starts of two position updates (ms): under load the updates are spaced out so
 * that their fdatasyncs do not take measurably from the segments' (an update after a quiet spell starts at once).
 */
export const POSITION_UPDATE_INTERVAL_MS = 5;
const MAGIC = 0x3150444a; // "JDP1" read as u32 LE
const PAYLOAD_BYTES = 24;

/** A durable position of the journal: every record with sequence number <= `seq` is on disk. */
export interface DurablePosition {
  /** Sequence number of the last record made durable (0: none). */
  seq: number;
  /** First sequence number of the segment holding record `seq` (its file name; informative). */
  segmentStart: number;
}

/** What `readDurablePosition` found. */
export type DurablePositionRead =
  /** The newest intact record, and how many intact ones the file holds. */
  | { kind: 'ok'; position: DurablePosition; records: number }
  /** No position file: a journal written before positions were recorded (or the file was removed). */
  | { kind: 'missing' }
  /** The file exists but holds no intact record (`detail` says what is there). */
  | { kind: 'damaged'; detail: string };

/** Path of the position file of journal directory `dir`. */
export function positionFile(dir: string): string {
  return path.join(dir, POSITION_FILE);
}

/** One position as a frame (header + 24-byte payload). */
export function encodePosition(p: DurablePosition): Buffer {
  const payload = Buffer.alloc(PAYLOAD_BYTES);
  payload.writeUInt32LE(MAGIC, 0);
  payload.writeBigUInt64LE(BigInt(p.seq), 8);
  payload.writeBigUInt64LE(BigInt(p.segmentStart), 16);
  return encodeFrame(payload);
}

function decodePayload(p: Buffer): DurablePosition | null {
  if (p.length !== PAYLOAD_BYTES || p.readUInt32LE(0) !== MAGIC) return null;
  const seq = p.readBigUInt64LE(8);
  const segmentStart = p.readBigUInt64LE(16);
  if (seq > BigInt(Number.MAX_SAFE_INTEGER) || segmentStart > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return { seq: Number(seq), segmentStart: Number(segmentStart) };
}

/**
 * Reads the recorded durable position of the journal in `dir`: the highest intact record of the position file,
 * searching past damaged stretches (every intact record is a lower bound). Never throws for damage; throws only
 * when the file exists and cannot be read.
 */
export async function readDurablePosition(fs: HostFs, dir: string): Promise<DurablePositionRead> {
  if (!(await fs.readdir(dir)).includes(POSITION_FILE)) return { kind: 'missing' };
  const buf = await fs.readFile(positionFile(dir));
  let best: DurablePosition | undefined;
  let records = 0;
  let off = 0;
  while (off < buf.length) {
    const scan = scanFrames(buf.subarray(off), { minPayload: PAYLOAD_BYTES });
    for (const payload of scan.payloads) {
      const p = decodePayload(payload);
      if (p === null) continue;
      records++;
      if (best === undefined || p.seq > best.seq) best = p;
    }
    off += scan.validBytes;
    if (off >= buf.length) break;
    const next = findFrame(buf, off + 1, PAYLOAD_BYTES);
    if (next < 0) break;
    off = next;
  }
  if (best === undefined) return { kind: 'damaged', detail: `${buf.length} bytes without an intact position record` };
  return { kind: 'ok', position: best, records };
}

/**
 * Replaces the position file of `dir` with one holding `position` (twice: either copy suffices), atomically and
 * durably: a temporary file written and fdatasynced, renamed over the old one, and the directory fsynced. A crash
 * at any point leaves the old file or the new one. Rejects when the file system fails.
 */
export async function writeDurablePosition(fs: HostFs, dir: string, position: DurablePosition): Promise<void> {
  const file = positionFile(dir);
  const tmp = `${file}.tmp`;
  const rec = encodePosition(position);
  const fh = await fs.openTruncate(tmp);
  try {
    await fh.write(Buffer.concat([rec, rec]));
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await fs.rename(tmp, file);
  await fs.fsyncDir(dir);
}

/**
 * The writer's side: records the newest durable position in the background, at most one update in flight, each
 * update recording the newest position noted so far (updates are coalesced), and an update starting no sooner than
 * `intervalMs` after the previous one started. `note` never waits; `settled` resolves once everything noted before
 * it is durable in the position file. A position noted at time t is recorded by t + intervalMs + two update
 * durations (one write + fdatasync each) at the latest. The first failure (a write, an
 * fdatasync, a rewrite) stops the updates for good and is kept in `failure` (the journal writer turns it into its
 * own failure: the position file's state is unknown).
 */
export class DurablePositionLog {
  /** The first failure, once an update failed. */
  failure: unknown;
  /** Position updates made durable (appended and fdatasynced, or rewritten). */
  updates = 0;
  /** The newest position noted (recorded or about to be). */
  private noted: DurablePosition;
  /** The newest position made durable in the file. */
  private recordedPos: DurablePosition;
  private running: Promise<void> | null = null;
  private bytes: number;
  /** performance.now() when the last update started. */
  private lastStart = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly fs: HostFs,
    private readonly dir: string,
    private fh: FileHandle,
    position: DurablePosition,
    private readonly intervalMs: number,
  ) {
    this.noted = position;
    this.recordedPos = position;
    this.bytes = 2 * encodePosition(position).length;
  }

  /**
   * Starts a new position file in `dir` recording `position` (durably, see `writeDurablePosition`) and opens it
   * for appending; `intervalMs` is the least time between the starts of two updates (default
   * POSITION_UPDATE_INTERVAL_MS; 0: each starts as soon as the previous one ends). Rejects when the file system fails.
   */
  static async open(fs: HostFs, dir: string, position: DurablePosition, intervalMs = POSITION_UPDATE_INTERVAL_MS): Promise<DurablePositionLog> {
    await writeDurablePosition(fs, dir, position);
    return new DurablePositionLog(fs, dir, await fs.openAppend(positionFile(dir)), position, intervalMs);
  }

  /** The newest position made durable in the file. */
  get recorded(): DurablePosition {
    return this.recordedPos;
  }

  /** Notes that the journal is durable up to `position` (a higher seq than any noted before) and starts an update unless one is running. */
  note(position: DurablePosition): void {
    if (position.seq <= this.noted.seq) return;
    this.noted = position;
    if (this.running === null && this.failure === undefined) this.running = this.run();
  }

  /** Resolves once every position noted so far is durable in the file, or the updates have failed (see `failure`). */
  async settled(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  private async run(): Promise<void> {
    try {
      while (this.noted.seq > this.recordedPos.seq) {
        const wait = this.lastStart + this.intervalMs - performance.now();
        if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait));
        this.lastStart = performance.now();
        const target = this.noted;
        if (this.bytes >= POSITION_FILE_MAX_BYTES) {
          await writeDurablePosition(this.fs, this.dir, target);
          const old = this.fh;
          this.fh = await this.fs.openAppend(positionFile(this.dir));
          this.bytes = 2 * encodePosition(target).length;
          await old.close();
        } else {
          const rec = encodePosition(target);
          await this.fh.write(rec);
          await this.fh.datasync();
          this.bytes += rec.length;
        }
        this.recordedPos = target;
        this.updates++;
      }
    } catch (err) {
      this.failure = err;
    } finally {
      this.running = null;
    }
  }

  /** Waits for the update in flight (and records the newest position noted), then closes the file. */
  async close(): Promise<void> {
    await this.settled();
    await this.fh.close();
  }
}

/** Bytes of one encoded position record. */
export const POSITION_RECORD_BYTES = FRAME_HEADER_BYTES + PAYLOAD_BYTES;
