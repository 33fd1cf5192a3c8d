/**
 * Proves the journal's retention (journal-retention.ts, JOURNAL_RETENTION) with the real engine host:
 * - archive (real disk): after snapshots every few commands, the segments the oldest kept snapshot covers are moved
 *   into the archive and the journal directory shrinks; a restart recovers the same state hash; a lost database
 *   (an empty store) is rebuilt from genesis through the archive to the same state and the same rows;
 * - delete (in-memory disk): the covered segments are removed, a restart recovers the same state hash, and a lost
 *   database is refused with a message saying that history was pruned by JOURNAL_RETENTION=delete and to restore the
 *   database from a backup;
 * - an archive move cut short by a power loss after any one of its steps never loses a segment: each one is in the
 *   journal, the archive or both, byte for byte, a lost database is still rebuilt to the same state, and the move run
 *   again completes it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { MarketConfig } from '@exchange/core';
import { createEngineHost, JournalMismatchError, type EngineHost } from './engine-host';
import { PROJECTIONS } from '../../main/domains';
import { MemoryProjectionStore } from '../db/projection-store';
import { listSegments } from './journal';
import { applyJournalRetention, archiveSegments, coveredSegments } from './journal-retention';
import { MemoryFs } from './memory-fs';
import type { HostFs } from './host-fs';
import { nodeFs } from './node-fs';
import type { JournalRetention } from '../config/env';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const MARKET: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 4,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 1n,
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};

interface HostOpts {
  dataDir: string;
  store: MemoryProjectionStore;
  retention: JournalRetention;
  snapshotEvery?: number;
  fs?: MemoryFs;
}

async function openHost(o: HostOpts): Promise<EngineHost> {
  let t = 1_800_000_000_000;
  return createEngineHost({
    projections: PROJECTIONS,
    config: { dataDir: o.dataDir, snapshotEvery: o.snapshotEvery ?? 10, journalRetention: o.retention },
    ...(o.fs ? { fs: o.fs } : {}),
    store: o.store,
    log,
    projectorFlushMs: 5,
    now: () => t++,
    newJournalId: () => 'retention-journal',
  });
}

/** Assets, the market, two funded users, then `rounds` of a resting sell, a crossing buy and a cancel. */
async function trade(host: EngineHost, rounds: number): Promise<void> {
  for (const code of ['USDT', 'BTC']) if (!host.engine.asset(code)) await host.submit({ type: 'addAsset', asset: { code, scale: 8 } });
  if (!host.engine.market(MARKET.symbol)) await host.submit({ type: 'addMarket', market: MARKET });
  for (let i = 0; i < rounds; i++) {
    await host.submit({ type: 'deposit', userId: '1', asset: 'BTC', account: 'SPOT', amount: 10n ** 8n, from: '@chain', ref: `b${i}` });
    await host.submit({ type: 'deposit', userId: '2', asset: 'USDT', account: 'SPOT', amount: 10n ** 12n, from: '@faucet', ref: `u${i}` });
    const order = { symbol: 'BTC/USDT', orderType: 'LIMIT', timeInForce: 'GTC', quantity: 100n } as const;
    await host.submit({ type: 'placeOrder', userId: '1', side: 'SELL', price: 100_000n + BigInt(i), ...order });
    const rest = await host.submit({ type: 'placeOrder', userId: '1', side: 'SELL', price: 200_000n, ...order });
    const r = await host.submit({ type: 'placeOrder', userId: '2', side: 'BUY', price: 150_000n, ...order });
    expect(r.code).toBe('ok');
    await host.submit({ type: 'cancelOrder', userId: '1', orderId: rest.order!.orderId });
  }
}

