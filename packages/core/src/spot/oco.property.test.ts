/**
 * OCO order lists against a model of Binance's published rules (fast-check; Binance `POST /api/v3/orderList/oco`:
 * the leg types and price relations, "when one order is triggered or filled the other is canceled", the funds of an
 * OCO held once: the quantity for a SELL, for a BUY the larger of its legs' needs). Random streams of OCO placements
 * by two users (legs chosen around the model's last price, so that some break the relations), plain orders by the same
 * users trying to spend what their lists hold, orders of two other users moving the price, and cancels of legs and
 * lists, some repeating a list client id (a retry). The model does not look at the engine's split of a list's hold: it follows the trades the engine reports
 * (balances and last price) and the lists' legs, and asserts after every command:
 * - the result code of every placement as the rules give it (invalid_order, insufficient_balance against the
 *   model's free balance, would_take_liquidity against the book, would_trigger_immediately, else ok), and a retry
 *   with an accepted list's client id answered with that list, no events;
 * - at most one leg of any list ever executes (fills or triggers), and once a leg executed or ended the other is
 *   not open; a list with both legs open has no stop condition met at the last price;
 * - every user's frozen amount of each asset equals the model's: the Binance hold of each list still executing plus
 *   what each other open order needs (a plain order by one of these users is accepted only within the free balance);
 * - every user's balance equals the start plus the reported trades (no fees), no bucket negative, every asset sums to 0;
 * and at a random point the engine is snapshotted and restored, the copy replaying the rest to the same results and hash.
 *
 * Market: BASE/QUOTE with scale 0, price and qty decimals 0, tick and step 1, no fees, so a fill of q at p moves q
 * BASE and p*q QUOTE.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult, OcoLeg, OcoLegType, OrderView, Side } from '../types';

const OCO_USERS = ['o0', 'o1'];
const MOVERS = ['m0', 'm1'];
const START_BASE = 12n;
const START_QUOTE = 1_500n;

/** A generated step; prices of OCO legs are offsets from the last price at the time the step runs. */
type Gen =
  | { t: 'move'; u: string; s: Side; p: bigint; q: bigint; ioc: boolean }
  | { t: 'plain'; u: string; s: Side; p: bigint; q: bigint }
  | { t: 'stop'; u: string; s: Side; tp: boolean; d: bigint; q: bigint }
  | { t: 'oco'; u: string; s: Side; q: bigint; tp: number; sl: number; dTp: bigint; dSl: bigint; lTp: bigint; lSl: bigint; lcid: number | null }
  | { t: 'cancel'; u: string; back: number; list: boolean };

const side = fc.constantFrom<Side>('BUY', 'SELL');
const genCmd: fc.Arbitrary<Gen> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      t: fc.constant('move' as const),
      u: fc.constantFrom(...MOVERS),
      s: side,
      p: fc.bigInt({ min: 85n, max: 115n }),
      q: fc.bigInt({ min: 1n, max: 4n }),
      ioc: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('stop' as const),
      u: fc.constantFrom(...MOVERS),
      s: side,
      tp: fc.boolean(),
      d: fc.bigInt({ min: -2n, max: 8n }),
      q: fc.bigInt({ min: 1n, max: 4n }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('plain' as const),
      u: fc.constantFrom(...OCO_USERS),
      s: side,
      p: fc.bigInt({ min: 85n, max: 115n }),
      q: fc.bigInt({ min: 1n, max: 12n }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('oco' as const),
      u: fc.constantFrom(...OCO_USERS),
      s: side,
      q: fc.bigInt({ min: 1n, max: 6n }),
      tp: fc.integer({ min: 0, max: 2 }), // LIMIT_MAKER, TAKE_PROFIT, TAKE_PROFIT_LIMIT
      sl: fc.integer({ min: 0, max: 1 }), // STOP_LOSS, STOP_LOSS_LIMIT
      dTp: fc.bigInt({ min: -2n, max: 10n }), // distance from the last price, on the take-profit side
      dSl: fc.bigInt({ min: -2n, max: 10n }), // distance from the last price, on the stop-loss side
      lTp: fc.bigInt({ min: -3n, max: 3n }), // a _LIMIT leg's price minus its stop
      lSl: fc.bigInt({ min: -3n, max: 3n }),
      lcid: fc.option(fc.integer({ min: 0, max: 3 }), { freq: 2 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('cancel' as const), u: fc.constantFrom(...OCO_USERS), back: fc.integer({ min: 0, max: 6 }), list: fc.boolean() }),
  },
);

