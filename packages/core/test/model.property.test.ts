// Model-based property test (ARCHITECTURE.md, conventions 5, 8, 14): random command sequences (deposits,
// transfers, every order type and STP mode, cancels by id and client id, cancel-replaces, duplicated idempotency
// keys, halts, malformed values) run on an engine with the fast book and one with the naive
// reference book. After EVERY command: both return deep-equal results (same code, same events),
// both books hold the same levels, and the invariants of invariants.ts hold. Every 50 commands
// the fast engine is replaced by restore(JSON round trip of snapshot()), which must have the same
// state hash and then keep producing the naive engine's events.
//
// Number of random commands: env PROPERTY_COMMANDS, else 100,000 when FULL_PROPERTY_TESTS is set
// (`npm run test:property-long`), else 20,000 (`npm test`, CI and the mutation runs).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { AccountKind, Command, MarketConfig, Side, StpMode, TimeInForce } from '../src/types';
import { checkInvariants } from './invariants';

// The core's tsconfig has no Node types (src must not use them); the test reads its env this way.
const { process, console } = globalThis as unknown as {
  process: { env: Record<string, string | undefined> };
  console: { log(...args: unknown[]): void };
};
const FULL = process.env.FULL_PROPERTY_TESTS !== undefined;
const TOTAL = process.env.PROPERTY_COMMANDS !== undefined ? Number.parseInt(process.env.PROPERTY_COMMANDS, 10) : FULL ? 100_000 : 20_000;
const SEQ_LEN = 250;
const RUNS = Math.max(1, Math.ceil(TOTAL / SEQ_LEN));
const RESTORE_EVERY = 50;
const RETENTION = 40;
/** Idempotency window in ms of command time; commands are 1 ms apart, so keys expire within a sequence. */
const KEY_WINDOW_MS = 60;

const USERS = ['u1', 'u2', 'u3', 'u4'];
const BTC_USDT: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 6,
  tickSize: 50n,
  stepSize: 100n,
  minQty: 100n,
  minNotional: 1_000_000n,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
  status: 'TRADING',
};
const ETH_USDT: MarketConfig = {
  symbol: 'ETH/USDT',
  base: 'ETH',
  quote: 'USDT',
  priceDecimals: 3,
  qtyDecimals: 4,
  tickSize: 7n,
  stepSize: 3n,
  minQty: 3n,
  minNotional: 1000n,
  makerFeePpm: 0,
  takerFeePpm: 1500,
  status: 'TRADING',
};
const MARKETS = [BTC_USDT, ETH_USDT];

const setup: Command[] = [
  { type: 'addAsset', ts: 1, asset: { code: 'BTC', scale: 8 } },
  { type: 'addAsset', ts: 1, asset: { code: 'ETH', scale: 18 } },
  { type: 'addAsset', ts: 1, asset: { code: 'USDT', scale: 8 } },
  { type: 'addMarket', ts: 1, market: BTC_USDT },
  { type: 'addMarket', ts: 1, market: ETH_USDT },
];

type Recipe = (ts: number) => Command;

const user = fc.constantFrom(...USERS);
const side = fc.constantFrom<Side>('BUY', 'SELL');
const marketIdx = fc.integer({ min: 0, max: 1 });
const clientId = fc.option(fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'), { nil: undefined, freq: 3 });
const stp = fc.option(fc.constantFrom<StpMode>('EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'NONE'), { nil: undefined, freq: 2 });

/** price around a mid of 100.00 (BTC) / 2.000 (ETH); occasionally off tick or zero */
function priceArb(m: MarketConfig): fc.Arbitrary<bigint> {
  const mid = m === BTC_USDT ? 200n : 285n; // in ticks
  return fc.oneof(
    { weight: 20, arbitrary: fc.integer({ min: -5, max: 5 }).map((d) => (mid + BigInt(d)) * m.tickSize) },
    { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 3000n }) },
  );
}
function qtyArb(m: MarketConfig): fc.Arbitrary<bigint> {
  return fc.oneof(
    { weight: 20, arbitrary: fc.integer({ min: 1, max: 30 }).map((k) => BigInt(k) * m.stepSize) },
    { weight: 1, arbitrary: fc.bigInt({ min: -1n, max: 500n }) },
  );
}

const placeLimit: fc.Arbitrary<Recipe> = marketIdx.chain((mi) => {
  const m = MARKETS[mi]!;
  return fc
    .record({
      userId: user,
      side,
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'GTC', 'IOC', 'FOK', 'POST_ONLY'),
      price: priceArb(m),
      quantity: qtyArb(m),
      clientOrderId: clientId,
      stp,
    })
    .map((r) => (ts: number): Command => {
      const c: Command = {
        type: 'placeOrder',
        ts,
        userId: r.userId,
        symbol: m.symbol,
        side: r.side,
        orderType: 'LIMIT',
        timeInForce: r.tif,
        price: r.price,
        quantity: r.quantity,
      };
      if (r.clientOrderId !== undefined) c.clientOrderId = r.clientOrderId;
      if (r.stp !== undefined) c.stp = r.stp;
      return c;
    });
});