/** Every row of every table of `store`, by table name, sorted by key. */
function rows(store: MemoryProjectionStore): Record<string, Array<[string, unknown]>> {
  return Object.fromEntries(
    [...store.tables].filter(([, m]) => m.size > 0).map(([name, m]) => [name, [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]),
  );
}

/** Total bytes of the segment files of journal directory `dir`. */
async function segmentBytes(hfs: HostFs, dir: string): Promise<number> {
  let total = 0;
  for (const s of await listSegments(hfs, dir)) total += (await hfs.readFile(s.file)).length;
  return total;
}

describe('journal retention', () => {
  it('archive: covered segments move to the archive, the journal shrinks; a restart and a lost database recover the same state and rows', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'retention-'));
    const journal = path.join(dataDir, 'journal');
    const archive = path.join(dataDir, 'journal-archive');
    try {
      const store = new MemoryProjectionStore();
      const host1 = await openHost({ dataDir, store, retention: 'archive' });
      await trade(host1, 12);
      await host1.snapshotNow();
      await host1.projected();
      const hash = host1.engine.stateHash();
      const lastSeq = host1.stats.lastSeq;
      expect(host1.stats.snapshots).toBeGreaterThanOrEqual(5);
      const kept = await listSegments(nodeFs, journal);
      const archived = await listSegments(nodeFs, archive);
      expect(archived[0]!.start).toBe(1);
      expect(kept[0]!.start).toBeGreaterThan(1);
      expect(host1.stats.segmentsArchived).toBe(archived.length);
      // The archive and the journal hold the whole journal once, contiguously; the journal directory holds the rest.
      expect([...archived, ...kept].map((s) => s.start)).toEqual([...new Set([...archived, ...kept].map((s) => s.start))].sort((a, b) => a - b));
      const journalBytes = await segmentBytes(nodeFs, journal);
      const archiveBytes = await segmentBytes(nodeFs, archive);
      console.log(
        `retention archive: ${lastSeq} commands, journal ${journalBytes + archiveBytes} bytes -> ${journalBytes} bytes in journal/ (${kept.length} segments), ${archiveBytes} bytes in the archive (${archived.length} segments)`,
      );
      expect(journalBytes).toBeLessThan((journalBytes + archiveBytes) / 3);
      const rows1 = rows(store);

      // A restart (crash, no close) on the same database: the newest snapshot not ahead of its cursor + the journal.
      const host2 = await openHost({ dataDir, store, retention: 'archive' });
      expect(host2.recovery.snapshotSeq).toBeGreaterThan(0);
      expect(host2.recovery.lastSeq).toBe(lastSeq);
      expect(host2.engine.stateHash()).toBe(hash);
      await host2.close();

      // A lost database: rebuilt from genesis, the archive first, then the journal: the same state and rows.
      const fresh = new MemoryProjectionStore();
      const host3 = await openHost({ dataDir, store: fresh, retention: 'archive' });
      expect(host3.recovery).toMatchObject({ snapshotSeq: 0, replayed: lastSeq, lastSeq });
      expect(host3.engine.stateHash()).toBe(hash);
      await host3.projected();
      expect(fresh.cursor).toBe(lastSeq);
      expect(rows(fresh)).toEqual(rows1);
      await host3.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('delete: covered segments are removed; a restart recovers; a lost database is refused, saying history was pruned', async () => {
    const mfs = new MemoryFs();
    const store = new MemoryProjectionStore();
    const host1 = await openHost({ dataDir: '/data', store, retention: 'delete', fs: mfs });
    await trade(host1, 12);
    await host1.snapshotNow();
    await host1.projected();
    const hash = host1.engine.stateHash();
    const segments = await listSegments(mfs, '/data/journal');
    expect(segments[0]!.start).toBeGreaterThan(1);
    expect(host1.stats.segmentsDeleted).toBeGreaterThan(0);
    expect(await mfs.readdir('/data/journal-archive')).toEqual([]);
    await host1.close();

    const host2 = await openHost({ dataDir: '/data', store, retention: 'delete', fs: mfs });
    expect(host2.recovery.snapshotSeq).toBeGreaterThan(0);
    expect(host2.engine.stateHash()).toBe(hash);
    await host2.close();

    const err = await openHost({ dataDir: '/data', store: new MemoryProjectionStore(), retention: 'delete', fs: mfs }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalMismatchError);
    expect((err as Error).message).toMatch(/history was pruned by JOURNAL_RETENTION=delete/);
    expect((err as Error).message).toMatch(/Restore the database from a backup/);
  });

  it('an archive move cut short by a power loss after any step never loses a segment; run again, it completes', async () => {
    const mfs = new MemoryFs();
    const host = await openHost({ dataDir: '/data', store: new MemoryProjectionStore(), retention: 'keep', fs: mfs });
    await trade(host, 6);
    await host.snapshotNow();
    const hash = host.engine.stateHash();
    const coveredSeq = host.stats.lastSeq;
    await host.close();
    const journal = '/data/journal';
    const archive = '/data/journal-archive';
    const covered = await coveredSegments(mfs, journal, coveredSeq);
    expect(covered.length).toBeGreaterThanOrEqual(3);
    const original = new Map<string, Buffer>();
    for (const s of covered) original.set(path.basename(s.file), Buffer.from(await mfs.readFile(s.file)));

    // Count the mutating steps of a whole move, then cut the power after each one in turn.
    let steps = 0;
    await archiveSegments(
      counting(mfs.clone(), () => steps++),
      journal,
      archive,
      covered,
    );
    expect(steps).toBeGreaterThan(covered.length * 4);
    for (let cut = 0; cut <= steps; cut++) {
      const disk = mfs.clone();
      let n = 0;
      const crashing = counting(disk, () => {
        if (n++ === cut) throw new Error('power lost');
      });
      await archiveSegments(crashing, journal, archive, covered).catch(() => undefined);
      for (const fates of [
        { dirs: 'drop', data: 'drop' },
        { dirs: 'keep', data: 'keep' },
      ] as const) {
        const after = disk.crash(fates);
        for (const [name, bytes] of original) {
          const inJournal = (await after.readdir(journal)).includes(name);
          const inArchive = (await after.readdir(archive)).includes(name);
          expect(inJournal || inArchive, `${name} after step ${cut} (${fates.dirs})`).toBe(true);
          if (inJournal) expect((await after.readFile(path.join(journal, name))).equals(bytes)).toBe(true);
          if (inArchive) expect((await after.readFile(path.join(archive, name))).equals(bytes)).toBe(true);
        }
        // A lost database is rebuilt from genesis through whatever the archive holds, to the same state.
        const rebuilt = await openHost({ dataDir: '/data', store: new MemoryProjectionStore(), retention: 'keep', fs: after, snapshotEvery: 0 });
        expect(rebuilt.recovery.snapshotSeq).toBe(0);
        expect(rebuilt.engine.stateHash()).toBe(hash);
        await rebuilt.close();
        // Run again, the move completes: each covered segment is in the archive only.
        await applyJournalRetention(after, journal, 'archive', archive, coveredSeq);
        for (const name of original.keys()) {
          expect((await after.readdir(journal)).includes(name)).toBe(false);
          expect((await after.readdir(archive)).includes(name)).toBe(true);
        }
      }
    }
  });
});

/** `hfs` with `step` called before each operation that changes the disk (a throw there cuts the move short). */
function counting(hfs: MemoryFs, step: () => void): HostFs {
  const wrapHandle = (fh: Awaited<ReturnType<HostFs['openAppend']>>) => ({
    write: async (buf: Uint8Array) => (step(), fh.write(buf)),
    datasync: async () => (step(), fh.datasync()),
    close: () => fh.close(),
  });
  return {
    mkdirp: async (d) => (step(), hfs.mkdirp(d)),
    readdir: (d) => hfs.readdir(d),
    readFile: (f) => hfs.readFile(f),
    openAppend: async (f) => (step(), wrapHandle(await hfs.openAppend(f))),
    openTruncate: async (f) => (step(), wrapHandle(await hfs.openTruncate(f))),
    truncate: async (f, n) => (step(), hfs.truncate(f, n)),
    rename: async (a, b) => (step(), hfs.rename(a, b)),
    rm: async (f) => (step(), hfs.rm(f)),
    fsyncDir: async (d) => (step(), hfs.fsyncDir(d)),
  };
}
