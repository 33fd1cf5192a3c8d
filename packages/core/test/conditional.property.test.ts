/**
 * Conditional spot orders against an independent model (fast-check): random streams of LIMIT and MARKET orders,
 * STOP_LOSS / TAKE_PROFIT orders (LIMIT or MARKET, both sides, stop price and/or trailing delta) and cancels from
 * three users. The model below is written from the published rules (Binance spot: price-time priority, fills at the
 * maker's price, holds of a LIMIT / MARKET order; Binance's stop conditions and trailing stop FAQ; and the trigger
 * order, cascade and expiry rules of docs/conditional-orders.md), not from the engine's code. After every command:
 * the same result code, every user's available and held amount of each asset equal to the model's (so totals match
 * and every held amount is explained by an open or pending order of the model), no negative balance, and the assets
 * conserved; at a random point the engine is snapshotted and restored, and the restored copy replays the rest of the
 * stream to the same results and the same state hash.
 *
 * Market: BASE/QUOTE with scale 0, price and qty decimals 0, tick and step 1, no fees, so a fill of q at p moves q
 * BASE and p*q QUOTE. Self-trade prevention NONE (a user's orders may meet; the rules of STP are tested elsewhere).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, parseOrderId } from '../src/engine';
import type { Command, Side, StopKind } from '../src/types';

const USERS = ['u0', 'u1', 'u2'];
const CAP = 100; // triggers per command (MAX_TRIGGERS_PER_COMMAND)

interface MOrder {
  seq: number;
  user: string;
  side: Side;
  price: bigint | null; // null: MARKET
  qty: bigint | null; // null: MARKET BUY by quote
  quote: bigint | null;
  rem: bigint;
  hold: bigint;
  // conditional part
  kind: StopKind | null;
  stop: bigint | null;
  delta: number | null;
  tracking: boolean;
  ref: bigint | null;
  pending: boolean;
}

/** The model exchange (see the file comment). */
class Model {
  avail = new Map<string, bigint>();
  held = new Map<string, bigint>();
  bids: MOrder[] = []; // best first, FIFO
  asks: MOrder[] = [];
  pending: MOrder[] = [];
  last: bigint | null = null;
  seq = 0;
  live = new Map<number, MOrder>();

  key(u: string, a: string): string {
    return `${u}|${a}`;
  }
  get(m: Map<string, bigint>, u: string, a: string): bigint {
    return m.get(this.key(u, a)) ?? 0n;
  }
  add(m: Map<string, bigint>, u: string, a: string, v: bigint): void {
    m.set(this.key(u, a), this.get(m, u, a) + v);
  }
  holdFunds(u: string, a: string, v: bigint): void {
    this.add(this.avail, u, a, -v);
    this.add(this.held, u, a, v);
  }
  releaseFunds(u: string, a: string, v: bigint): void {
    this.add(this.held, u, a, -v);
    this.add(this.avail, u, a, v);
  }
  heldAsset(side: Side): string {
    return side === 'BUY' ? 'QUOTE' : 'BASE';
  }

  /** Cost (QUOTE) and quantity a taker of `qty` would fill against the book now (no limit). */
  walk(side: Side, qty: bigint): { q: bigint; cost: bigint } {
    let left = qty;
    let cost = 0n;
    for (const m of side === 'BUY' ? this.asks : this.bids) {
      if (left === 0n) break;
      const q = left < m.rem ? left : m.rem;
      cost += q * (m.price as bigint);
      left -= q;
    }
    return { q: qty - left, cost };
  }

  rises(o: MOrder): boolean {
    return (o.kind === 'STOP_LOSS') === (o.side === 'BUY');
  }

  place(c: Extract<Command, { type: 'placeOrder' }>): string {
    const { userId: u, side } = c;
    const isMarket = c.orderType === 'MARKET';
    const conditional = c.condition !== undefined;
    const avail = this.get(this.avail, u, this.heldAsset(side));
    let hold: bigint;
    if (side === 'SELL') hold = c.quantity as bigint;
    else if (c.quoteAmount !== undefined) hold = c.quoteAmount;
    else if (!isMarket) hold = (c.price as bigint) * (c.quantity as bigint);
    else if (conditional) {
      const ref = this.last ?? c.stopPrice ?? null;
      if (ref === null) return 'no_liquidity';
      hold = ref * (c.quantity as bigint);
    } else hold = this.walk('BUY', c.quantity as bigint).cost;
    if (avail < hold) return 'insufficient_balance';
    const o: MOrder = {
      seq: 0,
      user: u,
      side,
      price: c.price ?? null,
      qty: c.quantity ?? null,
      quote: c.quoteAmount ?? null,
      rem: c.quantity ?? 0n,
      hold: 0n,
      kind: c.condition ?? null,
      stop: c.stopPrice ?? null,
      delta: c.trailingDelta ?? null,
      tracking: false,
      ref: null,
      pending: false,
    };
    if (conditional) {
      if (o.stop !== null && this.last !== null && (this.rises(o) ? this.last >= o.stop : this.last <= o.stop)) return 'would_trigger_immediately';
      o.seq = ++this.seq;
      o.pending = true;
      o.tracking = o.stop === null;
      o.ref = o.tracking ? this.last : null;
      o.hold = hold;
      this.holdFunds(u, this.heldAsset(side), hold);
      this.pending.push(o);
      this.live.set(o.seq, o);
    } else {
      if (isMarket && (side === 'BUY' ? this.asks : this.bids).length === 0) return 'no_liquidity';
      o.seq = ++this.seq;
      this.live.set(o.seq, o);
      this.work(o, hold);
    }
    this.runTriggers();
    return 'ok';
  }