/** One OCO list as the model sees it. */
interface MList {
  id: string;
  user: string;
  side: Side;
  qty: bigint;
  /** Binance's hold of the whole list (asset units), fixed at placement */
  hold: bigint;
  legs: [string, string];
  legTypes: [OcoLegType, OcoLegType];
  stops: [bigint | null, bigint | null];
  /** legs that filled or triggered at some point */
  executed: Set<string>;
  /** a leg executed or ended: the list is over (the other must not be open) */
  over: boolean;
}

const SL_TYPES: OcoLegType[] = ['STOP_LOSS', 'STOP_LOSS_LIMIT'];
const TP_TYPES: OcoLegType[] = ['LIMIT_MAKER', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'];

class Model {
  last: bigint | null = null;
  total = new Map<string, bigint>();
  lists = new Map<string, MList>();
  legOf = new Map<string, MList>();
  /** a pending conditional order's hold, fixed at placement (Binance: a MARKET BUY locks at the current price) */
  pendingHold = new Map<string, bigint>();
  /** user|listClientOrderId -> the accepted list's id */
  byClient = new Map<string, string>();

  bal(u: string, a: string): bigint {
    return this.total.get(`${u}|${a}`) ?? 0n;
  }
  add(u: string, a: string, v: bigint): void {
    this.total.set(`${u}|${a}`, this.bal(u, a) + v);
  }

  /** What an order of the view needs held (BUY LIMIT price x remaining quote, SELL remaining base). */
  static need(o: OrderView): bigint {
    const rem = (o.quantity as bigint) - o.filledQty;
    return o.side === 'BUY' ? (o.price as bigint) * rem : rem;
  }

  /** The model's frozen amount of `asset` for `u`: lists still executing hold their Binance hold, the rest their need. */
  frozen(e: Engine, u: string, asset: string): bigint {
    let f = 0n;
    for (const l of this.lists.values()) if (l.user === u && !l.over && (l.side === 'BUY' ? 'QUOTE' : 'BASE') === asset) f += l.hold;
    for (const o of e.openOrders(u)) {
      const l = this.legOf.get(o.orderId);
      if (l !== undefined && !l.over) continue;
      if ((o.side === 'BUY' ? 'QUOTE' : 'BASE') !== asset) continue;
      f += o.trigger !== undefined && o.trigger.workingTs === null ? (this.pendingHold.get(o.orderId) as bigint) : Model.need(o);
    }
    return f;
  }

  /** Follows one accepted command's events: trades move balances and the last price; legs that executed or ended. */
  observe(r: CommandResult): void {
    for (const ev of r.events) {
      if (ev.type === 'trade') {
        const buyer = ev.takerSide === 'BUY' ? ev.takerUserId : ev.makerUserId;
        const seller = ev.takerSide === 'BUY' ? ev.makerUserId : ev.takerUserId;
        this.add(buyer, 'BASE', ev.quantity);
        this.add(buyer, 'QUOTE', -ev.price * ev.quantity);
        this.add(seller, 'BASE', -ev.quantity);
        this.add(seller, 'QUOTE', ev.price * ev.quantity);
        this.last = ev.price;
      } else if (ev.type === 'orderUpdated') {
        const l = this.legOf.get(ev.order.orderId);
        if (l === undefined) continue;
        const o = ev.order;
        if (o.filledQty > 0n || (o.trigger !== undefined && o.trigger.workingTs !== null)) l.executed.add(o.orderId);
        if (o.filledQty > 0n || o.trigger?.workingTs != null || o.status !== 'NEW') l.over = true;
      }
    }
  }
}

function legHoldNeed(side: Side, l: OcoLeg, qty: bigint, last: bigint | null): bigint {
  if (side === 'SELL') return qty;
  return (l.price ?? last ?? (l.stopPrice as bigint)) * qty;
}

describe('OCO order lists against the model', () => {
  it('at most one leg executes, holds are the Binance hold, balances follow the trades; a restored snapshot replays to the same hash', () => {
    fc.assert(
      fc.property(fc.array(genCmd, { minLength: 20, maxLength: 120 }), fc.nat(), (gens, cut) => {
        let clock = 1_000;
        const e = new Engine();
        const m = new Model();
        const setup: Command[] = [
          { type: 'addAsset', ts: ++clock, asset: { code: 'BASE', scale: 0 } },
          { type: 'addAsset', ts: ++clock, asset: { code: 'QUOTE', scale: 0 } },
          {
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
          },
        ];
        for (const u of [...OCO_USERS, ...MOVERS]) {
          const big = MOVERS.includes(u) ? 1_000n : 1n;
          setup.push({ type: 'deposit', ts: ++clock, userId: u, asset: 'BASE', account: 'SPOT', amount: START_BASE * big, from: '@faucet' });
          setup.push({ type: 'deposit', ts: ++clock, userId: u, asset: 'QUOTE', account: 'SPOT', amount: START_QUOTE * big, from: '@faucet' });
          m.add(u, 'BASE', START_BASE * big);
          m.add(u, 'QUOTE', START_QUOTE * big);
        }
        const lo = (u: string, s: Side, p: bigint, q: bigint, tif: 'GTC' | 'IOC' = 'GTC'): Command => ({
          type: 'placeOrder',
          ts: ++clock,
          userId: u,
          symbol: 'BASE/QUOTE',
          side: s,
          orderType: 'LIMIT',
          timeInForce: tif,
          price: p,
          quantity: q,
          stp: 'NONE',
        });
        setup.push(lo('m0', 'SELL', 100n, 1n), lo('m1', 'BUY', 100n, 1n));
        for (const c of setup) m.observe(e.execute(c));
        expect(m.last).toBe(100n);

        const cmds: Command[] = [];
        const results: CommandResult[] = [];
        let snap: string | null = null;
        for (const g of gens) {
          if (snap === null && cmds.length === cut % gens.length) snap = JSON.stringify(e.snapshot());
          let cmd: Command;
          let expected: string | null = null;
          let list: Omit<MList, 'id' | 'legs'> | null = null;
          let stopHold: bigint | null = null;
          let dupOf: string | null = null;
          if (g.t === 'move') cmd = lo(g.u, g.s, g.p, g.q, g.ioc ? 'IOC' : 'GTC');
          else if (g.t === 'stop') {
            // another user's conditional MARKET order, so that a trigger round can hold it and an OCO leg together
            const L = m.last as bigint;
            const rises = g.tp === (g.s === 'SELL'); // SELL take-profit and BUY stop-loss trigger on a rise
            const stop = rises ? L + g.d : L - g.d;
            cmd = {
              type: 'placeOrder',
              ts: ++clock,
              userId: g.u,
              symbol: 'BASE/QUOTE',
              side: g.s,
              orderType: 'MARKET',
              timeInForce: 'IOC',
              quantity: g.q,
              condition: g.tp ? 'TAKE_PROFIT' : 'STOP_LOSS',
              stopPrice: stop,
              stp: 'NONE',
            };
            expected = (rises ? L >= stop : L <= stop) ? 'would_trigger_immediately' : 'ok';
            stopHold = g.s === 'SELL' ? g.q : g.q * L;
          } else if (g.t === 'plain') {
            cmd = lo(g.u, g.s, g.p, g.q);
            const asset = g.s === 'BUY' ? 'QUOTE' : 'BASE';
            const free = m.bal(g.u, asset) - m.frozen(e, g.u, asset);
            expected = (g.s === 'BUY' ? g.p * g.q : g.q) > free ? 'insufficient_balance' : 'ok';
          } else if (g.t === 'oco') {
            const L = m.last as bigint;
            const sell = g.s === 'SELL';
            // SELL: take-profit side above, stop-loss below; BUY: stop-loss above, take-profit below.
            const tpType = TP_TYPES[g.tp] as OcoLegType;
            const slType = SL_TYPES[g.sl] as OcoLegType;
            const tpKey = sell ? L + g.dTp : L - g.dTp;
            const slKey = sell ? L - g.dSl : L + g.dSl;
            const tp: OcoLeg = tpType === 'LIMIT_MAKER' ? { type: tpType, price: tpKey } : { type: tpType, stopPrice: tpKey };
            if (tpType === 'TAKE_PROFIT_LIMIT') tp.price = tpKey + g.lTp;
            const sl: OcoLeg = { type: slType, stopPrice: slKey };
            if (slType === 'STOP_LOSS_LIMIT') sl.price = slKey + g.lSl;
            const above = sell ? tp : sl;
            const below = sell ? sl : tp;
            cmd = {
              type: 'placeOrderList',
              ts: ++clock,
              userId: g.u,
              symbol: 'BASE/QUOTE',
              contingencyType: 'OCO',
              side: g.s,
              quantity: g.q,
              above,
              below,
              stp: 'NONE',
              ...(g.lcid !== null ? { listClientOrderId: `c${g.lcid}` } : {}),
            };
            // Binance's rules, in the engine's documented order of checks.
            const key = (l: OcoLeg): bigint => (l.type === 'LIMIT_MAKER' ? l.price : l.stopPrice) as bigint;
            const asset = sell ? 'BASE' : 'QUOTE';
            const hold = sell ? g.q : [above, below].map((l) => legHoldNeed(g.s, l, g.q, L)).reduce((a, b) => (a > b ? a : b));
            const free = m.bal(g.u, asset) - m.frozen(e, g.u, asset);
            const book = e.depth('BASE/QUOTE', 1);
            const bestOpp = (sell ? book.bids : book.asks)[0]?.price ?? null;
            const lmCrosses = tp.type === 'LIMIT_MAKER' && bestOpp !== null && (sell ? bestOpp >= tpKey : bestOpp <= tpKey);
            // a stop condition met at the last price: SELL take-profit last >= stop, stop-loss last <= stop; BUY mirrored
            const stopHit = (l: OcoLeg, isTp: boolean): boolean =>
              l.type !== 'LIMIT_MAKER' && (isTp === sell ? L >= (l.stopPrice as bigint) : L <= (l.stopPrice as bigint));
            if (key(above) <= key(below) || (tp.type === 'LIMIT_MAKER' && (sell ? tpKey <= L : tpKey >= L))) expected = 'invalid_order';
            else if ([above, below].some((l) => (l.price !== undefined && l.price <= 0n) || (l.stopPrice !== undefined && l.stopPrice <= 0n)))
              expected = 'price_not_on_tick';
            else if (free < hold) expected = 'insufficient_balance';
            else if (lmCrosses) expected = 'would_take_liquidity';
            else if (stopHit(tp, true) || stopHit(sl, false)) expected = 'would_trigger_immediately';
            else expected = 'ok';
            // a retry: the same user's list client id names an accepted list (all are retained here) -> that list
            dupOf = g.lcid !== null ? (m.byClient.get(`${g.u}|c${g.lcid}`) ?? null) : null;
            if (dupOf !== null) expected = 'ok';
            list = {
              user: g.u,
              side: g.s,
              qty: g.q,
              hold,
              legTypes: [above.type, below.type],
              stops: [above.stopPrice ?? null, below.stopPrice ?? null],
              executed: new Set(),
              over: false,
            };
          } else {
            const open = e.openOrders(g.u);
            const mine = [...m.lists.values()].filter((l) => l.user === g.u);
            if (g.list && mine.length > 0) {
              const l = mine[mine.length - 1 - (g.back % mine.length)] as MList;
              cmd = { type: 'cancelOrderList', ts: ++clock, userId: g.u, orderListId: l.id };
            } else if (open.length > 0) {
              cmd = { type: 'cancelOrder', ts: ++clock, userId: g.u, orderId: (open[g.back % open.length] as OrderView).orderId };
            } else continue;
          }
          const r = e.execute(cmd);
          cmds.push(cmd);
          results.push(r);
          if (expected !== null)
            expect(
              r.code,
              JSON.stringify(cmd, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v)),
            ).toBe(expected);
          if (dupOf !== null) {
            expect(r.duplicate).toBe(true);
            expect(r.events).toEqual([]);
            expect(r.orderList?.orderListId).toBe(dupOf);
          } else if (r.code === 'ok' && list !== null && r.orderList !== undefined && g.t === 'oco' && g.lcid !== null) {
            m.byClient.set(`${g.u}|c${g.lcid}`, r.orderList.orderListId);
          }
          if (r.code === 'ok' && stopHold !== null) m.pendingHold.set(r.order?.orderId as string, stopHold);
          if (r.code === 'ok' && list !== null && r.orderList !== undefined && dupOf === null) {
            const ml: MList = { ...list, id: r.orderList.orderListId, legs: [r.orderList.aboveOrderId, r.orderList.belowOrderId] };
            m.lists.set(ml.id, ml);
            for (const id of ml.legs) m.legOf.set(id, ml);
          }
          m.observe(r);
          check(e, m);
        }
        // The snapshot taken mid-stream, restored, replays the rest to the same results and state.
        if (snap !== null) {
          const restored = Engine.restore(JSON.parse(snap));
          const from = cut % gens.length;
          for (let i = from; i < cmds.length; i++) expect(restored.execute(cmds[i] as Command)).toEqual(results[i]);
          expect(restored.stateHash()).toBe(e.stateHash());
        }
      }),
      { numRuns: 150 },
    );
  });
});

