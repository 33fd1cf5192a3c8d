/**
 * Proves the engine host's durability contract with the real engine on an in-memory PGlite:
 * - group commit: N concurrent submits are answered after fewer fdatasyncs than commands, in sequence order;
 * - a crash (host abandoned without close) plus a torn last record: recovery drops the torn record and
 *   rebuilds exactly the acknowledged state (same stateHash, every asset conserved);
 * - snapshot + replay of the journal after it gives the same stateHash as the live engine;
 * - a fresh database catches up from the journal (projector upserts), and a second replay changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { loadConfig } from '../config/env';
import { openDb, type DbHandle } from '../db/client';
import { spotOrders, spotTrades } from '../../domains/spot/spot.tables';
import { createEngineHost, type EngineHost } from './engine-host';
import { MACHINES, PROJECTIONS, SCHEMA_MODULE } from '../../main/domains';
import { listSegments } from './journal';
import { nodeFs } from './node-fs';
import { encodeFrame } from './framing';
import { ensureMarket } from './test-fixtures';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const USDT = 100_000_000n; // 1 USDT in units (scale 8)
const BTC = 100_000_000n;

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'host-test-'));
}

async function openHost(dataDir: string, db: DbHandle, snapshotEvery = 50_000): Promise<EngineHost> {
  const config = loadConfig({ NODE_ENV: 'test' }, { dataDir, snapshotEvery });
  return createEngineHost({ projections: PROJECTIONS, machines: MACHINES, config, db: db.db, log, projectorFlushMs: 10 });
}

function allZero(host: EngineHost): boolean {
  return [...host.engine.assetTotals().values()].every((v) => v === 0n);
}

/** Two users trade: alice sells BTC, bob buys; some orders rest, some fill, one is cancelled. */
async function tradeSomething(host: EngineHost, round: number): Promise<void> {
  await host.submit({ type: 'deposit', userId: '1', asset: 'BTC', account: 'SPOT', amount: 2n * BTC, from: '@chain', ref: `a${round}` });
  await host.submit({ type: 'deposit', userId: '2', asset: 'USDT', account: 'SPOT', amount: 100_000n * USDT, from: '@faucet', ref: `b${round}` });
  const results = await Promise.all([
    host.submit({
      type: 'placeOrder',
      userId: '1',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_000_000n + BigInt(round),
      quantity: 500_000n,
    }),
    host.submit({
      type: 'placeOrder',
      userId: '1',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_100_000n,
      quantity: 100_000n,
    }),
    host.submit({
      type: 'placeOrder',
      userId: '2',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'GTC',
      price: 3_050_000n,
      quantity: 300_000n,
    }),
    host.submit({ type: 'placeOrder', userId: '2', symbol: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quoteAmount: 1000n * USDT }),
  ]);
  for (const r of results) expect(r.code).toBe('ok');
  await host.submit({ type: 'cancelOrder', userId: '1', orderId: results[1]!.order!.orderId });
}

/** One database per data directory: a journal and its database are a pair (another journal's is refused). */
const dbs = new Map<string, DbHandle>();
async function dbFor(dir: string): Promise<DbHandle> {
  let db = dbs.get(dir);
  if (!db) {
    db = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
    dbs.set(dir, db);
  }
  return db;
}
afterAll(async () => {
  for (const db of dbs.values()) await db.close();
});

