/**
 * Proves the journal's on-disk format and its crash handling without the engine, on the real disk (nodeFs in a
 * temporary directory) and on MemoryFs alike: frames round-trip; only an incomplete record at the very end of
 * the newest segment (short header, payload past the end, zero-filled tail) is a torn write, dropped and
 * truncated; a complete bad record, damage followed by data, damage in an older segment and any sequence gap,
 * repeat or misplacement throw JournalCorruptError naming the file and offset and truncate nothing; one append
 * is one fdatasync and a failed one poisons the writer; segments rotate and prune; snapshots are atomic. On
 * MemoryFs, a crash at every byte of an unsynced batch never loses a synced record and is never called corrupt.
 * The recorded durable position: a journal cut inside its last or an earlier synced record, or without its last
 * segment, is a loss (JournalLossError, nothing truncated), while a torn tail after the position is still dropped;
 * the position file survives a torn or damaged record of its own, is rewritten when large, falls back when missing,
 * and a repair and a prune leave it consistent.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, findFrame, MAX_FRAME_PAYLOAD, scanFrames } from './framing';
import type { HostFs } from './host-fs';
import {
  encodeRecord,
  JournalCorruptError,
  JournalFailedError,
  JournalLossError,
  JournalWriter,
  listSegments,
  planJournalTruncation,
  pruneSegments,
  readJournal,
  segmentName,
  truncateJournalAt,
  verifyJournal,
  type JournalRecord,
} from './journal';
import { MemoryFs } from './memory-fs';
import { nodeFs } from './node-fs';
import { encodePosition, POSITION_FILE, POSITION_FILE_MAX_BYTES, POSITION_RECORD_BYTES, positionFile, readDurablePosition } from './durable-position';
import { listSnapshots, readSnapshot, writeSnapshot } from './snapshot-store';

const rec = (seq: number, text = `cmd-${seq}`): JournalRecord => ({ seq, body: Buffer.from(text) });
const seqs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const recs = (from: number, to: number) => seqs(from, to).map((s) => rec(s));
/** Byte offset of record `seq` in a segment holding rec(first), rec(first + 1), ... */
const offsetOf = (seq: number, first = 1) => recs(first, seq - 1).reduce((n, r) => n + encodeRecord(r).length, 0);

/** Writes `buf` as the whole of `file`, durably, through the HostFs. */
async function overwrite(hfs: HostFs, file: string, buf: Uint8Array): Promise<void> {
  const fh = await hfs.openTruncate(file);
  await fh.write(buf);
  await fh.datasync();
  await fh.close();
}

/** Appends `buf` to `file`, durably, through the HostFs. */
async function appendRaw(hfs: HostFs, file: string, buf: Uint8Array): Promise<void> {
  const fh = await hfs.openAppend(file);
  await fh.write(buf);
  await fh.datasync();
  await fh.close();
}

/** A journal of `n` records 1..n in one segment; returns its file. */
async function journalOf(hfs: HostFs, dir: string, n: number): Promise<string> {
  const w = await JournalWriter.open(hfs, dir, 1);
  await w.append(recs(1, n));
  await w.close();
  return path.join(dir, segmentName(1));
}

const tmpDirs: string[] = [];
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const disks: Array<[string, () => { hfs: HostFs; dir: string }]> = [
  [
    'nodeFs',
    () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
      tmpDirs.push(root);
      return { hfs: nodeFs, dir: path.join(root, 'data', 'journal') };
    },
  ],
  ['MemoryFs', () => ({ hfs: new MemoryFs(), dir: '/data/journal' })],
];

