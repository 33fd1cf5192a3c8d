/**
 * Proves the engine host's answers to faults while it runs, on an in-memory disk
 * (MemoryFs) and projection (MemoryProjectionStore):
 * - a failed fdatasync is fatal: its batch is answered outcome_unknown (not "failed": the bytes may be on disk),
 *   commands still queued service_unavailable and never written, readiness false, onFatal called once, nothing
 *   more accepted; after a restart the journal decides (kept bytes: the order exists; dropped: it does not);
 * - an engine exception mid-command is answered internal_error and leaves no trace: the state equals the state
 *   before it, its events are never published, the next commands work, and a restart replays to the same state;
 * - while the database is down the projector's backlog is bounded: past the limit commands are refused with
 *   service_unavailable (nothing written) and readiness is false, and once the database is back it drains;
 * - acknowledged records lost from the journal (20 bytes cut inside the last one or an earlier one, the last
 *   segment removed) stop the start with JournalLossError and nothing is truncated, with no database cursor ahead
 *   to notice; a batch torn by a crash before it was acknowledged is still dropped; a journal without its position
 *   file (written before it existed) starts as before, with a warning.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { decodeCommand, Engine, type Command, type MarketConfig } from '@exchange/core';
import { AppError } from '../shared/errors';
import { createEngineHost, type EngineHost } from './engine-host';
import { PROJECTIONS } from '../../main/domains';
import { SPOT_ORDERS_TABLE } from '../../domains/spot/spot.projection';
import { JournalLossError, listSegments, readJournal } from './journal';
import { POSITION_FILE } from './durable-position';
import { MemoryFs } from './memory-fs';
import { MemoryProjectionStore } from '../db/projection-store';

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

async function openHost(fs: MemoryFs, store: MemoryProjectionStore, extra: Partial<Parameters<typeof createEngineHost>[0]> = {}): Promise<EngineHost> {
  let t = 1_800_000_000_000;
  return createEngineHost({
    projections: PROJECTIONS,
    config: { dataDir: '/data', snapshotEvery: 0 },
    fs,
    store,
    log,
    now: () => t++,
    newJournalId: () => 'test-journal',
    ...extra,
  });
}

async function setup(host: EngineHost): Promise<void> {
  await host.submit({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  await host.submit({ type: 'addAsset', asset: { code: 'BTC', scale: 8 } });
  await host.submit({ type: 'addMarket', market: MARKET });
  await host.submit({ type: 'deposit', userId: '1', asset: 'USDT', account: 'SPOT', amount: 1_000_000n * 100_000_000n, from: '@faucet', ref: 'f1' });
}

const buy = (cid: string) =>
  ({
    type: 'placeOrder',
    userId: '1',
    symbol: 'BTC/USDT',
    side: 'BUY',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price: 100_000n,
    quantity: 10n,
    clientOrderId: cid,
  }) as const;

/** Waits until the host's durable position is recorded up to its last command (updates are spaced a few ms apart). */
async function settle(host: EngineHost): Promise<void> {
  for (let i = 0; i < 2000 && (host.stats.recordedSeq ?? 0) < host.stats.lastSeq; i++) await new Promise((resolve) => setTimeout(resolve, 1));
}

/** A host with `n` acknowledged orders after the setup, its position recorded; returns the disk after a power loss. */
async function acknowledged(n: number, opts: { snapshotAfter?: number } = {}): Promise<{ image: MemoryFs; lastSeq: number }> {
  const fs = new MemoryFs();
  const host = await openHost(fs, new MemoryProjectionStore());
  await setup(host);
  for (let i = 0; i < n; i++) {
    if (i === opts.snapshotAfter) await host.snapshotNow();
    await host.submit(buy(`ack-${i}`));
  }
  await settle(host);
  expect(host.stats.recordedSeq).toBe(host.stats.lastSeq);
  return { image: fs.crash({ data: 'keep', dirs: 'keep' }), lastSeq: host.stats.lastSeq };
}

function codeOf(err: unknown): string {
  return err instanceof AppError ? err.code : String(err);
}