  /** Hold, match, rest or end (a new order, or a triggered one). */
  work(o: MOrder, hold: bigint): void {
    const asset = this.heldAsset(o.side);
    this.holdFunds(o.user, asset, hold);
    o.hold = hold;
    const book = o.side === 'BUY' ? this.asks : this.bids;
    for (;;) {
      const m = book[0];
      if (m === undefined) break;
      const p = m.price as bigint;
      if (o.price !== null && (o.side === 'BUY' ? p > o.price : p < o.price)) break;
      let q: bigint;
      if (o.quote !== null) {
        q = o.hold / p;
        if (q === 0n) break;
        if (q > m.rem) q = m.rem;
      } else {
        if (o.rem === 0n) break;
        q = o.rem < m.rem ? o.rem : m.rem;
      }
      const buyer = o.side === 'BUY' ? o : m;
      const seller = o.side === 'BUY' ? m : o;
      // delivery out of the holds
      this.add(this.held, seller.user, 'BASE', -q);
      seller.hold -= q;
      this.add(this.avail, buyer.user, 'BASE', q);
      this.add(this.held, buyer.user, 'QUOTE', -(p * q));
      buyer.hold -= p * q;
      this.add(this.avail, seller.user, 'QUOTE', p * q);
      if (o.side === 'BUY' && o.price !== null && o.price > p) {
        this.releaseFunds(o.user, 'QUOTE', (o.price - p) * q);
        o.hold -= (o.price - p) * q;
      }
      if (o.quote === null) o.rem -= q;
      m.rem -= q;
      if (m.rem === 0n) {
        book.shift();
        this.live.delete(m.seq);
      }
      this.last = p;
    }
    if (o.price !== null && o.rem > 0n) {
      const side = o.side === 'BUY' ? this.bids : this.asks;
      let i = 0;
      while (i < side.length && (o.side === 'BUY' ? (side[i] as MOrder).price! >= o.price : (side[i] as MOrder).price! <= o.price)) i++;
      side.splice(i, 0, o);
    } else {
      this.releaseFunds(o.user, asset, o.hold);
      o.hold = 0n;
      this.live.delete(o.seq);
    }
  }

  threshold(o: MOrder): bigint {
    if (!o.tracking) return o.stop as bigint;
    const d = BigInt(o.delta as number);
    return ((o.ref as bigint) * (o.side === 'SELL' ? 10_000n - d : 10_000n + d)) / 10_000n;
  }

  runTriggers(): void {
    let budget = CAP;
    for (;;) {
      const p = this.last;
      if (p === null) return;
      const due: MOrder[] = [];
      const wasTracking = this.pending.filter((o) => o.tracking);
      for (const o of wasTracking) {
        const ref = o.ref;
        if (ref === null || (o.side === 'SELL' ? p > ref : p < ref)) {
          o.ref = p;
          continue;
        }
        const d = BigInt(o.delta as number);
        // Binance trailing FAQ: SELL after a fall of delta from the highest, BUY after a rise of delta from the lowest.
        if (o.side === 'SELL' ? p * 10_000n <= ref * (10_000n - d) : p * 10_000n >= ref * (10_000n + d)) due.push(o);
      }
      for (const o of this.pending.filter((x) => !x.tracking)) {
        const s = o.stop as bigint;
        if (!(this.rises(o) ? p >= s : p <= s)) continue;
        if (o.delta !== null) {
          o.tracking = true;
          o.ref = p;
        } else due.push(o);
      }
      if (due.length === 0) return;
      const dist = (o: MOrder): bigint => {
        const t = this.threshold(o);
        return t > p ? t - p : p - t;
      };
      due.sort((a, b) => (dist(a) !== dist(b) ? (dist(a) > dist(b) ? -1 : 1) : a.seq - b.seq));
      for (const o of due) {
        if (budget === 0) return;
        budget--;
        this.trigger(o);
      }
      if (this.last === p) return;
    }
  }