const placeMarket: fc.Arbitrary<Recipe> = marketIdx.chain((mi) => {
  const m = MARKETS[mi]!;
  return fc
    .record({
      userId: user,
      side,
      byQuote: fc.boolean(),
      tif: fc.constantFrom<TimeInForce>('IOC', 'GTC', 'FOK'),
      quantity: qtyArb(m),
      quoteAmount: fc.bigInt({ min: 0n, max: m === BTC_USDT ? 3_000_000_000n : 3_000_000n }),
      clientOrderId: clientId,
      stp,
    })
    .map((r) => (ts: number): Command => {
      const c: Command = { type: 'placeOrder', ts, userId: r.userId, symbol: m.symbol, side: r.side, orderType: 'MARKET', timeInForce: r.tif };
      if (r.byQuote && r.side === 'BUY') c.quoteAmount = r.quoteAmount;
      else c.quantity = r.quantity;
      if (r.clientOrderId !== undefined) c.clientOrderId = r.clientOrderId;
      if (r.stp !== undefined) c.stp = r.stp;
      return c;
    });
});

const cancel: fc.Arbitrary<Recipe> = fc
  .record({ userId: user, byClient: fc.boolean(), id: fc.integer({ min: 1, max: 60 }), cid: fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7') })
  .map(
    (r) =>
      (ts: number): Command =>
        r.byClient ? { type: 'cancelOrder', ts, userId: r.userId, clientOrderId: r.cid } : { type: 'cancelOrder', ts, userId: r.userId, orderId: `${r.id}` },
  );

/** A cancel-replace (cancelReplaceOrder): a cancel as `cancel` names it, then a new LIMIT order of the same user. */
const cancelReplace: fc.Arbitrary<Recipe> = marketIdx.chain((mi) => {
  const m = MARKETS[mi]!;
  return fc
    .record({
      userId: user,
      byClient: fc.boolean(),
      id: fc.integer({ min: 1, max: 60 }),
      cid: fc.constantFrom('c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'),
      mode: fc.constantFrom<'STOP_ON_FAILURE' | 'ALLOW_FAILURE'>('STOP_ON_FAILURE', 'ALLOW_FAILURE'),
      restriction: fc.constantFrom(undefined, undefined, 'ONLY_NEW' as const, 'ONLY_PARTIALLY_FILLED' as const),
      side,
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC', 'POST_ONLY'),
      price: priceArb(m),
      quantity: qtyArb(m),
      clientOrderId: clientId,
    })
    .map((r) => (ts: number): Command => {
      const c: Command = {
        type: 'cancelReplaceOrder',
        ts,
        userId: r.userId,
        symbol: m.symbol,
        mode: r.mode,
        ...(r.byClient ? { cancelClientOrderId: r.cid } : { cancelOrderId: `${r.id}` }),
        order: { side: r.side, orderType: 'LIMIT', timeInForce: r.tif, price: r.price, quantity: r.quantity },
      };
      if (r.restriction !== undefined) c.cancelRestriction = r.restriction;
      if (r.clientOrderId !== undefined) c.order.clientOrderId = r.clientOrderId;
      return c;
    });
});

const deposit: fc.Arbitrary<Recipe> = fc
  .record({
    userId: user,
    asset: fc.constantFrom('BTC', 'ETH', 'USDT'),
    account: fc.constantFrom<AccountKind>('SPOT', 'SPOT', 'SPOT', 'ASSETS'),
    units: fc.bigInt({ min: 0n, max: 5_000n }),
    ref: fc.option(fc.constantFrom('r1', 'r2', 'r3'), { nil: undefined, freq: 3 }),
  })
  .map((r) => (ts: number): Command => {
    const scale = r.asset === 'ETH' ? 10n ** 15n : 10n ** 5n; // thousandths of a coin
    const c: Command = { type: 'deposit', ts, userId: r.userId, asset: r.asset, account: r.account, amount: r.units * scale, from: '@faucet' };
    if (r.ref !== undefined) c.ref = r.ref;
    return c;
  });

const transfer: fc.Arbitrary<Recipe> = fc
  .record({
    userId: user,
    asset: fc.constantFrom('BTC', 'USDT', 'ETH'),
    from: fc.constantFrom<AccountKind>('SPOT', 'ASSETS', 'CONTRACT', 'OTC'),
    to: fc.constantFrom<AccountKind>('SPOT', 'ASSETS', 'CONTRACT', 'OTC'),
    amount: fc.bigInt({ min: 0n, max: 200_000_000n }),
    clientId: fc.option(fc.constantFrom('t1', 't2'), { nil: undefined, freq: 3 }),
  })
  .map((r) => (ts: number): Command => {
    const c: Command = { type: 'transfer', ts, userId: r.userId, asset: r.asset, from: r.from, to: r.to, amount: r.amount };
    if (r.clientId !== undefined) c.clientId = r.clientId;
    return c;
  });

const halt: fc.Arbitrary<Recipe> = fc
  .record({ mi: marketIdx, status: fc.constantFrom<'TRADING' | 'HALTED'>('TRADING', 'HALTED', 'TRADING') })
  .map((r) => (ts: number): Command => ({ type: 'setMarketStatus', ts, symbol: MARKETS[r.mi]!.symbol, status: r.status }));

const recipe: fc.Arbitrary<Recipe> = fc.oneof(
  { weight: 40, arbitrary: placeLimit },
  { weight: 12, arbitrary: placeMarket },
  { weight: 18, arbitrary: cancel },
  { weight: 6, arbitrary: cancelReplace },
  { weight: 10, arbitrary: deposit },
  { weight: 3, arbitrary: transfer },
  { weight: 1, arbitrary: halt },
);

interface Stats {
  commands: number;
  ok: number;
  trades: number;
  restores: number;
}

function runSequence(recipes: Recipe[], stats: Stats): void {
  // A small retention of ended orders and a short key window, so that forgetting orders and keys
  // (and their snapshots) is exercised too.
  let fast = new Engine({ book: 'fast', closedOrderRetention: RETENTION, idempotencyWindowMs: KEY_WINDOW_MS });
  const naive = new Engine({ book: 'naive', closedOrderRetention: RETENTION, idempotencyWindowMs: KEY_WINDOW_MS });
  let ts = 1_700_000_000_000;
  const all: Command[] = [...setup];
  for (const u of USERS) {
    all.push({ type: 'deposit', ts: 1, userId: u, asset: 'USDT', account: 'SPOT', amount: 2_000n * 10n ** 8n, from: '@faucet' });
    all.push({ type: 'deposit', ts: 1, userId: u, asset: 'BTC', account: 'SPOT', amount: 10n ** 8n, from: '@faucet' });
    all.push({ type: 'deposit', ts: 1, userId: u, asset: 'ETH', account: 'SPOT', amount: 10n ** 20n, from: '@faucet' });
  }
  for (const r of recipes) all.push(r(++ts));
  for (let i = 0; i < all.length; i++) {
    const cmd = all[i]!;
    const a = fast.execute(cmd);
    const b = naive.execute(cmd);
    expect(a).toEqual(b);
    checkInvariants(fast, a);
    checkInvariants(naive, b);
    for (const m of MARKETS) {
      if (fast.bookOf(m.symbol) === undefined) continue;
      const la = fast.bookOf(m.symbol)!.levels('BUY').concat(fast.bookOf(m.symbol)!.levels('SELL'));
      const lb = naive.bookOf(m.symbol)!.levels('BUY').concat(naive.bookOf(m.symbol)!.levels('SELL'));
      expect(la.map((l) => [l.price, l.orders.map((o) => o.orderId)])).toEqual(lb.map((l) => [l.price, l.orders.map((o) => o.orderId)]));
    }
    stats.commands++;
    if (a.code === 'ok') stats.ok++;
    for (const ev of a.events) if (ev.type === 'trade') stats.trades++;
    if (i % RESTORE_EVERY === RESTORE_EVERY - 1) {
      const hash = fast.stateHash();
      expect(naive.stateHash()).toBe(hash);
      const restored = Engine.restore(JSON.parse(JSON.stringify(fast.snapshot())), { book: 'fast' });
      expect(restored.stateHash()).toBe(hash);
      fast = restored;
      stats.restores++;
    }
  }
}

describe('model-based: fast book vs naive book with invariants after every command', () => {
  it(`runs ${RUNS * SEQ_LEN} random commands`, { timeout: 3_600_000 }, () => {
    const stats: Stats = { commands: 0, ok: 0, trades: 0, restores: 0 };
    fc.assert(
      fc.property(fc.array(recipe, { minLength: SEQ_LEN, maxLength: SEQ_LEN }), (recipes) => {
        runSequence(recipes, stats);
      }),
      { numRuns: RUNS },
    );
    // The random flow must actually trade and mostly be accepted, or the test proves little.
    expect(stats.commands).toBeGreaterThanOrEqual(RUNS * SEQ_LEN);
    expect(stats.trades).toBeGreaterThan(stats.commands / 20);
    expect(stats.ok).toBeGreaterThan(stats.commands / 3);
    console.log(`model test: ${JSON.stringify(stats)}`);
  });
});
