/**
 * The projection of the perpetual contracts' events (contract.projection.ts through the projector): a real engine runs a
 * short story (a long and a short open, a bot's order, funding at the 8 h boundary, a close, an isolated 50x long
 * liquidated) and every command's events are pushed to the projector. Checked: orders of users upserted to their last
 * state (never the bots' or '@insurance''s), every fill including the bot's and the liquidation's TAKEOVER/ADL,
 * funding payments equal to the events', the closed position with its life totals, the liquidation; a second
 * projection of the same events is identical, and the database store (PGlite) writes each row once when a batch is
 * written twice and never lets an older order state over a newer one.
 */
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { asc } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { Engine, type Command, type CommandResult, type EngineEvent } from '@exchange/core';
import { openDb } from '../../platform/db/client';
import { perpFundingPayments, perpFundingRates, perpLiquidations, perpOrders, perpPositionHistory, perpTrades } from './perp.tables';
import { PERP, U } from './perp-test-support';
import { localProjectionStore, MemoryProjectionStore, tableIndex } from '../../platform/db/projection-store';
import { tableRows, type ProjectedTable } from '../../platform/db/projection-types';
import { createProjector, RowBuffer } from '../../platform/engine-host/projector';
import { perpProjection, PERP_FUNDING_TABLE, PERP_LIQUIDATIONS_TABLE, PERP_ORDERS_TABLE, PERP_POSITIONS_TABLE, PERP_TRADES_TABLE } from './perp.projection';

const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const T0 = 1_700_006_400_000; // a funding time (multiple of 8 h)
const SYM = PERP.symbol;
const px = (usd: number) => BigInt(usd) * 100n;

