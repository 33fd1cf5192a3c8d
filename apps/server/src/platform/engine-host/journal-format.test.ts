/**
 * Proves that the binary journal record format (codec.ts encodeCommand) and the JSON one before it live in one
 * journal, on an in-memory disk (MemoryFs) and projection (MemoryProjectionStore):
 * - a data directory written before the binary format (every record JSON text) recovers to the same state hash;
 * - new commands are appended to it in the binary format, and a crash plus recovery of the mixed journal from
 *   genesis gives the live state hash again;
 * - a torn binary record at the end of the journal is dropped, a binary record with a bad checksum in the
 *   middle stops recovery with JournalCorruptError (checksums and torn-tail detection as for JSON records).
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { BINARY_COMMAND_V1, decodeCommand, serializeCommand } from '@exchange/core';
import { createEngineHost, type EngineHost } from './engine-host';
import { PROJECTIONS } from '../../main/domains';
import { encodeRecord, listSegments, readJournal } from './journal';
import { writeDurablePosition } from './durable-position';
import { MemoryFs } from './memory-fs';
import { MemoryProjectionStore } from '../db/projection-store';
import { listSnapshots } from './snapshot-store';
import { ensureMarket } from './test-fixtures';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const JOURNAL = '/data/journal';
let clock = 1_800_000_000_000;
function openHost(fs: MemoryFs, store: MemoryProjectionStore): Promise<EngineHost> {
  return createEngineHost({
    projections: PROJECTIONS,
    config: { dataDir: '/data', snapshotEvery: 0 },
    fs,
    store,
    log,
    now: () => clock++,
    newJournalId: () => 'format-journal',
  });
}

/** Deposits for two users, resting and crossing orders (limit, market by quote amount), a cancel by client id. */
async function trade(host: EngineHost, round: number): Promise<void> {
  const ok = async (p: Promise<{ code: string }>) => expect((await p).code).toBe('ok');
  await ok(host.submit({ type: 'deposit', userId: 'a', asset: 'USDT', account: 'SPOT', amount: 10n ** 20n, from: '@faucet', ref: `a${round}` }));
  await ok(host.submit({ type: 'deposit', userId: 'b', asset: 'BTC', account: 'SPOT', amount: 10n ** 12n, from: '@chain', ref: `b${round}` }));
  await ok(
    host.submit({
      type: 'placeOrder',
      userId: 'a',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 100_000n + BigInt(round),
      quantity: 30_000n,
      clientOrderId: `r${round}`,
    }),
  );
  await ok(
    host.submit({
      type: 'placeOrder',
      userId: 'b',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: 90_000n,
      quantity: 10_000n,
    }),
  );
  await ok(
    host.submit({
      type: 'placeOrder',
      userId: 'b',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 100_050n + BigInt(round),
      quantity: 20_000n,
    }),
  );
  await ok(
    host.submit({ type: 'placeOrder', userId: 'a', symbol: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quoteAmount: 500_000_000n }),
  );
  await ok(host.submit({ type: 'cancelOrder', userId: 'a', clientOrderId: `r${round}` }));
}

/** The data directory as the JSON-only version wrote it: every record's body rewritten as serializeCommand's text. */
async function toLegacyJson(fs: MemoryFs): Promise<void> {
  for (const seg of await listSegments(fs, JOURNAL)) {
    const read = await readJournal(fs, JOURNAL, seg.start - 1, { truncate: false });
    const records = read.records.filter((r) => r.seq >= seg.start);
    const fh = await fs.openTruncate(seg.file);
    await fh.write(Buffer.concat(records.map((r) => encodeRecord({ seq: r.seq, body: Buffer.from(serializeCommand(decodeCommand(r.body)), 'utf8') }))));
    await fh.datasync();
    await fh.close();
  }
}

/** First byte of every record body in the journal, in order ('{' = JSON text, 1 = binary v1). */
async function formats(fs: MemoryFs): Promise<number[]> {
  return (await readJournal(fs, JOURNAL, 0, { truncate: false })).records.map((r) => r.body[0]!);
}