describe('framing', () => {
  const a = encodeFrame(Buffer.from('alpha'));
  const b = encodeFrame(Buffer.from('beta'));
  const whole = Buffer.concat([a, b]);

  it('round-trips payloads with their offsets', () => {
    expect(a.readUInt32LE(0)).toBe(5);
    const scan = scanFrames(whole);
    expect(scan.payloads.map((p) => p.toString())).toEqual(['alpha', 'beta']);
    expect(scan.offsets).toEqual([0, a.length]);
    expect(scan.validBytes).toBe(whole.length);
    expect(scan.torn).toBeUndefined();
    expect(scan.corrupt).toBeUndefined();
    expect(() => encodeFrame(Buffer.alloc(0))).toThrow(/out of range/);
  });

  it('calls an incomplete last record or a zero-filled tail torn', () => {
    expect(scanFrames(whole.subarray(0, whole.length - 1)).torn).toEqual({ offset: a.length, reason: 'short_payload' });
    expect(scanFrames(whole.subarray(0, a.length + 3)).torn).toEqual({ offset: a.length, reason: 'short_header' });
    const zeros = scanFrames(Buffer.concat([whole, Buffer.alloc(4096)]));
    expect(zeros.payloads.length).toBe(2);
    expect(zeros.torn).toEqual({ offset: whole.length, reason: 'zero_tail' });
    expect(scanFrames(Buffer.concat([whole, Buffer.alloc(3)])).torn).toEqual({ offset: whole.length, reason: 'zero_tail' });
  });

  it('calls a complete bad record, an impossible length or damage followed by data corrupt', () => {
    const flipped = Buffer.from(whole);
    flipped[whole.length - 1] = flipped[whole.length - 1]! ^ 0x01;
    const bad = scanFrames(flipped);
    expect(bad.payloads.map((p) => p.toString())).toEqual(['alpha']);
    expect(bad.torn).toBeUndefined();
    expect(bad.corrupt).toMatchObject({ offset: a.length, reason: 'bad_crc' });

    const huge = Buffer.from(whole);
    huge.writeUInt32LE(MAX_FRAME_PAYLOAD + 1, 0);
    expect(scanFrames(huge).corrupt).toMatchObject({ offset: 0, reason: 'bad_length' });

    // A length damaged to run past the end, while an intact record follows: not a torn write.
    const longLen = Buffer.from(whole);
    longLen.writeUInt32LE(1000, 0);
    expect(scanFrames(longLen).corrupt).toMatchObject({ offset: 0, reason: 'bad_length', detail: expect.stringContaining(`starts at byte ${a.length}`) });
    expect(findFrame(longLen, 1)).toBe(a.length);

    // A zero header followed by non-zero bytes is not a tail of zeros.
    const hole = Buffer.concat([a, Buffer.alloc(16), b]);
    expect(scanFrames(hole).corrupt).toMatchObject({ offset: a.length, reason: 'short_record' });
    // A payload under the caller's minimum is corrupt, not a record.
    expect(scanFrames(a, { minPayload: 8 }).corrupt).toMatchObject({ offset: 0, reason: 'short_record' });
  });
});

