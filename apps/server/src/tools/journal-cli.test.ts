/**
 * Proves the operator's journal CLI on a real temporary data directory, by calling its `main` (no child
 * process): verify reports each segment and exits 0 for a usable journal (torn tail included) and 2 for a
 * corrupt one; repair without --truncate-at changes nothing, says what it would discard and exits 1; with it,
 * it cuts the segment, removes the later ones, reports the discarded records and leaves a usable journal. A journal
 * whose older segments were archived or deleted says whether its archive holds them from seq 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeRecord, JournalWriter, readJournal, segmentName, type JournalRecord } from '../platform/engine-host/journal';
import { nodeFs } from '../platform/engine-host/node-fs';
import { POSITION_FILE, readDurablePosition } from '../platform/engine-host/durable-position';
import { writeSnapshot } from '../platform/engine-host/snapshot-store';
import { main } from './journal-cli';

const rec = (seq: number): JournalRecord => ({ seq, body: Buffer.from(`cmd-${seq}`) });
const recs = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => rec(from + i));
const offsetOf = (seq: number) => recs(1, seq - 1).reduce((n, r) => n + encodeRecord(r).length, 0);

let dataDir: string;
let journalDir: string;
let seg1: string;
let seg21: string;
beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-cli-'));
  journalDir = path.join(dataDir, 'journal');
  const w = await JournalWriter.open(nodeFs, journalDir, 1);
  await w.append(recs(1, 20));
  await w.rotate(21);
  await w.append(recs(21, 25));
  await w.close();
  seg1 = path.join(journalDir, segmentName(1));
  seg21 = path.join(journalDir, segmentName(21));
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs the CLI and returns its exit code and output lines. */
async function run(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l), defaultDataDir: () => dataDir });
  return { code, out, err };
}

/** Flips one bit in the command body of record 6 (a complete, acknowledged record in the older segment). */
function corruptRecord6(): void {
  const buf = fs.readFileSync(seg1);
  buf[offsetOf(6) + 17] = buf[offsetOf(6) + 17]! ^ 0x02;
  fs.writeFileSync(seg1, buf);
}

