/**
 * Record framing shared by journal segments and snapshot files:
 *
 *   [u32 LE payload length][u32 LE crc32 (zlib.crc32) of the payload][payload bytes]
 *
 * A scan reads intact records from the start and stops at the first one that is not; it then decides, from the
 * position and the bytes alone, whether the rest of the buffer is a clean TORN tail (what a crash in the middle
 * of an append leaves: a header cut short at the end of the buffer, a payload running past the end, or
 * zero-filled bytes up to the end) or CORRUPT (a complete record that is wrong: bad checksum, impossible
 * length, too short a payload, or a bad record followed by valid data). Whether a torn tail may be dropped is
 * the caller's decision: only at the end of the newest journal segment (journal.ts).
 *
 * A payload is never empty: a zero length is never a record, so zero-filled space is never mistaken for one.
 */
import zlib from 'node:zlib';

/** Bytes of the frame header (length + crc). */
export const FRAME_HEADER_BYTES = 8;
/** Upper bound on one record's payload, to reject garbage lengths quickly (64 MiB). */
export const MAX_FRAME_PAYLOAD = 64 * 1024 * 1024;

/**
 * Frames `payload` as one record: header followed by the payload bytes.
 * Throws (a programmer error) when the payload is empty or longer than MAX_FRAME_PAYLOAD.
 */