/** The story: every command's sequence number and result. */
function story(): Array<{ seq: number; r: CommandResult }> {
  const e = new Engine();
  const out: Array<{ seq: number; r: CommandResult }> = [];
  let seq = 0;
  const run = (ts: number, c: Record<string, unknown>) => {
    const r = e.execute({ ts, ...c } as unknown as Command);
    expect(
      r.code,
      JSON.stringify(c, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
    ).toBe('ok');
    out.push({ seq: ++seq, r });
  };
  const place = (ts: number, userId: string, side: 'BUY' | 'SELL', price: bigint | null, quantity: bigint, extra: Record<string, unknown> = {}) =>
    run(ts, {
      type: 'perpPlaceOrder',
      userId,
      symbol: SYM,
      side,
      orderType: price === null ? 'MARKET' : 'LIMIT',
      timeInForce: price === null ? 'IOC' : 'GTC',
      ...(price === null ? {} : { price }),
      quantity,
      ...extra,
    });
  let ts = T0 + 1000;
  run(ts++, { type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  run(ts++, { type: 'addPerpMarket', market: PERP });
  for (const id of ['1', '2', '3', 'mm-bot'])
    run(ts++, { type: 'deposit', userId: id, asset: 'USDT', account: 'CONTRACT', amount: (id === '3' ? 100n : 10_000n) * U, from: '@faucet' });
  run(ts++, { type: 'perpMarkPrice', symbol: SYM, indexPrice: px(50_000) });
  place(ts++, '1', 'SELL', px(50_000), 40n);
  place(ts++, '2', 'BUY', null, 40n);
  place(ts++, 'mm-bot', 'SELL', px(50_000), 20n);
  run(ts++, { type: 'perpSetMarginMode', userId: '3', symbol: SYM, marginMode: 'ISOLATED' });
  run(ts++, { type: 'perpSetLeverage', userId: '3', symbol: SYM, leverage: 50 });
  place(ts++, '3', 'BUY', null, 20n);
  run(T0 + 28_800_001, { type: 'perpFunding', symbol: SYM, fundingTs: T0 + 28_800_000 });
  ts = T0 + 28_800_002;
  place(ts++, '1', 'BUY', px(50_000), 40n);
  place(ts++, '2', 'SELL', null, 40n, { reduceOnly: true });
  run(ts++, { type: 'perpMarkPrice', symbol: SYM, indexPrice: px(45_000) });
  return out;
}

function events<T extends EngineEvent['type']>(s: Array<{ r: CommandResult }>, type: T): Extract<EngineEvent, { type: T }>[] {
  return s.flatMap((x) => x.r.events.filter((e) => e.type === type)) as Extract<EngineEvent, { type: T }>[];
}

async function project(s: Array<{ seq: number; r: CommandResult }>): Promise<MemoryProjectionStore> {
  const store = new MemoryProjectionStore();
  const p = await createProjector({ store, log, projections: [perpProjection], flushMs: 5, maxEvents: 7 });
  p.bind('perp-journal');
  for (const { seq, r } of s) p.push(seq, r.events);
  await p.close();
  return store;
}

/** The rows of `table` in `store`, by key. */
const rowsIn = <Row extends object>(store: MemoryProjectionStore, table: ProjectedTable<Row>) => store.rows<Row>(table.rule.table);

describe('perp projection', () => {
  it('projects orders, fills, funding, closed positions and liquidations of users, identically again', async () => {
    const s = story();
    const store = await project(s);
    const users = new Set([...rowsIn(store, PERP_ORDERS_TABLE).values()].map((o) => o.userId));
    expect([...users].sort()).toEqual(['1', '2', '3']);
    // Each order at its last state: the events' last view of it.
    const last = new Map<string, string>();
    for (const e of [...events(s, 'perpOrderAccepted'), ...events(s, 'perpOrderUpdated')]) last.set(e.order.orderId, e.order.status);
    for (const [id, row] of rowsIn(store, PERP_ORDERS_TABLE)) expect(row.status, id).toBe(last.get(id));
    const kinds = [...rowsIn(store, PERP_TRADES_TABLE).values()].map((t) => t.kind);
    expect(kinds.filter((k) => k === 'BOOK').length).toBeGreaterThanOrEqual(3);
    expect(kinds).toContain('TAKEOVER');
    expect(rowsIn(store, PERP_TRADES_TABLE).size).toBe(events(s, 'perpTrade').length);
    // Funding: one row per user position, the events' amounts (the long pays a positive rate).
    const pays = events(s, 'fundingPayment').filter((f) => /^[0-9]+$/.test(f.userId));
    expect(pays.length).toBeGreaterThanOrEqual(3);
    for (const f of pays) expect(rowsIn(store, PERP_FUNDING_TABLE).get(`${f.userId}:${SYM}:${T0 + 28_800_000}`)?.amount).toBe(f.amount.toString());
    expect(BigInt(rowsIn(store, PERP_FUNDING_TABLE).get(`2:${SYM}:${T0 + 28_800_000}`)!.amount)).toBeLessThan(0n);
    // User 2 closed its long: its life totals; user 3 was liquidated (isolated 50x long, mark 45,000).
    const closed = [...rowsIn(store, PERP_POSITIONS_TABLE).values()].filter((p) => p.userId === '2');
    expect(closed).toHaveLength(1);
    expect(closed[0]).toMatchObject({ side: 'LONG', marginMode: 'CROSS', entryPrice: px(50_000).toString() });
    expect(BigInt(closed[0]!.funding)).toBeLessThan(0n);
    const liq = [...rowsIn(store, PERP_LIQUIDATIONS_TABLE).values()];
    expect(liq.map((l) => [l.userId, l.side, l.marginMode, l.size])).toEqual([['3', 'LONG', 'ISOLATED', '20']]);
    expect([...rowsIn(store, PERP_ORDERS_TABLE).values()].find((o) => o.userId === '3' && o.tradeType === 'FORCE_CLOSE')).toMatchObject({
      trigger: 'LIQUIDATION',
      status: 'FILLED',
    });

    const again = await project(s);
    expect(rowsIn(again, PERP_ORDERS_TABLE)).toEqual(rowsIn(store, PERP_ORDERS_TABLE));
    expect(rowsIn(again, PERP_TRADES_TABLE)).toEqual(rowsIn(store, PERP_TRADES_TABLE));
    expect(rowsIn(again, PERP_FUNDING_TABLE)).toEqual(rowsIn(store, PERP_FUNDING_TABLE));
    expect(rowsIn(again, PERP_POSITIONS_TABLE)).toEqual(rowsIn(store, PERP_POSITIONS_TABLE));
    expect(rowsIn(again, PERP_LIQUIDATIONS_TABLE)).toEqual(rowsIn(store, PERP_LIQUIDATIONS_TABLE));
  });

  it('writes each row once in the database, and an older order state never over a newer one', async () => {
    const s = story();
    const buf = new RowBuffer(perpProjection.tables);
    const projectEvents = perpProjection.start();
    for (const { seq, r } of s) projectEvents(seq, r.events, buf);
    const tables = buf.take();
    const batch = {
      orders: tableRows(tables, PERP_ORDERS_TABLE),
      trades: tableRows(tables, PERP_TRADES_TABLE),
      funding: tableRows(tables, PERP_FUNDING_TABLE),
    };
    const handle = await openDb({ dataDir: 'memory://', worker: false });
    try {
      const store = localProjectionStore(
        handle.db,
        tableIndex({ perpFundingPayments, perpFundingRates, perpLiquidations, perpOrders, perpPositionHistory, perpTrades }),
      );
      await store.write({ journalId: 'j', seq: s.length, tables });
      const dump = async () => ({
        orders: await handle.db.select().from(perpOrders).orderBy(asc(perpOrders.id)),
        trades: await handle.db.select().from(perpTrades).orderBy(asc(perpTrades.id)),
        positions: await handle.db.select().from(perpPositionHistory),
        funding: await handle.db.select().from(perpFundingPayments).orderBy(asc(perpFundingPayments.userId)),
        liquidations: await handle.db.select().from(perpLiquidations),
      });
      const first = await dump();
      expect(first.orders.length).toBe(batch.orders.length);
      expect(first.trades.length).toBe(batch.trades.length);
      expect(first.funding.length).toBe(batch.funding.length);
      expect(first.liquidations).toHaveLength(1);
      // The same batch again (a replay): nothing new, nothing changed.
      await store.write({ journalId: 'j', seq: s.length, tables });
      expect(await dump()).toEqual(first);
      // An order's older state (an earlier journal position) does not replace the newer one.
      const filled = batch.orders.find((o) => o.status === 'FILLED')!;
      await store.write({
        journalId: 'j',
        seq: s.length,
        tables: [{ rule: PERP_ORDERS_TABLE.rule, rows: [{ ...filled, status: 'NEW', filledQty: '0', seq: 0 }] }],
      });
      const row = (await handle.db.select().from(perpOrders).orderBy(asc(perpOrders.id))).find((o) => o.id === filled.id)!;
      expect(row).toMatchObject({ status: 'FILLED', filledQty: filled.filledQty });
    } finally {
      await handle.close();
    }
  }, 60_000);
});
