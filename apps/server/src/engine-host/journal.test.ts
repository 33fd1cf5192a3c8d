/**
 * Proves the journal's on-disk format and its crash handling without the engine: frames round-trip, a short
 * or bad-crc tail is detected and truncated (never returned), damage before the tail is refused, one append
 * is one fdatasync, segments rotate and prune, and snapshots are written atomically and read back checked.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeFrame, scanFrames } from './framing';
import { JournalWriter, listSegments, pruneSegments, readJournal, segmentName } from './journal';
import { listSnapshots, readSnapshot, writeSnapshot } from './snapshot-store';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const rec = (seq: number, text = `cmd-${seq}`) => ({ seq, body: Buffer.from(text) });

describe('framing', () => {
  it('round-trips payloads and stops at a torn or corrupt record', () => {
    const a = encodeFrame(Buffer.from('alpha'));
    const b = encodeFrame(Buffer.from('beta'));
    expect(a.readUInt32LE(0)).toBe(5);
    const whole = Buffer.concat([a, b]);
    const scan = scanFrames(whole);
    expect(scan.payloads.map((p) => p.toString())).toEqual(['alpha', 'beta']);
    expect(scan.validBytes).toBe(whole.length);
    expect(scan.torn).toBeUndefined();

    expect(scanFrames(whole.subarray(0, whole.length - 1)).torn).toEqual({ offset: a.length, reason: 'short_payload' });
    expect(scanFrames(whole.subarray(0, a.length + 3)).torn).toEqual({ offset: a.length, reason: 'short_header' });
    const flipped = Buffer.from(whole);
    flipped[whole.length - 1] = flipped[whole.length - 1]! ^ 0xff;
    const bad = scanFrames(flipped);
    expect(bad.payloads.map((p) => p.toString())).toEqual(['alpha']);
    expect(bad.torn).toEqual({ offset: a.length, reason: 'bad_crc' });
  });
});

describe('journal', () => {
  it('writes one batch with one fdatasync and reads records back after a sequence number', async () => {
    const w = await JournalWriter.open(dir, 1);
    await w.append([rec(1), rec(2), rec(3)]);
    await w.append([rec(4)]);
    expect(w.stats).toMatchObject({ fsyncs: 2, batches: 2, records: 4 });
    await w.close();
    const all = await readJournal(dir, 0, { truncate: false });
    expect(all.records.map((r) => [r.seq, Buffer.from(r.body).toString()])).toEqual([
      [1, 'cmd-1'],
      [2, 'cmd-2'],
      [3, 'cmd-3'],
      [4, 'cmd-4'],
    ]);
    expect(all.lastSeq).toBe(4);
    const after2 = await readJournal(dir, 2, { truncate: false });
    expect(after2.records.map((r) => r.seq)).toEqual([3, 4]);
  });

  it('drops and truncates a torn last record, then appends cleanly after it', async () => {
    const w = await JournalWriter.open(dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.close();
    const file = listSegments(dir)[0]!.file;
    const goodSize = fs.statSync(file).size;
    // A crash in the middle of writing record 3: header and half the payload.
    const rec3 = encodeFrame(Buffer.concat([Buffer.alloc(8), Buffer.from('cmd-3-long-payload')]));
    fs.appendFileSync(file, rec3.subarray(0, rec3.length - 5));
    const read = await readJournal(dir, 0, { truncate: true });
    expect(read.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(read.torn).toMatchObject({ offset: goodSize, droppedBytes: rec3.length - 5, reason: 'short_payload' });
    expect(fs.statSync(file).size).toBe(goodSize);

    const w2 = await JournalWriter.open(dir, 3);
    await w2.append([rec(3)]);
    await w2.close();
    expect((await readJournal(dir, 0, { truncate: true })).records.map((r) => r.seq)).toEqual([1, 2, 3]);
  });

  it('detects a bad crc in the last record', async () => {
    const w = await JournalWriter.open(dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.close();
    const file = listSegments(dir)[0]!.file;
    const buf = fs.readFileSync(file);
    buf[buf.length - 1] = buf[buf.length - 1]! ^ 0x01;
    fs.writeFileSync(file, buf);
    const read = await readJournal(dir, 0, { truncate: true });
    expect(read.records.map((r) => r.seq)).toEqual([1]);
    expect(read.torn?.reason).toBe('bad_crc');
  });

  it('refuses damage inside an older segment and gaps in sequence numbers', async () => {
    const w = await JournalWriter.open(dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.rotate(3);
    await w.append([rec(3)]);
    await w.close();
    const first = listSegments(dir)[0]!.file;
    const buf = fs.readFileSync(first);
    buf[buf.length - 1] = buf[buf.length - 1]! ^ 0x01;
    fs.writeFileSync(first, buf);
    await expect(readJournal(dir, 0, { truncate: true })).rejects.toThrow(/corrupt/);

    const dir2 = path.join(dir, 'gap');
    const g = await JournalWriter.open(dir2, 1);
    await g.append([rec(1), rec(3)]);
    await g.close();
    await expect(readJournal(dir2, 0, { truncate: false })).rejects.toThrow(/gap/);
  });

  it('rotates segments at snapshots and prunes the ones a snapshot covers', async () => {
    const w = await JournalWriter.open(dir, 1);
    await w.append([rec(1), rec(2)]);
    await w.rotate(3);
    await w.append([rec(3), rec(4)]);
    await w.rotate(5);
    await w.append([rec(5)]);
    await w.close();
    expect(listSegments(dir).map((s) => path.basename(s.file))).toEqual([segmentName(1), segmentName(3), segmentName(5)]);
    expect((await readJournal(dir, 3, { truncate: false })).records.map((r) => r.seq)).toEqual([4, 5]);
    expect(await pruneSegments(dir, 2)).toBe(1);
    expect(listSegments(dir).map((s) => s.start)).toEqual([3, 5]);
    expect((await readJournal(dir, 2, { truncate: false })).records.map((r) => r.seq)).toEqual([3, 4, 5]);
    await expect(readJournal(dir, 0, { truncate: false })).rejects.toThrow(/starts at 3/);
  });
});

describe('snapshot store', () => {
  it('writes atomically, keeps the newest two and rejects a damaged file', async () => {
    for (const seq of [10, 20, 30]) {
      await writeSnapshot(dir, { format: 1, seq, lastTs: seq * 1000, stateHash: `h${seq}`, engine: { version: 1, n: seq } });
    }
    const snaps = listSnapshots(dir);
    expect(snaps.map((s) => s.seq)).toEqual([30, 20]);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const s30 = await readSnapshot(snaps[0]!.file);
    expect(s30).toEqual({ format: 1, seq: 30, lastTs: 30000, stateHash: 'h30', engine: { version: 1, n: 30 } });
    const buf = fs.readFileSync(snaps[0]!.file);
    fs.writeFileSync(snaps[0]!.file, buf.subarray(0, buf.length - 2));
    await expect(readSnapshot(snaps[0]!.file)).rejects.toThrow(/damaged/);
  });
});