export function encodeFrame(payload: Uint8Array): Buffer {
  if (payload.length === 0 || payload.length > MAX_FRAME_PAYLOAD) throw new Error(`frame payload of ${payload.length} bytes is out of range`);
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(zlib.crc32(payload), 4);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

/**
 * Why the rest of the buffer is a torn write (an incomplete last record), which a crash mid-append leaves:
 * - `short_header`: fewer than 8 bytes remain;
 * - `short_payload`: the length runs past the end and no complete record starts anywhere after the header;
 * - `zero_tail`: every remaining byte is zero (zero-filled blocks of a file extended but never synced).
 */
export type TornReason = 'short_header' | 'short_payload' | 'zero_tail';

/**
 * Why a record is corrupt (never the product of a torn append):
 * - `bad_crc`: a complete record whose checksum does not match its payload;
 * - `bad_length`: a length over MAX_FRAME_PAYLOAD, or a length running past the end although a complete
 *   record starts after the header (the length field itself is damaged);
 * - `short_record`: a payload shorter than the caller's minimum (`minPayload`), not followed by zeros only.
 */
export type CorruptReason = 'bad_crc' | 'bad_length' | 'short_record';

/** Result of scanning a buffer of frames. At most one of `torn` and `corrupt` is set. */
export interface FrameScan {
  /** Payloads of the intact records, in file order (views into the scanned buffer). */
  payloads: Buffer[];
  /** Byte offset of each intact record's header (same order as `payloads`). */
  offsets: number[];
  /** Byte offset just after the last intact record (where a torn tail or the corrupt record starts). */
  validBytes: number;
  /** The bytes from `offset` to the end are a clean torn tail. */
  torn?: { offset: number; reason: TornReason };
  /** The record at `offset` is damaged; `detail` says how, in a sentence for an operator. */
  corrupt?: { offset: number; reason: CorruptReason; detail: string };
}

/** Options of `scanFrames`. */
export interface ScanOptions {
  /** Smallest valid payload in bytes (default 1; the journal passes 8, its sequence-number prefix). */
  minPayload?: number;
}

/** Result of `scanFrameOffsets`: `FrameScan` without the payload views (a record's payload is at offset + 8). */
export type FrameOffsets = Omit<FrameScan, 'payloads'>;

/**
 * Scans `buf` from the start and returns every intact record up to the first one that is not, with where and
 * why it stopped (torn tail vs corrupt record, see the module comment). Never throws.
 */
export function scanFrames(buf: Buffer, opts: ScanOptions = {}): FrameScan {
  const scan = scanFrameOffsets(buf, opts);
  return { payloads: scan.offsets.map((o) => buf.subarray(o + FRAME_HEADER_BYTES, o + FRAME_HEADER_BYTES + buf.readUInt32LE(o))), ...scan };
}

/**
 * `scanFrames` without a view per payload: only the offsets of the intact records' headers, which is what
 * recovery keeps (a million payload views kept alive while a journal is replayed cost more in garbage
 * collection than the replay itself). Never throws.
 */
export function scanFrameOffsets(buf: Buffer, opts: ScanOptions = {}): FrameOffsets {
  const minPayload = Math.max(1, opts.minPayload ?? 1);
  const offsets: number[] = [];
  let off = 0;
  while (off < buf.length) {
    if (buf.length - off >= FRAME_HEADER_BYTES) {
      const len = buf.readUInt32LE(off);
      const start = off + FRAME_HEADER_BYTES;
      if (len >= minPayload && len <= MAX_FRAME_PAYLOAD && buf.length - start >= len) {
        if (zlib.crc32(buf.subarray(start, start + len)) === buf.readUInt32LE(off + 4)) {
          offsets.push(off);
          off = start + len;
          continue;
        }
      }
    }
    return { offsets, validBytes: off, ...classifyStop(buf, off, minPayload) };
  }
  return { offsets, validBytes: off };
}

/** Decides whether the bad record at `off` starts a clean torn tail or is corrupt. */
function classifyStop(buf: Buffer, off: number, minPayload: number): Pick<FrameScan, 'torn' | 'corrupt'> {
  if (isAllZero(buf, off)) return { torn: { offset: off, reason: 'zero_tail' } };
  const remaining = buf.length - off;
  if (remaining < FRAME_HEADER_BYTES) return { torn: { offset: off, reason: 'short_header' } };
  const len = buf.readUInt32LE(off);
  if (len > MAX_FRAME_PAYLOAD) {
    return { corrupt: { offset: off, reason: 'bad_length', detail: `record length ${len} is over the ${MAX_FRAME_PAYLOAD}-byte limit` } };
  }
  if (len < minPayload) {
    return {
      corrupt: { offset: off, reason: 'short_record', detail: `record length ${len} is under the ${minPayload}-byte minimum and non-zero bytes follow` },
    };
  }
  if (remaining - FRAME_HEADER_BYTES < len) {
    const next = findFrame(buf, off + 1, minPayload);
    if (next < 0) return { torn: { offset: off, reason: 'short_payload' } };
    return {
      corrupt: {
        offset: off,
        reason: 'bad_length',
        detail: `record length ${len} runs past the end of the file, but a complete record starts at byte ${next}`,
      },
    };
  }
  return { corrupt: { offset: off, reason: 'bad_crc', detail: `the checksum of a complete ${len}-byte record does not match` } };
}

/** True when every byte of `buf` from `from` to the end is zero. */
export function isAllZero(buf: Uint8Array, from = 0): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

/**
 * Offset of the first intact frame (payload of at least `minPayload` bytes, checksum matching) starting at or
 * after `from`, trying every byte position; -1 when there is none. Used to tell a damaged length field (valid
 * records follow it) from a record torn at the end of the file, and to count what lies beyond a corruption.
 */
export function findFrame(buf: Buffer, from: number, minPayload = 1): number {
  const min = Math.max(1, minPayload);
  for (let p = Math.max(0, from); p + FRAME_HEADER_BYTES <= buf.length; p++) {
    const len = buf.readUInt32LE(p);
    if (len < min || len > MAX_FRAME_PAYLOAD || p + FRAME_HEADER_BYTES + len > buf.length) continue;
    if (zlib.crc32(buf.subarray(p + FRAME_HEADER_BYTES, p + FRAME_HEADER_BYTES + len)) === buf.readUInt32LE(p + 4)) return p;
  }
  return -1;
}