describe('journal CLI', () => {
  it('verify: OK segments and a torn tail are usable (exit 0)', async () => {
    fs.appendFileSync(seg21, Buffer.alloc(100));
    const seg21Bytes = fs.statSync(seg21).size;
    const r = await run('verify', `--data-dir=${dataDir}`);
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    expect(r.out).toEqual([
      `journal ${journalDir}: 2 segment(s)`,
      `  ${segmentName(1)}  20 records  seq 1..20  ${offsetOf(21)} bytes  OK`,
      `  ${segmentName(21)}  5 records  seq 21..25  ${seg21Bytes} bytes  torn tail at byte ${seg21Bytes - 100} (zero_tail): 100 bytes would be dropped at the next start (never acknowledged)`,
      `  ${POSITION_FILE}: durable up to seq 25`,
      'result: usable',
    ]);
    expect(fs.statSync(seg21).size).toBe(seg21Bytes);
  });

  it('verify: a flipped bit in an acknowledged record is CORRUPT at its offset (exit 2)', async () => {
    corruptRecord6();
    const r = await run('verify');
    expect(r.code).toBe(2);
    expect(r.out[1]).toBe(
      `  ${segmentName(1)}  5 records  seq 1..5  ${offsetOf(21)} bytes  CORRUPT at byte ${offsetOf(6)} (bad_crc): the checksum of a complete 13-byte record does not match`,
    );
    expect(r.out.at(-1)).toContain(`result: CORRUPT. journal corrupt: ${seg1} at byte ${offsetOf(6)}`);
    expect(r.out.at(-1)).toContain(`npm run journal -- repair --truncate-at ${segmentName(1)}:${offsetOf(6)} --data-dir ${dataDir}`);
  });

  it('repair without --truncate-at changes nothing, says what it would discard and exits 1', async () => {
    corruptRecord6();
    await writeSnapshot(nodeFs, path.join(dataDir, 'snapshots'), { format: 1, seq: 10, lastTs: 1, stateHash: 'h', engine: {} });
    const before = [fs.readFileSync(seg1), fs.readFileSync(seg21)];
    const r = await run('repair');
    expect(r.code).toBe(1);
    expect(r.out).toContain(`repair would cut the journal at ${segmentName(1)}:${offsetOf(6)}:`);
    expect(r.out).toContain(`would truncate ${segmentName(1)} from ${offsetOf(21)} to ${offsetOf(6)} bytes`);
    expect(r.out).toContain(`would remove ${segmentName(21)}`);
    // Record 6 cannot be read (13-byte payload + 8-byte header); 7..25 can.
    expect(r.out).toContain('would discard 19 readable record(s) (seq 7..25) and 21 unreadable bytes; the journal would end at seq 5.');
    expect(r.out.some((l) => l.startsWith('WARNING: ') && l.includes('snapshot-00000000000000000010.snap (seq 10)'))).toBe(true);
    expect(r.out.at(-1)).toBe(`  npm run journal -- repair --truncate-at ${segmentName(1)}:${offsetOf(6)} --data-dir ${dataDir}`);
    expect([fs.readFileSync(seg1), fs.readFileSync(seg21)]).toEqual(before);
  });

  it('repair --truncate-at cuts there, removes later segments, reports the loss and leaves a usable journal', async () => {
    corruptRecord6();
    const r = await run('repair', '--truncate-at', `${segmentName(1)}:${offsetOf(6)}`, '--data-dir', dataDir);
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out.slice(0, 4)).toEqual([
      `repaired journal ${journalDir}:`,
      `truncate ${segmentName(1)} from ${offsetOf(21)} to ${offsetOf(6)} bytes`,
      `remove ${segmentName(21)}`,
      'discarded 19 readable record(s) (seq 7..25) and 21 unreadable bytes; the journal now ends at seq 5.',
    ]);
    expect(r.out.at(-1)).toBe('result: usable');
    expect(fs.readdirSync(journalDir)).toEqual([POSITION_FILE, segmentName(1)]);
    expect(fs.statSync(seg1).size).toBe(offsetOf(6));
    const read = await readJournal(nodeFs, journalDir, 0, { truncate: false });
    expect(read.records.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5]);
  });

  it('repair refuses a cut that is not a record boundary, and usage errors exit 1', async () => {
    const r = await run('repair', '--truncate-at', `${segmentName(1)}:${offsetOf(6) + 3}`);
    expect(r.code).toBe(1);
    expect(r.err[0]).toMatch(/is not a record boundary of segment-0+1\.log; valid cut points: 0, 21, 42/);
    expect(fs.statSync(seg1).size).toBe(offsetOf(21));
    expect((await run('repair', '--truncate-at', 'segment-x.log:0')).err[0]).toContain('is not a segment of');
    expect((await run('repair', '--truncate-at', 'no-offset')).code).toBe(1);
    expect((await run()).code).toBe(1);
    expect((await run('fix')).err[0]).toContain('usage: npm run journal -- verify');
    expect((await run('verify', '--bogus')).err[0]).toContain('unknown option --bogus');
    expect((await run('verify', '--truncate-at', 'a:1')).code).toBe(1);
    expect((await run('repair')).out.at(-1)).toContain('nothing to repair');
    expect((await run('repair')).code).toBe(1);
  });

  it('verify on a data directory without a journal reports no segments (exit 0)', async () => {
    const empty = path.join(dataDir, 'empty');
    const r = await run('verify', '--data-dir', empty);
    expect(r.code).toBe(0);
    expect(r.out).toEqual([
      `journal ${path.join(empty, 'journal')}: 0 segment(s)`,
      `  ${POSITION_FILE}: missing (a journal written before it was kept): a short end is taken as a torn write`,
      'result: usable',
    ]);
  });

  it('a journal cut short before its recorded durable position is a LOSS (exit 2); repair at its end accepts it and the journal is usable', async () => {
    const size = fs.statSync(seg21).size;
    fs.truncateSync(seg21, size - 5); // inside record 25, which was synced (and would have been acknowledged)
    const end = size - encodeRecord(rec(25)).length;
    const v = await run('verify');
    expect(v.code).toBe(2);
    expect(v.out).toContain(`  ${POSITION_FILE}: durable up to seq 25: LOSS, the journal ends at seq 24`);
    expect(v.out.some((l) => l.includes('cut short BEFORE the recorded durable position, not a torn write'))).toBe(true);
    expect(v.out.at(-1)).toContain('result: CORRUPT. journal lost acknowledged records');
    const dry = await run('repair');
    expect(dry.code).toBe(1);
    expect(dry.out).toContain(
      'Acknowledged commands seq 25..25 are lost: restore the journal from a backup instead if you can. To accept the loss (the recorded durable position comes down to seq 24), run:',
    );
    expect(dry.out.at(-1)).toBe(`  npm run journal -- repair --truncate-at ${segmentName(21)}:${end} --data-dir ${dataDir}`);
    expect(fs.statSync(seg21).size).toBe(size - 5);
    const r = await run('repair', '--truncate-at', `${segmentName(21)}:${end}`);
    expect(r.code).toBe(0);
    expect(r.out.at(-1)).toBe('result: usable');
    expect(await readDurablePosition(nodeFs, journalDir)).toMatchObject({ kind: 'ok', position: { seq: 24 } });
  });

  it('verify of a journal whose older segments were archived or deleted (JOURNAL_RETENTION) says whether a lost database can be rebuilt', async () => {
    const archiveDir = path.join(dataDir, 'journal-archive');
    fs.mkdirSync(archiveDir);
    fs.renameSync(seg1, path.join(archiveDir, segmentName(1)));
    const archived = await run('verify');
    expect(archived.code).toBe(0);
    expect(archived.out.slice(-3)).toEqual([
      `  (the journal starts at seq 21: older segments were pruned; recovery needs a snapshot at seq 20 or later)`,
      `  (the archive ${archiveDir} holds 1 older segment(s) from seq 1: a lost database is rebuilt from it, then the journal)`,
      'result: usable',
    ]);
    fs.rmSync(archiveDir, { recursive: true });
    const deleted = await run('verify');
    expect(deleted.code).toBe(0);
    expect(deleted.out.at(-2)).toBe(`  (no archive from seq 1 in ${archiveDir}: a lost database cannot be rebuilt from the journal; restore it from a backup)`);
  });
});