describe('engine host', () => {
  it('group commit: concurrent submits share fsyncs and are applied in sequence order', async () => {
    const dir = tmp();
    const host = await openHost(dir, await dbFor(dir));
    await ensureMarket(host);
    const before = host.stats.journal;
    const seen: number[] = [];
    const off = host.onEvents((_events, cmd) => seen.push(cmd.ts));
    const n = 200;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        host.submit({ type: 'deposit', userId: `${1000 + (i % 7)}`, asset: 'USDT', account: 'SPOT', amount: BigInt(i + 1), from: '@faucet', ref: `gc-${i}` }),
      ),
    );
    off();
    const after = host.stats.journal;
    expect(results.every((r) => r.code === 'ok')).toBe(true);
    expect(after.records - before.records).toBe(n);
    const fsyncs = after.fsyncs - before.fsyncs;
    expect(fsyncs).toBeGreaterThanOrEqual(1);
    expect(fsyncs).toBeLessThan(n / 4);
    expect(seen).toHaveLength(n);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    let total = 0n;
    for (let u = 0; u < 7; u++) total += host.engine.balance(`${1000 + u}`, 'SPOT', 'USDT').available;
    expect(total).toBe(BigInt((n * (n + 1)) / 2));
    expect(allZero(host)).toBe(true);
    await host.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('recovers after a crash with a torn last record: the torn command is never applied', async () => {
    const dir = tmp();
    const host1 = await openHost(dir, await dbFor(dir));
    await ensureMarket(host1);
    await tradeSomething(host1, 1);
    await tradeSomething(host1, 2);
    const hash = host1.engine.stateHash();
    const lastSeq = host1.stats.lastSeq;
    await host1.projected();
    // Crash: host1 is abandoned (no close, no snapshot); a half-written record sits at the end of the journal.
    const seg = (await listSegments(nodeFs, path.join(dir, 'journal'))).at(-1)!.file;
    const frame = encodeFrame(Buffer.from(`{"type":"deposit","userId":"1","asset":"USDT","account":"SPOT","amount":{"$n":"999"},"from":"@faucet","ts":1}`));
    fs.appendFileSync(seg, frame.subarray(0, frame.length - 7));

    const host2 = await openHost(dir, await dbFor(dir));
    expect(host2.recovery.torn?.reason).toBe('short_payload');
    expect(host2.recovery.snapshotSeq).toBe(0);
    expect(host2.recovery.replayed).toBe(lastSeq);
    expect(host2.engine.stateHash()).toBe(hash);
    expect(host2.engine.balance('1', 'SPOT', 'USDT').available).toBe(host1.engine.balance('1', 'SPOT', 'USDT').available);
    expect(allZero(host2)).toBe(true);
    // The journal goes on cleanly after the truncated tail.
    const r = await host2.submit({ type: 'deposit', userId: '3', asset: 'USDT', account: 'SPOT', amount: 5n, from: '@faucet' });
    expect(r.code).toBe('ok');
    await host2.close();
    const host3 = await openHost(dir, await dbFor(dir));
    expect(host3.recovery.torn).toBeUndefined();
    expect(host3.engine.balance('3', 'SPOT', 'USDT').available).toBe(5n);
    await host3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('snapshot + journal replay gives the same state hash as the live engine', async () => {
    const dir = tmp();
    const host1 = await openHost(dir, await dbFor(dir), 10);
    await ensureMarket(host1);
    for (let round = 0; round < 6; round++) await tradeSomething(host1, round);
    await host1.snapshotNow();
    await tradeSomething(host1, 99);
    await host1.projected();
    const hash = host1.engine.stateHash();
    const lastSeq = host1.stats.lastSeq;
    expect(host1.stats.snapshots).toBeGreaterThanOrEqual(2);
    const snapFiles = fs.readdirSync(path.join(dir, 'snapshots')).filter((f) => f.endsWith('.snap'));
    expect(snapFiles).toHaveLength(2);

    // Crash without close: recovery = newest snapshot + the records after it.
    const host2 = await openHost(dir, await dbFor(dir), 10);
    expect(host2.recovery.snapshotSeq).toBeGreaterThan(0);
    expect(host2.recovery.snapshotSeq + host2.recovery.replayed).toBe(lastSeq);
    expect(host2.recovery.replayed).toBeLessThan(lastSeq);
    expect(host2.engine.stateHash()).toBe(hash);
    expect(allZero(host2)).toBe(true);
    // Graceful close snapshots: the next start replays nothing.
    await host2.close();
    const host3 = await openHost(dir, await dbFor(dir), 10);
    expect(host3.recovery).toMatchObject({ snapshotSeq: lastSeq, replayed: 0, lastSeq });
    expect(host3.engine.stateHash()).toBe(hash);
    await host3.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a fresh database catches up from the journal; replaying again changes nothing', async () => {
    const dir = tmp();
    const db1 = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
    const host1 = await openHost(dir, db1);
    await ensureMarket(host1);
    await tradeSomething(host1, 1);
    await tradeSomething(host1, 2);
    await host1.projected();
    const orders1 = await db1.db.select().from(spotOrders).orderBy(asc(spotOrders.id));
    const trades1 = await db1.db.select().from(spotTrades).orderBy(asc(spotTrades.id));
    expect(orders1.length).toBe(8);
    expect(trades1.length).toBeGreaterThan(0);
    expect(orders1.find((o) => o.status === 'CANCELED')).toBeDefined();

    const db2 = await openDb({ schemaModule: SCHEMA_MODULE, dataDir: 'memory://' });
    const host2 = await openHost(dir, db2);
    await host2.projected();
    const orders2 = await db2.db.select().from(spotOrders).orderBy(asc(spotOrders.id));
    const trades2 = await db2.db.select().from(spotTrades).orderBy(asc(spotTrades.id));
    expect(orders2).toEqual(orders1);
    expect(trades2).toEqual(trades1);
    await host2.close();
    await db2.close();

    // host1 "crashed"; a restart on db1 whose cursor is current projects nothing twice.
    const host3 = await openHost(dir, db1);
    await host3.projected();
    expect(await db1.db.select().from(spotOrders).orderBy(asc(spotOrders.id))).toEqual(orders1);
    expect(await db1.db.select().from(spotTrades).orderBy(asc(spotTrades.id))).toEqual(trades1);
    await host3.close();
    await db1.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