  trigger(o: MOrder): void {
    this.pending = this.pending.filter((x) => x !== o);
    o.pending = false;
    // a triggered order queues in the book from its trigger: it takes a sequence number for that (never an order id)
    ++this.seq;
    const asset = this.heldAsset(o.side);
    this.releaseFunds(o.user, asset, o.hold);
    o.hold = 0n;
    const avail = this.get(this.avail, o.user, asset);
    let hold: bigint;
    if (o.side === 'SELL') hold = o.qty as bigint;
    else if (o.quote !== null) hold = o.quote;
    else if (o.price !== null) hold = o.price * (o.qty as bigint);
    else hold = this.walk('BUY', o.qty as bigint).cost;
    const empty = (o.side === 'BUY' ? this.asks : this.bids).length === 0;
    if (avail < hold || (o.price === null && empty)) {
      this.live.delete(o.seq); // EXPIRED at its trigger, holding nothing
      return;
    }
    this.work(o, hold);
  }

  cancel(u: string, seq: number): string {
    const o = this.live.get(seq);
    if (o === undefined || o.user !== u) return 'order_not_found';
    if (o.pending) this.pending = this.pending.filter((x) => x !== o);
    else {
      const side = o.side === 'BUY' ? this.bids : this.asks;
      side.splice(side.indexOf(o), 1);
    }
    this.releaseFunds(u, this.heldAsset(o.side), o.hold);
    o.hold = 0n;
    this.live.delete(seq);
    return 'ok';
  }
}

let clock = 1_700_000_000_000;
const cmdBase = (u: string, side: Side): Omit<Extract<Command, { type: 'placeOrder' }>, 'orderType' | 'timeInForce'> => ({
  type: 'placeOrder',
  ts: ++clock,
  userId: u,
  symbol: 'BASE/QUOTE',
  side,
  stp: 'NONE',
});

const user = fc.constantFrom(...USERS);
const side = fc.constantFrom<Side>('BUY', 'SELL');
const price = fc.bigInt({ min: 90n, max: 110n });
const qty = fc.bigInt({ min: 1n, max: 5n });
const kind = fc.constantFrom<StopKind>('STOP_LOSS', 'TAKE_PROFIT');

type Gen =
  | { t: 'limit'; u: string; s: Side; p: bigint; q: bigint }
  | { t: 'market'; u: string; s: Side; q: bigint; byQuote: bigint | null }
  | {
      t: 'stop';
      u: string;
      s: Side;
      k: StopKind;
      stop: bigint | null;
      delta: number | null;
      p: bigint | null;
      q: bigint;
      byQuote: bigint | null;
    }
  | { t: 'cancel'; u: string; back: number };

const genCmd: fc.Arbitrary<Gen> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('limit' as const), u: user, s: side, p: price, q: qty }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('market' as const), u: user, s: side, q: qty, byQuote: fc.option(fc.bigInt({ min: 50n, max: 400n })) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('stop' as const),
      u: user,
      s: side,
      k: kind,
      stop: fc.option(price, { freq: 4 }),
      delta: fc.option(fc.integer({ min: 10, max: 2000 }), { freq: 2 }),
      p: fc.option(price),
      q: qty,
      byQuote: fc.option(fc.bigInt({ min: 50n, max: 400n }), { freq: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('cancel' as const), u: user, back: fc.integer({ min: 0, max: 8 }) }) },
);

/** The engine command of a generated step (`lastSeq`: the latest order id, for cancels). */
function toCommand(g: Gen, lastSeq: number): Command {
  switch (g.t) {
    case 'limit':
      return { ...cmdBase(g.u, g.s), orderType: 'LIMIT', timeInForce: 'GTC', price: g.p, quantity: g.q };
    case 'market':
      return g.s === 'BUY' && g.byQuote !== null
        ? { ...cmdBase(g.u, g.s), orderType: 'MARKET', timeInForce: 'IOC', quoteAmount: g.byQuote }
        : { ...cmdBase(g.u, g.s), orderType: 'MARKET', timeInForce: 'IOC', quantity: g.q };
    case 'stop': {
      const stopPart = {
        condition: g.k,
        ...(g.stop !== null || g.delta === null ? { stopPrice: g.stop ?? 100n } : {}),
        ...(g.delta !== null ? { trailingDelta: g.delta } : {}),
      };
      if (g.p !== null) return { ...cmdBase(g.u, g.s), orderType: 'LIMIT', timeInForce: 'GTC', price: g.p, quantity: g.q, ...stopPart };
      if (g.s === 'BUY' && g.byQuote !== null) return { ...cmdBase(g.u, g.s), orderType: 'MARKET', timeInForce: 'IOC', quoteAmount: g.byQuote, ...stopPart };
      return { ...cmdBase(g.u, g.s), orderType: 'MARKET', timeInForce: 'IOC', quantity: g.q, ...stopPart };
    }
    case 'cancel':
      return { type: 'cancelOrder', ts: ++clock, userId: g.u, orderId: `${Math.max(1, lastSeq - g.back)}` };
  }
}

