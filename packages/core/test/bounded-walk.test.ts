// Proves that one command does bounded work however deep the book is. A
// MARKET BUY by quantity must know its exact cost before its balance check, which is a walk over
// the asks; the walk stops as soon as the running cost exceeds the user's available quote, so a
// rejected order visits about as many makers as the user can pay for, not the whole book. A FOK
// walk stops once its quantity is reached; stepping over the taker's own makers (EXPIRE_MAKER) is
// bounded by the cap of 200 open orders per market. Work is measured as the number of makers
// visited (calls of book.after through a spy), not as time; the time is printed for information.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Engine } from '../src/engine';
import { MAX_OPEN_ORDERS_PER_MARKET } from '../src/spot/spot-market';
import { COIN, engineWithMarket, fund, limit, market, nextTs, ok, PX, QTY } from './fixtures';

const { performance, console, process } = globalThis as unknown as {
  performance: { now(): number };
  console: { log(...args: unknown[]): void };
  process: { env: Record<string, string | undefined> };
};

/** Depth of the book: env BOUNDED_WALK_ASKS (the mutation run uses fewer), else 50,000; a multiple of 200. */
const ASKS = process.env.BOUNDED_WALK_ASKS !== undefined ? Number.parseInt(process.env.BOUNDED_WALK_ASKS, 10) : 50_000;
/** Price of the i-th ask (i from 0): 30,000.00 USDT + i cents. */
const askPrice = (i: number): bigint => 30_000n * PX + BigInt(i);
/** Quantity of every ask: 0.0001 BTC, so one level costs about 3 USDT. */
const ASK_QTY = 100n;

/** A book of ASKS asks at distinct prices from ASKS / 200 makers (200 each, the cap), best first by id. */
function deepBook(): Engine {
  const e = engineWithMarket();
  const makers = ASKS / MAX_OPEN_ORDERS_PER_MARKET;
  for (let u = 0; u < makers; u++) fund(e, `maker${u}`, 'BTC', COIN);
  for (let i = 0; i < ASKS; i++) ok(e, limit(`maker${i % makers}`, 'SELL', askPrice(i), ASK_QTY));
  expect(e.bookOf('BTC/USDT')!.size()).toBe(ASKS);
  return e;
}

/** Cost in USDT units of the first `n` asks. */
function costOfFirst(n: number): bigint {
  let c = 0n;
  for (let i = 0; i < n; i++) c += askPrice(i) * ASK_QTY;
  return c;
}