/** The invariants of the file comment, after one command. */
function check(e: Engine, m: Model): void {
  const open = new Map<string, OrderView>();
  for (const u of [...OCO_USERS, ...MOVERS]) {
    for (const o of e.openOrders(u)) open.set(o.orderId, o);
    for (const a of ['BASE', 'QUOTE']) {
      const b = e.balance(u, 'SPOT', a);
      expect(b.available >= 0n && b.frozen >= 0n, `${u} ${a} negative`).toBe(true);
      expect(b.available + b.frozen, `${u} ${a} total`).toBe(m.bal(u, a));
      expect(b.frozen, `${u} ${a} frozen`).toBe(m.frozen(e, u, a));
    }
  }
  for (const [asset, total] of e.assetTotals()) expect(total, asset).toBe(0n);
  const L = m.last as bigint;
  for (const l of m.lists.values()) {
    expect(l.executed.size, `list ${l.id}: both legs executed`).toBeLessThanOrEqual(1);
    const live = l.legs.filter((id) => open.has(id));
    if (l.over) {
      expect(live.length, `list ${l.id}: over with two live legs`).toBeLessThanOrEqual(1);
      for (const id of live) expect(l.executed.has(id) || l.executed.size === 0, `list ${l.id}: the cancelled leg is live`).toBe(true);
    } else {
      expect(live.length, `list ${l.id}: executing without both legs`).toBe(2);
      // neither stop condition holds at the last price (else it would have triggered)
      for (let i = 0; i < 2; i++) {
        const t = l.legTypes[i] as OcoLegType;
        const stop = l.stops[i];
        if (t === 'LIMIT_MAKER' || stop === null || stop === undefined) continue;
        const isTp = t === 'TAKE_PROFIT' || t === 'TAKE_PROFIT_LIMIT';
        const hit = isTp === (l.side === 'SELL') ? L >= stop : L <= stop;
        expect(hit, `list ${l.id}: leg ${i} due at ${L} but pending`).toBe(false);
      }
    }
  }
}