describe.each(disks)('journal on %s', (_name, makeDisk) => {
  it('writes one batch with one fdatasync and reads records back after a sequence number', async () => {
    const { hfs, dir } = makeDisk();
    const w = await JournalWriter.open(hfs, dir, 1);
    await w.append([rec(1), rec(2), rec(3)]);
    await w.append([rec(4)]);
    expect(w.stats).toEqual({ fsyncs: 2, batches: 2, records: 4, bytes: offsetOf(5) });
    await w.close();
    const all = await readJournal(hfs, dir, 0, { truncate: false });
    expect(all.records.map((r) => [r.seq, Buffer.from(r.body).toString()])).toEqual([
      [1, 'cmd-1'],
      [2, 'cmd-2'],
      [3, 'cmd-3'],
      [4, 'cmd-4'],
    ]);
    expect(all.lastSeq).toBe(4);
    expect(all.firstSeq).toBe(1);
    expect(all.torn).toBeUndefined();
    const after2 = await readJournal(hfs, dir, 2, { truncate: false });
    expect(after2.records.map((r) => r.seq)).toEqual([3, 4]);
  });

  it('drops and truncates a record torn mid-payload, then appends cleanly after it', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 2);
    const goodSize = offsetOf(3);
    const rec3 = encodeRecord(rec(3, 'cmd-3-long-payload'));
    await appendRaw(hfs, file, rec3.subarray(0, rec3.length - 5));
    const read = await readJournal(hfs, dir, 0, { truncate: true });
    expect(read.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(read.torn).toEqual({ file, offset: goodSize, droppedBytes: rec3.length - 5, reason: 'short_payload' });
    expect((await hfs.readFile(file)).length).toBe(goodSize);

    const w2 = await JournalWriter.open(hfs, dir, 3);
    await w2.append([rec(3)]);
    await w2.close();
    const again = await readJournal(hfs, dir, 0, { truncate: true });
    expect(again.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(again.torn).toBeUndefined();
  });

  it('drops a header cut short at the end', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 5);
    await appendRaw(hfs, file, encodeRecord(rec(6)).subarray(0, 5));
    const read = await readJournal(hfs, dir, 0, { truncate: true });
    expect(read.records.map((r) => r.seq)).toEqual(seqs(1, 5));
    expect(read.torn).toEqual({ file, offset: offsetOf(6), droppedBytes: 5, reason: 'short_header' });
    expect((await hfs.readFile(file)).length).toBe(offsetOf(6));
  });

  it('keeps 20 records and truncates a zero-filled tail of 4096 bytes', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 20);
    await appendRaw(hfs, file, Buffer.alloc(4096));
    const read = await readJournal(hfs, dir, 0, { truncate: true });
    expect(read.records.map((r) => r.seq)).toEqual(seqs(1, 20));
    expect(read.lastSeq).toBe(20);
    expect(read.torn).toEqual({ file, offset: offsetOf(21), droppedBytes: 4096, reason: 'zero_tail' });
    expect((await hfs.readFile(file)).length).toBe(offsetOf(21));
  });

  it('refuses a flipped bit in record 6 of 20, naming the file and offset, and truncates nothing', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 20);
    const buf = await hfs.readFile(file);
    const at = offsetOf(6);
    buf[at + 8 + 8 + 1] = buf[at + 8 + 8 + 1]! ^ 0x04; // a byte of record 6's command body
    await overwrite(hfs, file, buf);

    const err = await readJournal(hfs, dir, 0, { truncate: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalCorruptError);
    const e = err as JournalCorruptError;
    expect({ file: e.file, offset: e.offset, reason: e.reason }).toEqual({ file, offset: at, reason: 'bad_crc' });
    expect(e.message).toContain(`${file} at byte ${at}`);
    expect(e.message).toContain('npm run journal -- verify');
    expect(e.message).toContain(`npm run journal -- repair --truncate-at ${segmentName(1)}:${at}`);
    expect(e.message).toContain('DISCARDS every acknowledged command');
    expect(await hfs.readFile(file)).toEqual(buf);
  });

  it('refuses a bad crc on the last complete record at the end (it may have been acknowledged)', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 2);
    const buf = await hfs.readFile(file);
    buf[buf.length - 1] = buf[buf.length - 1]! ^ 0x01;
    await overwrite(hfs, file, buf);
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({
      name: 'JournalCorruptError',
      file,
      offset: offsetOf(2),
      reason: 'bad_crc',
    });
    expect((await hfs.readFile(file)).length).toBe(buf.length);
  });

  it('refuses damage followed by data: zeros then a record, a damaged length, a short record', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 3);
    await appendRaw(hfs, file, Buffer.concat([Buffer.alloc(512), encodeRecord(rec(4))]));
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ offset: offsetOf(4), reason: 'short_record' });

    const base = Buffer.concat(recs(1, 5).map(encodeRecord));
    const longLen = Buffer.from(base);
    longLen.writeUInt32LE(10_000, offsetOf(3)); // record 3's length now runs past the end, yet records 4 and 5 follow
    await overwrite(hfs, file, longLen);
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ offset: offsetOf(3), reason: 'bad_length' });

    const hugeLen = Buffer.from(base);
    hugeLen.writeUInt32LE(0xfffffff0, offsetOf(5)); // even on the last record: not zeros, so not a torn write
    await overwrite(hfs, file, hugeLen);
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ offset: offsetOf(5), reason: 'bad_length' });

    // A checksummed payload shorter than the 8-byte sequence number.
    await overwrite(hfs, file, Buffer.concat([base, encodeFrame(Buffer.from('tiny'))]));
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ offset: offsetOf(6), reason: 'short_record' });
    expect((await hfs.readFile(file)).length).toBe(base.length + 12);
  });

  it('refuses gaps, repeats and a first record that does not match the segment name', async () => {
    const { hfs, dir } = makeDisk();
    const file = await journalOf(hfs, dir, 2);
    const two = Buffer.concat(recs(1, 2).map(encodeRecord));
    await overwrite(hfs, file, Buffer.concat([two, encodeRecord(rec(4))]));
    await expect(readJournal(hfs, dir, 0, { truncate: false })).rejects.toMatchObject({
      offset: offsetOf(3),
      reason: 'seq_gap',
      message: expect.stringMatching(/records 3\.\.3 are missing/),
    });
    await overwrite(hfs, file, Buffer.concat([two, encodeRecord(rec(2))]));
    await expect(readJournal(hfs, dir, 0, { truncate: false })).rejects.toMatchObject({ offset: offsetOf(3), reason: 'seq_duplicate' });
    await overwrite(hfs, file, Buffer.concat(recs(2, 3).map(encodeRecord)));
    await expect(readJournal(hfs, dir, 0, { truncate: false })).rejects.toMatchObject({ offset: 0, reason: 'seq_mismatch' });
  });

  it('refuses damage inside an older segment, even a torn-looking tail, and a segment that does not follow', async () => {
    const { hfs, dir } = makeDisk();
    const w = await JournalWriter.open(hfs, dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.rotate(3);
    await w.append([rec(3)]);
    await w.close();
    const [first, second] = (await listSegments(hfs, dir)).map((s) => s.file);
    const good = await hfs.readFile(first!);
    await appendRaw(hfs, first!, Buffer.alloc(100));
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ file: first, offset: good.length, reason: 'zero_tail' });
    const flipped = Buffer.from(good);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0x01;
    await overwrite(hfs, first!, flipped);
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ file: first, offset: offsetOf(2), reason: 'bad_crc' });
    // Segment 3 after a segment ending at 1: records are missing between them.
    await overwrite(hfs, first!, encodeRecord(rec(1)));
    await expect(readJournal(hfs, dir, 0, { truncate: true })).rejects.toMatchObject({ file: second, offset: 0, reason: 'seq_gap' });
    expect((await hfs.readFile(second!)).length).toBe(encodeRecord(rec(3)).length);
  });

  it('rotates segments at snapshots and prunes the ones a snapshot covers', async () => {
    const { hfs, dir } = makeDisk();
    const w = await JournalWriter.open(hfs, dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.rotate(3);
    await w.append([rec(3), rec(4)]);
    await w.rotate(5);
    await w.rotate(5);
    await w.append([rec(5)]);
    await w.close();
    expect((await listSegments(hfs, dir)).map((s) => path.basename(s.file))).toEqual([segmentName(1), segmentName(3), segmentName(5)]);
    expect((await readJournal(hfs, dir, 3, { truncate: false })).records.map((r) => r.seq)).toEqual([4, 5]);
    expect(await pruneSegments(hfs, dir, 2)).toBe(1);
    expect((await listSegments(hfs, dir)).map((s) => s.start)).toEqual([3, 5]);
    expect((await readJournal(hfs, dir, 2, { truncate: false })).records.map((r) => r.seq)).toEqual([3, 4, 5]);
    await expect(readJournal(hfs, dir, 0, { truncate: false })).rejects.toThrow(/starts at 3/);
    expect(await listSegments(hfs, path.join(dir, 'missing'))).toEqual([]);
  });

  it('reports every segment in verifyJournal without changing anything', async () => {
    const { hfs, dir } = makeDisk();
    const w = await JournalWriter.open(hfs, dir, 1);
    await w.append(recs(1, 3));
    await w.rotate(4);
    await w.append(recs(4, 5));
    await w.close();
    const last = path.join(dir, segmentName(4));
    await appendRaw(hfs, last, Buffer.alloc(10));
    const report = await verifyJournal(hfs, dir);
    expect(report.corrupt).toBeUndefined();
    expect(report.segments.map((s) => [s.start, s.records, s.firstSeq, s.lastSeq, s.end.kind])).toEqual([
      [1, 3, 1, 3, 'ok'],
      [4, 2, 4, 5, 'torn'],
    ]);
    expect(report.segments[1]!.end).toEqual({ kind: 'torn', offset: offsetOf(6, 4), reason: 'zero_tail', droppedBytes: 10 });
    expect(report.segments[1]!.boundaries).toEqual([0, offsetOf(5, 4), offsetOf(6, 4)]);
    expect((await hfs.readFile(last)).length).toBe(offsetOf(6, 4) + 10);
  });
});