describe('journal record format', () => {
  it('recovers a JSON-only journal, appends binary records to it, and recovers the mixed journal', async () => {
    const fs = new MemoryFs();
    const store = new MemoryProjectionStore();
    const host = await openHost(fs, store);
    await ensureMarket(host);
    for (let i = 0; i < 5; i++) await trade(host, i);
    const liveHash = host.engine.stateHash();
    const n = host.stats.lastSeq;
    await host.projected();
    expect(new Set(await formats(fs))).toEqual(new Set([BINARY_COMMAND_V1]));

    // An older version's data directory: the same journal in JSON text (crash: no final snapshot).
    const legacy = fs.crash({ data: 'keep', dirs: 'keep' });
    await toLegacyJson(legacy);
    expect(new Set(await formats(legacy))).toEqual(new Set(['{'.charCodeAt(0)]));
    const host2 = await openHost(legacy, store.clone());
    expect(host2.recovery.replayed).toBe(n);
    expect(host2.engine.stateHash()).toBe(liveHash);
    for (let i = 5; i < 8; i++) await trade(host2, i);
    const liveHash2 = host2.engine.stateHash();
    const n2 = host2.stats.lastSeq;
    await host2.projected();

    // New records follow the JSON ones in the binary format.
    const mixed = legacy.crash({ data: 'keep', dirs: 'keep' });
    const f = await formats(mixed);
    expect(f).toEqual([...Array<number>(n).fill('{'.charCodeAt(0)), ...Array<number>(n2 - n).fill(BINARY_COMMAND_V1)]);
    // Without the snapshot taken after the first recovery, the whole mixed journal is replayed from genesis.
    for (const snap of await listSnapshots(mixed, '/data/snapshots')) await mixed.rm(snap.file);
    const host3 = await openHost(mixed, store.clone());
    expect(host3.recovery).toMatchObject({ snapshotSeq: 0, replayed: n2 });
    expect(host3.engine.stateHash()).toBe(liveHash2);
    expect(host3.engine.balance('a', 'SPOT', 'USDT')).toEqual(host2.engine.balance('a', 'SPOT', 'USDT'));
    await host3.close();
  });

  it('drops a torn binary record at the end and refuses a damaged one in the middle', async () => {
    const fs = new MemoryFs();
    const store = new MemoryProjectionStore();
    const host = await openHost(fs, store);
    await ensureMarket(host);
    await trade(host, 0);
    const hashBeforeLast = host.engine.stateHash();
    const lastSeq = host.stats.lastSeq;
    await host.submit({ type: 'deposit', userId: 'c', asset: 'USDT', account: 'SPOT', amount: 77n, from: '@faucet' });
    await host.projected();
    const [seg] = await listSegments(fs, JOURNAL);
    const bytes = await fs.readFile(seg!.file);

    // Torn: the last record cut in the middle of its payload (what a crash mid-append leaves: that record was never
    // synced nor acknowledged, so the recorded durable position is still the one before it).
    const torn = fs.crash({ data: 'keep', dirs: 'keep' });
    await torn.truncate(seg!.file, bytes.length - 5);
    await writeDurablePosition(torn, JOURNAL, { seq: lastSeq, segmentStart: seg!.start });
    const storeTorn = new MemoryProjectionStore();
    const host2 = await openHost(torn, storeTorn);
    expect(host2.recovery.torn).toMatchObject({ reason: 'short_payload' });
    expect(host2.recovery.lastSeq).toBe(lastSeq);
    expect(host2.engine.stateHash()).toBe(hashBeforeLast);
    await host2.close();

    // Damaged: one byte of the second record's binary body flipped; records after it are intact.
    const damaged = fs.crash({ data: 'keep', dirs: 'keep' });
    const read = await readJournal(damaged, JOURNAL, 0, { truncate: false });
    const second = read.runs[0]!.scan;
    const at = second.bodyStart(1) + 1;
    const copy = Buffer.from(bytes);
    copy[at] = copy[at]! ^ 0xff;
    const fh = await damaged.openTruncate(seg!.file);
    await fh.write(copy);
    await fh.datasync();
    await fh.close();
    await expect(openHost(damaged, new MemoryProjectionStore())).rejects.toMatchObject({
      name: 'JournalCorruptError',
      offset: second.offsets[1],
      reason: 'bad_crc',
    });
  });
});