/** Counts the makers a command visits by spying on the book's `after` (the walk's only way forward). */
function spyAfter(e: Engine): { calls(): number } {
  const book = e.bookOf('BTC/USDT')!;
  const spy = vi.spyOn(book, 'after');
  return { calls: () => spy.mock.calls.length };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// The cases share one book (built once) and run in order: each starts where the last one left it.
describe(`bounded work per command on a book of ${ASKS} asks`, () => {
  let e: Engine;
  beforeAll(() => {
    e = deepBook();
  });

  it('an unaffordable MARKET BUY by quantity larger than the book is rejected after visiting only the levels its balance covers', () => {
    // mallory can pay for the first 10 levels and a bit; she asks for more than the whole book
    fund(e, 'mallory', 'USDT', costOfFirst(10) + 1_000n);
    const h = e.stateHash();
    const visits = spyAfter(e);
    const cmd = market('mallory', 'BUY', { quantity: ASK_QTY * BigInt(ASKS + 1) });
    const t0 = performance.now();
    const r = e.execute(cmd);
    const rejectMs = performance.now() - t0;
    expect(r).toEqual({ code: 'insufficient_balance', events: [] });
    expect(e.stateHash()).toBe(h);
    // the 11th level pushes the cost over the balance: 11 makers visited, 10 steps forward
    expect(visits.calls()).toBe(10);
    // an order of the same user that fits her balance, for comparison
    const t1 = performance.now();
    const fits = e.execute(market('mallory', 'BUY', { quantity: ASK_QTY * 10n }));
    const acceptMs = performance.now() - t1;
    expect(fits.order).toMatchObject({ status: 'FILLED', filledQty: ASK_QTY * 10n, filledQuote: costOfFirst(10) });
    console.log(
      `bounded walk: rejected MARKET BUY over ${ASKS} asks took ${rejectMs.toFixed(3)} ms, an accepted 10-level MARKET BUY ${acceptMs.toFixed(3)} ms`,
    );
  });

  it('a balance exactly equal to the cost is accepted; one unit less is rejected at the same level', () => {
    // the book now starts at level 10 (the previous test bought levels 0..9)
    let cost = 0n;
    for (let i = 10; i < 15; i++) cost += askPrice(i) * ASK_QTY;
    fund(e, 'exact', 'USDT', cost - 1n);
    const visits = spyAfter(e);
    expect(e.execute(market('exact', 'BUY', { quantity: ASK_QTY * 5n })).code).toBe('insufficient_balance');
    expect(visits.calls()).toBe(4); // the 5th level exceeds it: 5 visited
    fund(e, 'exact', 'USDT', 1n);
    const r = ok(e, market('exact', 'BUY', { quantity: ASK_QTY * 5n }));
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: ASK_QTY * 5n, filledQuote: cost });
    expect(e.balance('exact', 'SPOT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });

  it('a FOK walk stops as soon as its quantity is reached', () => {
    fund(e, 'fok', 'USDT', 1_000_000n * COIN);
    const visits = spyAfter(e);
    // 3 levels' worth at a limit far above the whole book
    const r = ok(e, limit('fok', 'BUY', 100_000n * PX, ASK_QTY * 3n, 'FOK'));
    expect(r.order).toMatchObject({ status: 'FILLED', filledQty: ASK_QTY * 3n });
    expect(visits.calls()).toBeLessThanOrEqual(3);
  });

  it('a MARKET BUY with EXPIRE_MAKER steps over fewer own asks than the cap, then stops at its budget', () => {
    // the self-trader rests 199 asks below everyone else's: at 200 she could place nothing at all
    fund(e, 'self', 'BTC', COIN);
    for (let i = 0; i < MAX_OPEN_ORDERS_PER_MARKET - 1; i++) ok(e, limit('self', 'SELL', 20_000n * PX + BigInt(i), 1n));
    // levels 0..17 are gone (bought above): she pays for 3 of the others' levels (18..20) and not a 4th
    fund(e, 'self', 'USDT', costOfFirst(21) - costOfFirst(18));
    const visits = spyAfter(e);
    const r = e.execute(market('self', 'BUY', { quantity: ASK_QTY * 1_000n }, { stp: 'EXPIRE_MAKER' }));
    expect(r.code).toBe('insufficient_balance');
    // 199 steps over her own asks, then 3 steps over the levels she can pay for
    expect(visits.calls()).toBe(MAX_OPEN_ORDERS_PER_MARKET - 1 + 3);
    ok(e, { type: 'cancelOrder', ts: nextTs(), userId: 'self', orderId: e.openOrders('self')[0]!.orderId });
    expect(e.openOrders('self')).toHaveLength(MAX_OPEN_ORDERS_PER_MARKET - 2);
  });
});

describe('walk budget on a small book', () => {
  it('an EXPIRE_TAKER MARKET BUY stops its walk at its own ask; the hold covers only what precedes it', () => {
    const e = engineWithMarket();
    fund(e, 'a', 'BTC', COIN);
    fund(e, 'b', 'BTC', COIN);
    ok(e, limit('a', 'SELL', 30_000n * PX, QTY / 10n)); // 3,000 USDT
    ok(e, limit('b', 'SELL', 30_001n * PX, QTY / 10n)); // b's own ask stops b's walk
    ok(e, limit('a', 'SELL', 30_002n * PX, QTY / 10n));
    fund(e, 'b', 'USDT', 3_000n * COIN);
    const r = ok(e, market('b', 'BUY', { quantity: QTY }));
    expect(r.order).toMatchObject({ status: 'EXPIRED', filledQty: QTY / 10n, filledQuote: 3_000n * COIN });
    expect(e.balance('b', 'SPOT', 'USDT')).toEqual({ available: 0n, frozen: 0n });
  });
});

describe('walk budget at its edges', () => {
  /** Asks of 10 at P, P + 1, ..., P + 4 (one order a level) from alice. */
  function fiveLevels(): Engine {
    const e = engineWithMarket();
    fund(e, 'alice', 'BTC', COIN);
    for (let i = 0n; i < 5n; i++) ok(e, limit('alice', 'SELL', 30_000n * PX + i, 10n));
    return e;
  }

  it('no quote at all: rejected at the first level, without stepping further', () => {
    const e = fiveLevels();
    const visits = spyAfter(e);
    expect(e.execute(market('bob', 'BUY', { quantity: 50n })).code).toBe('insufficient_balance');
    expect(visits.calls()).toBe(0);
  });

  it('a balance that covers the first levels exactly but not the order: still rejected', () => {
    const e = fiveLevels();
    const firstTwo = 10n * (30_000n * PX) + 10n * (30_000n * PX + 1n);
    fund(e, 'bob', 'USDT', firstTwo);
    const h = e.stateHash();
    const visits = spyAfter(e);
    expect(e.execute(market('bob', 'BUY', { quantity: 30n })).code).toBe('insufficient_balance');
    expect(visits.calls()).toBe(2);
    expect(e.stateHash()).toBe(h);
    expect(ok(e, market('bob', 'BUY', { quantity: 20n })).order).toMatchObject({ status: 'FILLED', filledQuote: firstTwo });
  });
});