describe.each(disks)('journal writer faults on %s', (_name, makeDisk) => {
  it('asserts consecutive sequence numbers and rotation at the next one', async () => {
    const { hfs, dir } = makeDisk();
    const w = await JournalWriter.open(hfs, dir, 1);
    await expect(w.append([rec(1), rec(3)])).rejects.toThrow(/out of order: seq 3 where 2/);
    await w.append([rec(1)]);
    await expect(w.append([rec(1)])).rejects.toThrow(/out of order/);
    await expect(w.rotate(5)).rejects.toThrow(/rotate to 5 but the next record is 2/);
    expect(w.failed).toBeUndefined();
    await w.close();
  });
});

describe('journal writer on MemoryFs: fsync failures and crashes', () => {
  const dir = '/data/journal';

  it('a failed fdatasync poisons the writer: later appends reject at once with the first error, never syncing again', async () => {
    const mfs = new MemoryFs();
    const w = await JournalWriter.open(mfs, dir, 1);
    await w.append(recs(1, 2));
    mfs.failNextDatasync();
    const first = await w.append([rec(3)]).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(JournalFailedError);
    expect((first as JournalFailedError).cause).toMatchObject({ code: 'EIO' });
    expect((first as Error).message).toContain(path.join(dir, segmentName(1)));
    expect(w.failed).toBe(first);
    const syncsBefore = { ...mfs.stats };
    await expect(w.append([rec(4)])).rejects.toBe(first);
    await expect(w.append([rec(3)])).rejects.toBe(first);
    await expect(w.rotate(3)).rejects.toBe(first);
    expect(mfs.stats).toEqual(syncsBefore);
    expect(w.stats).toMatchObject({ fsyncs: 1, records: 2 });
    await w.close();
    // What the failed batch left is the crash's to decide; the synced records are always there.
    for (const data of ['drop', 'keep', 'zero'] as const) {
      const read = await readJournal(mfs.crash({ data }), dir, 0, { truncate: true });
      expect(read.records.map((r) => r.seq)).toEqual(data === 'keep' ? [1, 2, 3] : [1, 2]);
    }
  });

  it('a failed write poisons the writer too; a failed rotation as well', async () => {
    const mfs = new MemoryFs();
    const w = await JournalWriter.open(mfs, dir, 1);
    mfs.failNextWrite(5);
    const err = await w.append(recs(1, 2)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalFailedError);
    // data/, data/journal/, the segment; the position file (its first write, and its rename into place)
    expect(mfs.stats).toMatchObject({ datasyncs: 1, failedDatasyncs: 0, dirSyncs: 4 });
    await expect(w.append(recs(1, 2))).rejects.toBe(err);

    const mfs2 = new MemoryFs();
    const w2 = await JournalWriter.open(mfs2, dir, 1);
    await w2.append(recs(1, 2));
    mfs2.failNextFsyncDir();
    const rotErr = await w2.rotate(3).catch((e: unknown) => e);
    expect(rotErr).toBeInstanceOf(JournalFailedError);
    await expect(w2.append([rec(3)])).rejects.toBe(rotErr);
  });

  it('the journal directory and first segment survive a crash right after open (mkdirp and segment creation are synced)', async () => {
    const mfs = new MemoryFs();
    const w = await JournalWriter.open(mfs, dir, 1);
    await w.append([rec(1)]);
    const after = mfs.crash();
    expect(await after.readdir('/data')).toEqual(['journal']);
    expect((await readJournal(after, dir, 0, { truncate: true })).records.map((r) => r.seq)).toEqual([1]);
  });

  it('a crash at any byte of an unsynced batch, torn or zero-filled, keeps every synced record and is never corrupt', async () => {
    const base = new MemoryFs();
    const w = await JournalWriter.open(base, dir, 1);
    await w.append(recs(1, 10));
    await w.rotate(11);
    await w.append(recs(11, 12));
    // The next batch is written but its fdatasync never happens (power goes first).
    const batch = Buffer.concat(recs(13, 17).map(encodeRecord));
    const fh = await base.openAppend(path.join(dir, segmentName(11)));
    await fh.write(batch);
    const boundaries = recs(13, 17)
      .map((r) => encodeRecord(r).length)
      .reduce<number[]>((acc, n) => [...acc, acc.at(-1)! + n], [0]);
    for (let tornAt = 0; tornAt <= batch.length; tornAt++) {
      for (const data of [{ tornAt }, 'zero'] as const) {
        if (data === 'zero' && tornAt > 0) continue;
        const disk = base.crash({ data });
        const read = await readJournal(disk, dir, 0, { truncate: true });
        const complete = data === 'zero' ? 0 : boundaries.filter((b) => b > 0 && b <= tornAt).length;
        expect(read.records.map((r) => r.seq)).toEqual(seqs(1, 12 + complete));
        const cleanCut = data !== 'zero' && boundaries.includes(tornAt);
        expect(read.torn === undefined).toBe(cleanCut);
        // After truncation the journal is clean and the writer continues at the next sequence number.
        const w2 = await JournalWriter.open(disk, dir, read.lastSeq + 1);
        await w2.append([rec(read.lastSeq + 1)]);
        expect((await readJournal(disk, dir, 10, { truncate: false })).records.map((r) => r.seq)).toEqual(seqs(11, read.lastSeq + 1));
      }
    }
  });
});

