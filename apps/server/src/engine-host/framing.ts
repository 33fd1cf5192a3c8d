/**
 * Record framing shared by journal segments and snapshot files:
 *
 *   [u32 LE payload length][u32 LE crc32 (zlib.crc32) of the payload][payload bytes]
 *
 * A reader stops at the first record that is short (a write torn by a crash) or whose checksum does not
 * match; everything before it is intact (each group-commit batch is fdatasync'ed before the next is written).
 */
import zlib from 'node:zlib';

/** Bytes of the frame header (length + crc). */
export const FRAME_HEADER_BYTES = 8;
/** Upper bound on one record's payload, to reject garbage lengths quickly (64 MiB). */
export const MAX_FRAME_PAYLOAD = 64 * 1024 * 1024;

/** Frames `payload` as one record: header followed by the payload bytes. */
export function encodeFrame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(zlib.crc32(payload), 4);
  out.set(payload, FRAME_HEADER_BYTES);
  return out;
}

/** Why a scan stopped before the end of the buffer. */
export type TornReason = 'short_header' | 'short_payload' | 'bad_length' | 'bad_crc';

/** Result of scanning a buffer of frames. */
export interface FrameScan {
  /** Payloads of the intact records, in file order (views into the scanned buffer). */
  payloads: Buffer[];
  /** Byte offset just after the last intact record (= where a torn tail starts). */
  validBytes: number;
  /** Set when bytes after `validBytes` do not form an intact record. */
  torn?: { offset: number; reason: TornReason };
}

/** Scans `buf` from the start, returning every intact record up to the first torn or corrupt one. */
export function scanFrames(buf: Buffer): FrameScan {
  const payloads: Buffer[] = [];
  let off = 0;
  while (off < buf.length) {
    if (buf.length - off < FRAME_HEADER_BYTES) return { payloads, validBytes: off, torn: { offset: off, reason: 'short_header' } };
    const len = buf.readUInt32LE(off);
    const crc = buf.readUInt32LE(off + 4);
    if (len > MAX_FRAME_PAYLOAD) return { payloads, validBytes: off, torn: { offset: off, reason: 'bad_length' } };
    const start = off + FRAME_HEADER_BYTES;
    if (buf.length - start < len) return { payloads, validBytes: off, torn: { offset: off, reason: 'short_payload' } };
    const payload = buf.subarray(start, start + len);
    if (zlib.crc32(payload) !== crc) return { payloads, validBytes: off, torn: { offset: off, reason: 'bad_crc' } };
    payloads.push(payload);
    off = start + len;
  }
  return { payloads, validBytes: off };
}