describe('engine host faults', () => {
  it('a failed fdatasync is fatal: outcome_unknown for its batch, nothing more taken, the journal decides on restart', async () => {
    for (const fate of ['keep', 'drop'] as const) {
      const fs = new MemoryFs();
      const store = new MemoryProjectionStore();
      let fatal = 0;
      const host = await openHost(fs, store, { onFatal: () => fatal++ });
      await setup(host);
      fs.failNextDatasync();
      // One batch in flight (a), then two queued behind it (b, c) while its fdatasync fails.
      const a = host.submit(buy('a')).then(() => 'ok', codeOf);
      await Promise.resolve();
      const b = host.submit(buy('b')).then(() => 'ok', codeOf);
      const c = host.submit(buy('c')).then(() => 'ok', codeOf);
      expect(await a).toBe('outcome_unknown');
      expect(await b).toBe('service_unavailable');
      expect(await c).toBe('service_unavailable');
      expect(fatal).toBe(1);
      expect(host.ready).toBe(false);
      expect(host.failure).not.toBeNull();
      expect(await host.submit(buy('d')).then(() => 'ok', codeOf)).toBe('service_unavailable');

      // Power loss; the unsynced batch is either on disk or not. b, c, d are never in the journal.
      const image = fs.crash({ data: fate, dirs: 'keep' });
      const host2 = await openHost(image, store.clone());
      const cids = host2.engine.openOrders('1').map((o) => o.clientOrderId);
      expect(cids).toEqual(fate === 'keep' ? ['a'] : []);
      const held = host2.engine.balance('1', 'SPOT', 'USDT').frozen;
      expect(held).toBe(fate === 'keep' ? 100_000n * 10n * 100n : 0n);
      await host2.close();
    }
  });

  it('an engine exception mid-command leaves no trace: same state, no events, the next commands work, replay agrees', async () => {
    const fs = new MemoryFs();
    const store = new MemoryProjectionStore();
    /** Applies the command, half-changes nothing visible... then throws: a bug in the middle of a command. */
    const buggy = (e: Engine, cmd: Command) => {
      const r = e.execute(cmd);
      if (cmd.type === 'placeOrder' && cmd.clientOrderId === 'boom') throw new Error('engine bug after applying half a command');
      return r;
    };
    const host = await openHost(fs, store, { execute: buggy });
    await setup(host);
    await host.submit(buy('before'));
    const hash = host.engine.stateHash();
    const seen: string[] = [];
    host.onEvents((events) => {
      for (const e of events) if (e.type === 'orderAccepted') seen.push(e.order.clientOrderId ?? '');
    });
    expect(await host.submit(buy('boom')).then(() => 'ok', codeOf)).toBe('internal_error');
    expect(host.engine.stateHash()).toBe(hash);
    expect(host.engine.openOrders('1').map((o) => o.clientOrderId)).toEqual(['before']);
    expect(seen).toEqual([]);
    const after = await host.submit(buy('after'));
    expect(after.code).toBe('ok');
    expect(after.order!.orderId).toBe('2'); // the order id of "boom" was never used
    expect(seen).toEqual(['after']);
    const live = host.engine.stateHash();
    await host.projected();
    expect([...store.rows<NonNullable<typeof SPOT_ORDERS_TABLE.row>>(SPOT_ORDERS_TABLE.rule.table).values()].map((o) => o.clientOrderId).sort()).toEqual([
      'after',
      'before',
    ]);
    // The command is in the journal (it was acknowledged as written); a restart skips it the same way.
    const records = (await readJournal(fs, '/data/journal', 0, { truncate: false })).records;
    const boom = records.map((r) => decodeCommand(r.body)).filter((c) => c.type === 'placeOrder' && c.clientOrderId === 'boom');
    expect(boom).toHaveLength(1);
    const host2 = await openHost(fs.crash({ data: 'keep', dirs: 'keep' }), store.clone(), { execute: buggy });
    expect(host2.recovery.skipped).toHaveLength(1);
    expect(host2.engine.stateHash()).toBe(live);
    await host2.close();
  });

  it('bounds the projection backlog while the database is down, then drains', async () => {
    const fs = new MemoryFs();
    const store = new MemoryProjectionStore();
    const host = await openHost(fs, store, { maxProjectionBacklog: 50, projectorFlushMs: 5 });
    await setup(host);
    await host.projected();
    store.failWrites = true;
    let refused = 0;
    for (let i = 0; i < 180; i++) {
      const r = await host.submit(buy(`r${i}`)).then(() => 'ok', codeOf);
      if (r === 'service_unavailable') refused++;
    }
    expect(refused).toBeGreaterThan(100);
    expect(refused).toBeLessThan(180);
    expect(host.stats.projectionBacklog).toBeLessThanOrEqual(52);
    expect(host.ready).toBe(false);
    // Refused orders were never written: only the accepted ones exist.
    expect(host.engine.openOrders('1')).toHaveLength(180 - refused);
    store.failWrites = false;
    await host.projected();
    expect(host.ready).toBe(true);
    expect(store.cursor).toBe(host.stats.lastSeq);
    expect((await host.submit({ type: 'deposit', userId: '2', asset: 'USDT', account: 'SPOT', amount: 1n, from: '@faucet', ref: 'late' })).code).toBe('ok');
    await host.close();
  });

  describe('acknowledged records lost from the journal are refused as a loss, not dropped as a torn write', () => {
    const dir = '/data/journal';

    it('20 bytes cut inside the last acknowledged record', async () => {
      const { image, lastSeq } = await acknowledged(5);
      const seg = (await listSegments(image, dir)).at(-1)!;
      const size = (await image.readFile(seg.file)).length;
      await image.truncate(seg.file, size - 20);
      // A new database (cursor 0): nothing ahead of the journal would notice the loss.
      const err = await openHost(image, new MemoryProjectionStore()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(JournalLossError);
      const loss = err as JournalLossError;
      expect({ journalEnd: loss.journalEnd, durable: loss.durable.seq, reason: loss.reason }).toEqual({
        journalEnd: lastSeq - 1,
        durable: lastSeq,
        reason: 'acknowledged_lost',
      });
      expect(loss.message).toContain('not a torn write');
      expect(loss.message).toContain('Restore the journal directory from a backup');
      expect(loss.message).toContain(`npm run journal -- repair --truncate-at ${seg.file.split('/').pop()}:${loss.offset}`);
      expect((await image.readFile(seg.file)).length).toBe(size - 20); // nothing truncated
    });

    it('20 bytes into an earlier acknowledged record, the rest of the segment cut away', async () => {
      const { image, lastSeq } = await acknowledged(6);
      const read = await readJournal(image, dir, 0, { truncate: false });
      const run = read.runs.at(-1)!;
      const victim = run.scan.count - 3; // three records before the end
      await image.truncate(run.scan.file, run.scan.offsets[victim]! + 20);
      await expect(openHost(image, new MemoryProjectionStore())).rejects.toMatchObject({
        name: 'JournalLossError',
        journalEnd: run.scan.start + victim - 1,
        durable: { seq: lastSeq },
      });
    });

    it('the last segment removed', async () => {
      const { image, lastSeq } = await acknowledged(6, { snapshotAfter: 3 });
      const segs = await listSegments(image, dir);
      expect(segs.length).toBe(2);
      await image.rm(segs[1]!.file);
      await image.fsyncDir(dir);
      await expect(openHost(image, new MemoryProjectionStore())).rejects.toMatchObject({
        name: 'JournalLossError',
        journalEnd: segs[1]!.start - 1,
        durable: { seq: lastSeq },
      });
    });

    it('a batch torn by a crash before it was acknowledged is still dropped', async () => {
      const fs = new MemoryFs();
      const host = await openHost(fs, new MemoryProjectionStore());
      await setup(host);
      await host.submit(buy('acked'));
      await settle(host);
      // The next batch is written (synchronously, in submit) but the power goes before its fdatasync.
      const unacked = host.submit(buy('torn')).catch(() => undefined);
      const image = fs.crash({ data: (file, unsynced) => (file.includes('segment-') && unsynced > 0 ? { tornAt: unsynced - 7 } : 'drop'), dirs: 'keep' });
      const host2 = await openHost(image, new MemoryProjectionStore());
      expect(host2.recovery.torn).toMatchObject({ reason: 'short_payload' });
      expect(host2.engine.openOrders('1').map((o) => o.clientOrderId)).toEqual(['acked']);
      await host2.close();
      await unacked;
    });

    it('a journal without its position file (written before it existed) starts as before: the short end is taken as torn, with a warning', async () => {
      const { image, lastSeq } = await acknowledged(3);
      await image.rm(`${dir}/${POSITION_FILE}`);
      await image.fsyncDir(dir);
      const seg = (await listSegments(image, dir)).at(-1)!;
      await image.truncate(seg.file, (await image.readFile(seg.file)).length - 20);
      const lines: string[] = [];
      const warnLog = pino({ level: 'warn' }, { write: (l: string) => lines.push(l) }) as unknown as FastifyBaseLogger;
      const host2 = await openHost(image, new MemoryProjectionStore(), { log: warnLog });
      expect(host2.recovery.lastSeq).toBe(lastSeq - 1);
      expect(host2.recovery.torn).toBeDefined();
      expect(lines.some((l) => l.includes('no recorded durable position'))).toBe(true);
      // The position is recorded from this start on: the next loss is caught.
      await host2.submit(buy('after'));
      await settle(host2);
      expect(host2.stats.recordedSeq).toBe(lastSeq);
      await host2.close();
    });
  });
});