describe.each(disks)('snapshot store on %s', (_name, makeDisk) => {
  it('writes atomically, keeps the newest two and rejects a damaged file', async () => {
    const { hfs, dir: journalDir } = makeDisk();
    const dir = path.join(path.dirname(journalDir), 'snapshots');
    for (const seq of [10, 20, 30]) {
      await writeSnapshot(hfs, dir, { format: 1, seq, lastTs: seq * 1000, stateHash: `h${seq}`, engine: { version: 1, n: seq } });
    }
    const snaps = await listSnapshots(hfs, dir);
    expect(snaps.map((s) => s.seq)).toEqual([30, 20]);
    expect((await hfs.readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const s30 = await readSnapshot(hfs, snaps[0]!.file);
    expect(s30).toEqual({ format: 1, seq: 30, lastTs: 30000, stateHash: 'h30', engine: { version: 1, n: 30 } });
    const buf = await hfs.readFile(snaps[0]!.file);
    await overwrite(hfs, snaps[0]!.file, buf.subarray(0, buf.length - 2));
    await expect(readSnapshot(hfs, snaps[0]!.file)).rejects.toThrow(/damaged \(short_payload\)/);
    buf[buf.length - 1] = buf[buf.length - 1]! ^ 1;
    await overwrite(hfs, snaps[0]!.file, buf);
    await expect(readSnapshot(hfs, snaps[0]!.file)).rejects.toThrow(/damaged \(bad_crc\)/);
    expect(await listSnapshots(hfs, path.join(dir, 'missing'))).toEqual([]);
  });
});

describe('journal repair (truncateJournalAt) on MemoryFs', () => {
  it('cutting a segment that does not follow at byte 0 removes it and every later one, durably', async () => {
    const mfs = new MemoryFs();
    const dir = '/data/journal';
    const w = await JournalWriter.open(mfs, dir, 1);
    await w.append(recs(1, 2));
    await w.rotate(3);
    await w.append(recs(3, 4));
    await w.rotate(5);
    await w.append(recs(5, 6));
    await w.close();
    const [first, third] = [path.join(dir, segmentName(1)), path.join(dir, segmentName(3))];
    await overwrite(mfs, first, encodeRecord(rec(1))); // record 2 lost: segment 3 no longer follows
    await expect(readJournal(mfs, dir, 0, { truncate: false })).rejects.toMatchObject({ file: third, offset: 0, reason: 'seq_gap' });
    await expect(planJournalTruncation(mfs, dir, segmentName(3), 5)).rejects.toThrow(/not a record boundary/);

    const plan = await planJournalTruncation(mfs, dir, segmentName(3), 0);
    expect(plan).toEqual({
      removed: [
        { file: third, start: 3 },
        { file: path.join(dir, segmentName(5)), start: 5 },
      ],
      keptLastSeq: 1,
      discarded: { records: 4, firstSeq: 3, lastSeq: 6, unreadableBytes: 0 },
    });
    expect((await listSegments(mfs, dir)).length).toBe(3);
    expect(await truncateJournalAt(mfs, dir, third, 0)).toEqual(plan);
    // The repair is durable: a crash right after it changes nothing, and the journal goes on at seq 2.
    const after = mfs.crash({ data: 'keep' });
    expect((await listSegments(after, dir)).map((s) => s.start)).toEqual([1]);
    const read = await readJournal(after, dir, 0, { truncate: true });
    expect(read.lastSeq).toBe(1);
    const w2 = await JournalWriter.open(after, dir, 2);
    await w2.append([rec(2)]);
    expect((await readJournal(after, dir, 0, { truncate: false })).records.map((r) => r.seq)).toEqual([1, 2]);
  });

  it('cutting inside a segment truncates it durably and keeps the records before the cut', async () => {
    const mfs = new MemoryFs();
    const dir = '/data/journal';
    const file = await journalOf(mfs, dir, 20);
    mfs.flipBit(file, offsetOf(6) + 20, 3);
    const plan = await truncateJournalAt(mfs, dir, file, offsetOf(6));
    expect(plan).toEqual({
      truncated: { file, fromBytes: offsetOf(21), toBytes: offsetOf(6) },
      removed: [],
      keptLastSeq: 5,
      discarded: { records: 14, firstSeq: 7, lastSeq: 20, unreadableBytes: encodeRecord(rec(6)).length },
    });
    expect(mfs.crash().inspect(file)!.durable.length).toBe(offsetOf(6));
    expect((await readJournal(mfs.crash(), dir, 0, { truncate: false })).records.map((r) => r.seq)).toEqual(seqs(1, 5));
  });
});

describe('snapshot store on MemoryFs: crashes', () => {
  it('a crash before the directory fsync leaves the old snapshots; after it, the new one, never a partial file', async () => {
    const mfs = new MemoryFs();
    const dir = '/data/snapshots';
    await writeSnapshot(mfs, dir, { format: 1, seq: 10, lastTs: 1, stateHash: 'h10', engine: {} });
    mfs.failNextFsyncDir();
    await expect(writeSnapshot(mfs, dir, { format: 1, seq: 20, lastTs: 2, stateHash: 'h20', engine: {} })).rejects.toMatchObject({ code: 'EIO' });
    const lost = mfs.crash({ data: 'zero' });
    expect((await listSnapshots(lost, dir)).map((s) => s.seq)).toEqual([10]);
    expect(await lost.readdir(dir)).toEqual(['snapshot-00000000000000000010.snap']);
    await mfs.fsyncDir(dir);
    const kept = mfs.crash({ data: 'zero' });
    expect((await listSnapshots(kept, dir)).map((s) => s.seq)).toEqual([20, 10]);
    expect((await readSnapshot(kept, path.join(dir, 'snapshot-00000000000000000020.snap'))).stateHash).toBe('h20');
  });
});

/** The recorded durable position of `dir` (throws when there is none). */
async function durableOf(hfs: HostFs, dir: string) {
  const d = await readDurablePosition(hfs, dir);
  if (d.kind !== 'ok') throw new Error(`no durable position: ${d.kind}`);
  return d.position;
}

const long = (seq: number): JournalRecord => rec(seq, `command-${seq}-`.padEnd(60, 'x'));

describe.each(disks)('the recorded durable position on %s', (_name, makeDisk) => {
  /** A journal of records 1..n (60-byte bodies), one batch each, its position recorded; returns the segment file. */
  async function acknowledged(hfs: HostFs, dir: string, n: number): Promise<string> {
    const w = await JournalWriter.open(hfs, dir, 1);
    for (let s = 1; s <= n; s++) {
      await w.append([long(s)]);
      await w.positionSettled(); // one update per batch (back-to-back batches would be coalesced)
    }
    expect(w.recordedPosition).toEqual({ seq: n, segmentStart: 1 });
    await w.close();
    return path.join(dir, segmentName(1));
  }

  it('20 bytes cut inside the last synced record: a loss, not a torn write, and nothing is truncated', async () => {
    const { hfs, dir } = makeDisk();
    const file = await acknowledged(hfs, dir, 5);
    const size = (await hfs.readFile(file)).length;
    await hfs.truncate(file, size - 20);
    const durable = await durableOf(hfs, dir);
    expect(durable).toEqual({ seq: 5, segmentStart: 1 });
    const err = await readJournal(hfs, dir, 0, { truncate: true, durable }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalLossError);
    expect(err).toBeInstanceOf(JournalCorruptError);
    const lastStart = size - encodeRecord(long(5)).length;
    expect(err).toMatchObject({ name: 'JournalLossError', reason: 'acknowledged_lost', file, offset: lastStart, journalEnd: 4, durable: { seq: 5 } });
    expect((err as Error).message).toContain(`npm run journal -- repair --truncate-at ${segmentName(1)}:${lastStart}`);
    expect((await hfs.readFile(file)).length).toBe(size - 20);
    // verify reports it too; without a position (an old journal) the same bytes read as a torn write, as before.
    expect((await verifyJournal(hfs, dir)).corrupt).toMatchObject({ name: 'JournalLossError', journalEnd: 4 });
    expect((await readJournal(hfs, dir, 0, { truncate: false })).torn).toMatchObject({ offset: lastStart, droppedBytes: encodeRecord(long(5)).length - 20 });
  });

  it('20 bytes into an earlier record, the rest cut away; and the last segment removed', async () => {
    const { hfs, dir } = makeDisk();
    const file = await acknowledged(hfs, dir, 6);
    const recordLen = encodeRecord(long(1)).length;
    await hfs.truncate(file, 2 * recordLen + 20); // inside record 3
    await expect(readJournal(hfs, dir, 0, { truncate: true, durable: await durableOf(hfs, dir) })).rejects.toMatchObject({
      name: 'JournalLossError',
      journalEnd: 2,
      offset: 2 * recordLen,
    });
    expect((await hfs.readFile(file)).length).toBe(2 * recordLen + 20);

    const other = makeDisk();
    const w = await JournalWriter.open(other.hfs, other.dir, 1);
    await w.append([long(1), long(2)]);
    await w.rotate(3);
    await w.append([long(3)]);
    await w.close();
    await other.hfs.rm(path.join(other.dir, segmentName(3)));
    await other.hfs.fsyncDir(other.dir);
    const durable = await durableOf(other.hfs, other.dir);
    expect(durable).toEqual({ seq: 3, segmentStart: 3 });
    await expect(readJournal(other.hfs, other.dir, 0, { truncate: true, durable })).rejects.toMatchObject({ name: 'JournalLossError', journalEnd: 2 });
    // Every segment removed: a loss as well.
    await other.hfs.rm(path.join(other.dir, segmentName(1)));
    await expect(readJournal(other.hfs, other.dir, 0, { truncate: true, durable })).rejects.toMatchObject({ name: 'JournalLossError', journalEnd: 0 });
  });

  it('a torn tail after the recorded position is still dropped and truncated', async () => {
    const { hfs, dir } = makeDisk();
    const file = await acknowledged(hfs, dir, 3);
    const good = (await hfs.readFile(file)).length;
    await appendRaw(hfs, file, encodeRecord(long(4)).subarray(0, 30));
    const read = await readJournal(hfs, dir, 0, { truncate: true, durable: await durableOf(hfs, dir) });
    expect(read.lastSeq).toBe(3);
    expect(read.torn).toMatchObject({ offset: good, droppedBytes: 30 });
    expect((await hfs.readFile(file)).length).toBe(good);
  });

  it('survives a torn or damaged record of its own, reports a missing or damaged file, and is rewritten when large', async () => {
    const { hfs, dir } = makeDisk();
    await acknowledged(hfs, dir, 3);
    const pf = positionFile(dir);
    const before = await hfs.readFile(pf);
    // Opened at 0 (written twice), then 1, 2 and 3 appended.
    expect(before.length).toBe(5 * POSITION_RECORD_BYTES);
    await appendRaw(hfs, pf, encodePosition({ seq: 4, segmentStart: 1 }).subarray(0, 10)); // a torn update
    expect(await readDurablePosition(hfs, dir)).toEqual({ kind: 'ok', position: { seq: 3, segmentStart: 1 }, records: 5 });
    const flipped = Buffer.from(before);
    flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 1; // the newest record damaged: the one before it holds
    await overwrite(hfs, pf, flipped);
    expect(await readDurablePosition(hfs, dir)).toMatchObject({ kind: 'ok', position: { seq: 2 } });
    await overwrite(hfs, pf, Buffer.alloc(40, 0xab));
    expect(await readDurablePosition(hfs, dir)).toEqual({ kind: 'damaged', detail: '40 bytes without an intact position record' });
    await hfs.rm(pf);
    expect(await readDurablePosition(hfs, dir)).toEqual({ kind: 'missing' });
    expect((await verifyJournal(hfs, dir)).durable).toEqual({ kind: 'missing' });
    expect((await verifyJournal(hfs, dir)).corrupt).toBeUndefined();
  });

  it('a repair at the end accepts the loss and records the new end; a repair inside the journal lowers it too; a prune keeps it', async () => {
    const { hfs, dir } = makeDisk();
    const file = await acknowledged(hfs, dir, 6);
    const size = (await hfs.readFile(file)).length;
    await hfs.truncate(file, size - 20);
    const loss = (await verifyJournal(hfs, dir)).corrupt!;
    expect(loss).toBeInstanceOf(JournalLossError);
    const plan = await truncateJournalAt(hfs, dir, loss.file, loss.offset);
    expect(plan).toMatchObject({ keptLastSeq: 5, removed: [] });
    expect(await durableOf(hfs, dir)).toEqual({ seq: 5, segmentStart: 1 });
    expect((await verifyJournal(hfs, dir)).corrupt).toBeUndefined();
    const read = await readJournal(hfs, dir, 0, { truncate: true, durable: await durableOf(hfs, dir) });
    expect(read.lastSeq).toBe(5);

    await truncateJournalAt(hfs, dir, file, 2 * encodeRecord(long(1)).length);
    expect(await durableOf(hfs, dir)).toEqual({ seq: 2, segmentStart: 1 });
    const w = await JournalWriter.open(hfs, dir, 3);
    await w.append([long(3)]);
    await w.rotate(4);
    await w.append([long(4)]);
    await w.close();
    expect(await pruneSegments(hfs, dir, 3)).toBe(1);
    expect(await durableOf(hfs, dir)).toEqual({ seq: 4, segmentStart: 4 });
    const report = await verifyJournal(hfs, dir);
    expect(report.corrupt).toBeUndefined();
    expect(await readJournal(hfs, dir, 3, { truncate: true, durable: await durableOf(hfs, dir) })).toMatchObject({ lastSeq: 4 });
  });
});

describe('the recorded durable position on MemoryFs: updates and crashes', () => {
  const dir = '/data/journal';

  it('coalesces updates (at most one in flight, always the newest position) and rewrites the file when it is large', async () => {
    const mfs = new MemoryFs();
    const w = await JournalWriter.open(mfs, dir, 1, { positionIntervalMs: 0 });
    // Three batches appended back to back: the first update starts at once, the next two are coalesced into one.
    await Promise.all([w.append([rec(1)])]);
    await w.append([rec(2)]);
    await w.append([rec(3)]);
    await w.positionSettled();
    expect(w.recordedPosition).toEqual({ seq: 3, segmentStart: 1 });
    expect(w.positionUpdates).toBeLessThanOrEqual(3);
    const updates = Math.ceil(POSITION_FILE_MAX_BYTES / POSITION_RECORD_BYTES) + 5;
    for (let s = 4; s < 4 + updates; s++) {
      await w.append([rec(s)]);
      await w.positionSettled();
    }
    expect((await mfs.readFile(positionFile(dir))).length).toBeLessThan(POSITION_FILE_MAX_BYTES);
    expect(await durableOf(mfs, dir)).toEqual({ seq: 3 + updates, segmentStart: 1 });
    expect((await mfs.readdir(dir)).sort()).toEqual([POSITION_FILE, segmentName(1)]);
    await w.close();
  });

  it('a crash at any byte of an unsynced batch, with the position file torn at any byte, is never a loss', async () => {
    const base = new MemoryFs();
    const w = await JournalWriter.open(base, dir, 1);
    await w.append(recs(1, 10));
    await w.positionSettled();
    await w.append(recs(11, 12)); // acknowledged; its position update is in flight (unsynced) when the power goes
    const fh = await base.openAppend(path.join(dir, segmentName(1)));
    const batch = Buffer.concat(recs(13, 15).map(encodeRecord));
    await fh.write(batch);
    for (let tornAt = 0; tornAt <= batch.length; tornAt += 3) {
      for (let posAt = 0; posAt <= POSITION_RECORD_BYTES; posAt += 4) {
        const disk = base.crash({ data: (f) => (f.endsWith(POSITION_FILE) ? { tornAt: posAt } : { tornAt }), dirs: 'keep' });
        const durable = await durableOf(disk, dir);
        expect([10, 12]).toContain(durable.seq);
        const read = await readJournal(disk, dir, 0, { truncate: true, durable });
        expect(read.lastSeq).toBeGreaterThanOrEqual(12);
      }
    }
    await w.close();
  });

  it('a failed position update poisons the writer (the next append rejects; the records already synced stay)', async () => {
    const mfs = new MemoryFs();
    let failPosition = false;
    /** mfs, with the position file's fdatasync failing once `failPosition` is set. */
    const hfs: HostFs = {
      mkdirp: (d) => mfs.mkdirp(d),
      readdir: (d) => mfs.readdir(d),
      readFile: (f) => mfs.readFile(f),
      openAppend: async (f) => {
        const h = await mfs.openAppend(f);
        if (!f.endsWith(POSITION_FILE)) return h;
        return {
          write: (b) => h.write(b),
          close: () => h.close(),
          datasync: () => (failPosition ? Promise.reject(new Error('EIO: fdatasync')) : h.datasync()),
        };
      },
      openTruncate: (f) => mfs.openTruncate(f),
      truncate: (f, n) => mfs.truncate(f, n),
      rename: (a, b) => mfs.rename(a, b),
      rm: (f) => mfs.rm(f),
      fsyncDir: (d) => mfs.fsyncDir(d),
    };
    const w = await JournalWriter.open(hfs, dir, 1);
    await w.append([rec(1)]);
    await w.positionSettled();
    failPosition = true;
    await w.append([rec(2)]); // synced; the position update after it fails
    await expect(w.positionSettled()).rejects.toBeInstanceOf(JournalFailedError);
    expect(w.failed?.message).toContain(`journal position failed on ${positionFile(dir)}`);
    await expect(w.append([rec(3)])).rejects.toBe(w.failed);
    await w.close();
    expect((await readJournal(mfs.crash(), dir, 0, { truncate: true, durable: await durableOf(mfs.crash(), dir) })).lastSeq).toBe(2);
  });
});