function newEngine(m: Model): Engine {
  const e = new Engine();
  const run = (c: Command): void => {
    const r = e.execute(c);
    if (r.code !== 'ok') throw new Error(`setup ${c.type}: ${r.code}`);
  };
  run({ type: 'addAsset', ts: ++clock, asset: { code: 'BASE', scale: 0 } });
  run({ type: 'addAsset', ts: ++clock, asset: { code: 'QUOTE', scale: 0 } });
  run({
    type: 'addMarket',
    ts: ++clock,
    market: {
      symbol: 'BASE/QUOTE',
      base: 'BASE',
      quote: 'QUOTE',
      priceDecimals: 0,
      qtyDecimals: 0,
      tickSize: 1n,
      stepSize: 1n,
      minQty: 1n,
      minNotional: 0n,
      makerFeePpm: 0,
      takerFeePpm: 0,
      status: 'TRADING',
    },
  });
  for (const u of USERS) {
    for (const [a, v] of [
      ['BASE', 60n],
      ['QUOTE', 6_000n],
    ] as const) {
      run({ type: 'deposit', ts: ++clock, userId: u, asset: a, account: 'SPOT', amount: v, from: '@faucet' });
      m.add(m.avail, u, a, v);
    }
  }
  return e;
}

/** The engine's balances equal the model's (available and held), none negative, assets conserved. */
function checkAgainstModel(e: Engine, m: Model, step: number): void {
  for (const u of USERS) {
    for (const a of ['BASE', 'QUOTE']) {
      const b = e.balance(u, 'SPOT', a);
      const want = [m.get(m.avail, u, a), m.get(m.held, u, a)];
      if (b.available !== want[0] || b.frozen !== want[1]) {
        throw new Error(`step ${step}: ${u} ${a} engine ${b.available}/${b.frozen}, model ${want[0]}/${want[1]}`);
      }
      if (b.available < 0n || b.frozen < 0n) throw new Error(`step ${step}: negative ${u} ${a}`);
    }
  }
  for (const [asset, total] of e.assetTotals()) if (total !== 0n) throw new Error(`step ${step}: ${asset} sums to ${total}`);
  // every held amount is an open or pending order's: the engine's open orders are the model's live orders
  const open = USERS.flatMap((u) => e.openOrders(u).map((o) => parseOrderId(o.orderId))).sort((x, y) => x - y);
  const live = [...m.live.keys()].sort((x, y) => x - y);
  if (open.join(',') !== live.join(',')) throw new Error(`step ${step}: open ${open.join(',')} vs model ${live.join(',')}`);
}

describe('conditional orders against the model', () => {
  it('balances, holds, open orders and result codes match the model after every command; a restored snapshot replays to the same hash', () => {
    let totalTriggered = 0;
    fc.assert(
      fc.property(fc.array(genCmd, { minLength: 20, maxLength: 160 }), fc.nat(), (gens, cut) => {
        const m = new Model();
        const e = newEngine(m);
        let restored: Engine | null = null;
        const cutAt = cut % gens.length;
        let lastSeq = 0;
        let triggered = 0;
        gens.forEach((g, i) => {
          if (i === cutAt) restored = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
          const cmd = toCommand(g, lastSeq);
          const r = e.execute(cmd);
          const want =
            cmd.type === 'cancelOrder' ? m.cancel(cmd.userId, parseOrderId(cmd.orderId as string)) : m.place(cmd as Extract<Command, { type: 'placeOrder' }>);
          if (r.code !== want)
            throw new Error(`step ${i} ${JSON.stringify(g, (_, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))}: engine ${r.code}, model ${want}`);
          if (r.code === 'ok' && cmd.type === 'placeOrder') lastSeq = parseOrderId(r.order?.orderId as string);
          triggered += r.events.filter((x) => x.type === 'orderUpdated' && x.order.trigger !== undefined && x.order.trigger.workingTs === cmd.ts).length;
          checkAgainstModel(e, m, i);
          if (restored !== null) {
            const r2 = (restored as Engine).execute(cmd);
            expect(r2).toEqual(r);
          }
        });
        expect(restored).not.toBeNull();
        expect((restored as unknown as Engine).stateHash()).toBe(e.stateHash());
        totalTriggered += triggered;
      }),
      { numRuns: 60 },
    );
    // the streams do exercise triggering (not only placement and cancel)
    expect(totalTriggered).toBeGreaterThan(50);
  });
});
