/**
 * Adversary test of convert (docs/earn.md "Convert", spot/convert.ts): three colluding accounts convert back and
 * forth, rest their own orders for each other to convert into, confirm quotes late (a millisecond before, at and
 * after the 10-second expiry), confirm twice, and confirm after the book moved for or against them, while two honest
 * market makers add and cancel orders on two markets (one with no maker fee).
 *
 * The model is written from the published rules only: a quote walks the book best price first, oldest order first,
 * stopping at the user's own order (self-trade prevention); per fill the taker pays the market's taker fee in the
 * asset it receives, rounded up, and the maker its maker fee in the asset it receives, rounded up; a SELL sells whole
 * steps of the base coin, a BUY spends whole steps (what cannot buy one more step stays); the quote's amount is
 * guaranteed until its expiry: the confirm is refused after it (convert_quote_expired) or when the book would now give
 * less (convert_slippage), and a refusal changes nothing; a confirm repeated with the same quote id converts once.
 * Resting orders are POST_ONLY (a crossing one is refused), so every fill comes from a convert.
 *
 * After EVERY step: every asset sums to zero, no balance is negative; every user's SPOT available and frozen of every
 * asset equal the model's (so the converter got exactly what the walk of the book at confirm time states, never more,
 * and at least the quote's guaranteed amount; the makers their price less their fee); per asset, the group holds at
 * most (and exactly) its start plus what these fills entitle it to; the engine's quote equals the model's walk.
 * A canary run where a convert pays its taker fee back is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';
import type { Command, CommandResult, MarketConfig, Side } from '../../src/types';
import { adversaryRuns, checkLedger, findLeak, invariant, playAdversary, show, Tally } from './harness';

const SCALE = 8;
const COIN = 10n ** BigInt(SCALE);
const QUOTE_MS = 10_000;
const GROUP = ['1', '2', '3'];
const MAKERS = ['4', '5'];
const USERS = [...GROUP, ...MAKERS];
const ASSETS = ['BTC', 'ETH', 'USDT'];
const T0 = 1_767_225_600_000;
const RUNS = adversaryRuns(120, 10_000);

/** BTC/USDT: price 0.01, quantity 0.00001 BTC in steps of 10, maker 0.1%, taker 0.2%. ETH/USDT: price 0.001, qty 0.0001, no maker fee. */
const MARKETS: MarketConfig[] = [
  {
    symbol: 'BTC/USDT',
    base: 'BTC',
    quote: 'USDT',
    priceDecimals: 2,
    qtyDecimals: 5,
    tickSize: 1n,
    stepSize: 10n,
    minQty: 10n,
    minNotional: 0n,
    makerFeePpm: 1_000,
    takerFeePpm: 2_000,
    status: 'TRADING',
  },
  {
    symbol: 'ETH/USDT',
    base: 'ETH',
    quote: 'USDT',
    priceDecimals: 3,
    qtyDecimals: 4,
    tickSize: 1n,
    stepSize: 1n,
    minQty: 1n,
    minNotional: 0n,
    makerFeePpm: 0,
    takerFeePpm: 750,
    status: 'TRADING',
  },
];
/** Mid prices (price units) around which orders rest: 60,000.00 and 3,000.000 USDT. */
const MIDS = [6_000_000n, 3_000_000n];
const START: Record<string, bigint> = { BTC: 20n * COIN, ETH: 300n * COIN, USDT: 2_000_000n * COIN };

type Op =
  /** a resting POST_ONLY order: by a maker (u 3, 4) or a group member (u 0..2), `lvl` ticks x `gap` from the mid */
  | { k: 'rest'; u: number; m: number; side: Side; lvl: number; gap: bigint; qty: bigint }
  | { k: 'cancel'; u: number; i: number }
  /** the server quotes a convert of `amount` (amt: 0 raw, 1 all the user has, 2 a tenth of it) */
  | { k: 'quote'; u: number; m: number; side: Side; amt: number; raw: bigint }
  /** the user confirms a quote (an old one, or one confirmed already) */
  | { k: 'confirm'; q: number }
  /** a group member converts and at once converts what it got back */
  | { k: 'flip'; u: number; m: number; side: Side; raw: bigint }
  | { k: 'edge'; q: number; d: -1 | 0 | 1 }
  | { k: 'wait'; ms: number };

const sideArb = fc.constantFrom<Side>('BUY', 'SELL');
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  w(
    10,
    fc.record({
      k: fc.constant('rest' as const),
      u: fc.nat(4),
      m: fc.nat(1),
      side: sideArb,
      lvl: fc.integer({ min: -2, max: 12 }),
      gap: fc.constantFrom(1n, 7n, 150n),
      qty: fc.bigInt({ min: 1n, max: 800n }),
    }),
  ),
  w(3, fc.record({ k: fc.constant('cancel' as const), u: fc.nat(4), i: fc.nat(20) })),
  w(
    8,
    fc.record({
      k: fc.constant('quote' as const),
      u: fc.nat(2),
      m: fc.nat(1),
      side: sideArb,
      amt: fc.constantFrom(0, 0, 0, 1, 2),
      raw: fc.bigInt({ min: 1n, max: 3_000_000n }),
    }),
  ),
  w(8, fc.record({ k: fc.constant('confirm' as const), q: fc.nat(20) })),
  w(3, fc.record({ k: fc.constant('flip' as const), u: fc.nat(2), m: fc.nat(1), side: sideArb, raw: fc.bigInt({ min: 1n, max: 3_000_000n }) })),
  w(4, fc.record({ k: fc.constant('edge' as const), q: fc.nat(20), d: fc.constantFrom(-1 as const, 0 as const, 1 as const) })),
  w(2, fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(1, 500, 3_000, 60_000) })),
);
const gameArb = fc.array(opArb, { minLength: 40, maxLength: 150 });

interface Rest {
  id: string;
  user: string;
  m: number;
  side: Side;
  price: bigint;
  /** remaining quantity, qty units */
  qty: bigint;
  seq: number;
}
interface Fill {
  maker: Rest;
  qty: bigint;
  quote: bigint;
}
interface Walk {
  spent: bigint;
  receive: bigint;
  fee: bigint;
  complete: boolean;
  fills: Fill[];
}
interface Quote {
  u: string;
  m: number;
  side: Side;
  amount: bigint;
  minReceive: bigint;
  expiresTs: number;
  clientId: string;
  /** converted already (a repeat must change nothing) */
  done: boolean;
}

const pow10 = (n: number) => 10n ** BigInt(n);
/** ceil(x * ppm / 10^6): a fee rounded up. */
const feeOf = (x: bigint, ppm: number) => (x * BigInt(ppm) + 999_999n) / 1_000_000n;

/** The published spot and convert rules over a book of resting (POST_ONLY) orders, and everyone's SPOT buckets. */
class ConvertRules {
  readonly avail = new Map<string, bigint>();
  readonly frozen = new Map<string, bigint>();
  readonly book: Rest[] = [];
  private seq = 0;

  constructor() {
    for (const u of USERS) for (const a of ASSETS) this.avail.set(`${u}|${a}`, START[a] as bigint);
  }
  private add(map: Map<string, bigint>, u: string, a: string, d: bigint): void {
    map.set(`${u}|${a}`, (map.get(`${u}|${a}`) ?? 0n) + d);
  }
  /** quote units per (price unit x qty unit), and base units per qty unit */
  nm(c: MarketConfig): bigint {
    return pow10(SCALE - c.priceDecimals - c.qtyDecimals);
  }
  baseMult(c: MarketConfig): bigint {
    return pow10(SCALE - c.qtyDecimals);
  }
  /** What a resting order holds: a BUY its price x quantity in quote units, a SELL its quantity in base units. */
  private holdOf(c: MarketConfig, side: Side, price: bigint, qty: bigint): bigint {
    return side === 'BUY' ? price * qty * this.nm(c) : qty * this.baseMult(c);
  }
  /** Would a POST_ONLY order cross the book (and be refused)? */
  crosses(m: number, side: Side, price: bigint): boolean {
    return this.book.some((o) => o.m === m && o.side !== side && (side === 'BUY' ? o.price <= price : o.price >= price));
  }
  rested(id: string, user: string, m: number, side: Side, price: bigint, qty: bigint): void {
    const c = MARKETS[m] as MarketConfig;
    const h = this.holdOf(c, side, price, qty);
    const a = side === 'BUY' ? c.quote : c.base;
    this.add(this.avail, user, a, -h);
    this.add(this.frozen, user, a, h);
    this.book.push({ id, user, m, side, price, qty, seq: ++this.seq });
  }
  cancelled(id: string): void {
    const i = this.book.findIndex((o) => o.id === id);
    const o = this.book[i] as Rest;
    const c = MARKETS[o.m] as MarketConfig;
    const h = this.holdOf(c, o.side, o.price, o.qty);
    const a = o.side === 'BUY' ? c.quote : c.base;
    this.add(this.avail, o.user, a, h);
    this.add(this.frozen, o.user, a, -h);
    this.book.splice(i, 1);
  }

  /** The walk of a convert now: best price first, oldest first, stopping at the user's own order. */
  walk(u: string, m: number, side: Side, amount: bigint): Walk {
    const c = MARKETS[m] as MarketConfig;
    const nm = this.nm(c);
    const bm = this.baseMult(c);
    const opp = this.book
      .filter((o) => o.m === m && o.side !== side)
      .sort((a, b) => (a.price === b.price ? a.seq - b.seq : (side === 'SELL' ? a.price < b.price : a.price > b.price) ? 1 : -1));
    const out: Walk = { spent: 0n, receive: 0n, fee: 0n, complete: false, fills: [] };
    if (side === 'SELL') {
      if (amount <= 0n || amount % (bm * c.stepSize) !== 0n) return out;
      let left = amount / bm;
      for (const o of opp) {
        if (left === 0n || o.user === u) break;
        const q = left < o.qty ? left : o.qty;
        const quote = o.price * q * nm;
        const f = feeOf(quote, c.takerFeePpm);
        out.receive += quote - f;
        out.fee += f;
        out.spent += q * bm;
        out.fills.push({ maker: o, qty: q, quote });
        left -= q;
      }
      out.complete = left === 0n;
      return out;
    }
    let hold = amount;
    for (const o of opp) {
      const afford = hold / (o.price * nm);
      let q = afford - (afford % c.stepSize);
      if (q === 0n) {
        out.complete = true;
        break;
      }
      if (o.user === u) break;
      if (q > o.qty) q = o.qty;
      const quote = o.price * q * nm;
      const f = feeOf(q * bm, c.takerFeePpm);
      out.receive += q * bm - f;
      out.fee += f;
      out.spent += quote;
      out.fills.push({ maker: o, qty: q, quote });
      hold -= quote;
      if (q < o.qty) {
        // the money ran out inside this order: what is left cannot buy one more step here or further on
        out.complete = true;
        break;
      }
    }
    return out;
  }

  /** Applies an accepted convert's fills: the taker pays and receives, each maker receives less its fee. */
  converted(u: string, m: number, side: Side, wk: Walk): void {
    const c = MARKETS[m] as MarketConfig;
    const bm = this.baseMult(c);
    const [got, gave] = side === 'SELL' ? [c.quote, c.base] : [c.base, c.quote];
    this.add(this.avail, u, gave, -wk.spent);
    this.add(this.avail, u, got, wk.receive);
    for (const f of wk.fills) {
      const o = f.maker;
      const base = f.qty * bm;
      if (o.side === 'BUY') {
        this.add(this.frozen, o.user, c.quote, -f.quote);
        this.add(this.avail, o.user, c.base, base - feeOf(base, c.makerFeePpm));
      } else {
        this.add(this.frozen, o.user, c.base, -base);
        this.add(this.avail, o.user, c.quote, f.quote - feeOf(f.quote, c.makerFeePpm));
      }
      o.qty -= f.qty;
      if (o.qty === 0n) this.book.splice(this.book.indexOf(o), 1);
    }
  }
  get(u: string, a: string): [bigint, bigint] {
    return [this.avail.get(`${u}|${a}`) ?? 0n, this.frozen.get(`${u}|${a}`) ?? 0n];
  }
}

/** A deliberate leak injected after a command (canary runs only). */
type Leak = (e: Engine, cmd: Command, r: CommandResult) => void;
const seen = new Tally();

function play(ops: Op[], leak?: Leak): void {
  const e = new Engine();
  let ts = T0;
  const must = (cmd: Command) => {
    const r = e.execute(cmd);
    if (r.code !== 'ok') throw new Error(`setup ${cmd.type}: ${r.code}`);
    return r;
  };
  for (const a of ASSETS) must({ type: 'addAsset', ts, asset: { code: a, scale: SCALE } });
  for (const c of MARKETS) must({ type: 'addMarket', ts, market: c });
  for (const u of USERS) {
    expect(must({ type: 'registerUser', ts, account: `mail:cv${u}@x.io`, uniqueKeys: [], profile: {} }).userId).toBe(u);
    for (const a of ASSETS) must({ type: 'deposit', ts, userId: u, asset: a, account: 'SPOT', amount: START[a] as bigint, from: '@faucet' });
  }
  const rules = new ConvertRules();
  const quotes: Quote[] = [];
  let quoteSeq = 0;
  let where = () => 'setup';

  const check = () => {
    checkLedger(e, where);
    for (const u of USERS) {
      for (const a of ASSETS) {
        const b = e.balance(u, 'SPOT', a);
        const [av, fr] = rules.get(u, a);
        invariant(
          b.available === av && b.frozen === fr,
          () => `${where()}: user ${u} ${a} ${b.available} + ${b.frozen} frozen, the rules say ${av} + ${fr} (by ${b.available + b.frozen - av - fr})`,
        );
      }
    }
    for (const a of ASSETS) {
      let held = 0n;
      let entitled = 0n;
      for (const u of GROUP) {
        const b = e.balance(u, 'SPOT', a);
        const [av, fr] = rules.get(u, a);
        held += b.available + b.frozen;
        entitled += av + fr;
      }
      invariant(held <= entitled, () => `${where()}: the group holds ${held} ${a}, above the ${entitled} its fills entitle it to`);
    }
  };

  /** Confirms a quote: the rules decide the code and, when accepted, the fills. */
  const confirm = (q: Quote) => {
    const wk = rules.walk(q.u, q.m, q.side, q.amount);
    const c = MARKETS[q.m] as MarketConfig;
    const spendAsset = q.side === 'SELL' ? c.base : c.quote;
    const [have] = rules.get(q.u, spendAsset);
    const expected = q.done
      ? 'duplicate'
      : ts > q.expiresTs
        ? 'convert_quote_expired'
        : wk.receive < q.minReceive
          ? 'convert_slippage'
          : have < q.amount
            ? 'insufficient_balance'
            : 'ok';
    const before = expected === 'convert_quote_expired' || expected === 'convert_slippage' ? e.stateHash() : '';
    const cmd: Command = {
      type: 'convert',
      ts,
      userId: q.u,
      symbol: c.symbol,
      side: q.side,
      amount: q.amount,
      minReceive: q.minReceive,
      expiresTs: q.expiresTs,
      clientId: q.clientId,
    };
    const r = e.execute(cmd);
    if (leak !== undefined) leak(e, cmd, r);
    let got: string = r.code === 'ok' && r.events.length === 0 ? 'duplicate' : r.code;
    // With the book's side empty the engine's market order answers no_liquidity for the slippage refusal.
    if (got === 'no_liquidity' && expected === 'convert_slippage' && !rules.book.some((o) => o.m === q.m && o.side !== q.side)) got = 'convert_slippage';
    seen.add(`convert:${got}`);
    invariant(got === expected, () => `${where()}: convert answered ${got}, the rules say ${expected} (walk ${show(wk)}, quote ${show(q)})`);
    if (expected === 'ok') {
      invariant(wk.receive >= q.minReceive, () => `${where()}: accepted below the guaranteed amount`);
      rules.converted(q.u, q.m, q.side, wk);
      q.done = true;
      if (wk.receive > q.minReceive) seen.add('convert:better than quoted');
    } else if (leak === undefined) {
      invariant(before === '' || e.stateHash() === before, () => `${where()}: a refused convert (${got}) changed the state`);
    }
  };

  /** The server's quote: the engine's preview must be the rules' walk; only a complete walk is quoted. */
  const quote = (u: string, m: number, side: Side, amount: bigint): Quote | null => {
    const c = MARKETS[m] as MarketConfig;
    const wk = rules.walk(u, m, side, amount);
    const p = e.convertPreview(c.symbol, side, u, amount);
    invariant(
      p !== undefined && p.receive === wk.receive && p.spent === wk.spent && p.fee === wk.fee && p.complete === wk.complete,
      () => `${where()}: the engine quotes ${show(p)}, the rules' walk gives ${show({ ...wk, fills: wk.fills.length })}`,
    );
    seen.add(`quote:${wk.complete ? 'complete' : 'refused'}`);
    if (!wk.complete || wk.receive === 0n) return null;
    const q: Quote = { u, m, side, amount, minReceive: wk.receive, expiresTs: ts + QUOTE_MS, clientId: `q${++quoteSeq}`, done: false };
    quotes.push(q);
    return q;
  };
  /** A sell amount on the market's step: `raw` steps (or the share of what the user has), at least one. */
  const amountOf = (u: string, m: number, side: Side, amt: number, raw: bigint): bigint => {
    const c = MARKETS[m] as MarketConfig;
    const have = rules.get(u, side === 'SELL' ? c.base : c.quote)[0];
    if (side === 'BUY') return amt === 1 ? have : amt === 2 ? have / 10n : raw * 100_000n;
    const unit = rules.baseMult(c) * c.stepSize;
    const steps = amt === 1 ? have / unit : amt === 2 ? have / unit / 10n : raw % 600n;
    return (steps > 0n ? steps : 1n) * unit;
  };

  ops.forEach((op, i) => {
    seen.add('steps');
    where = () => `step ${i} ${show(op)} at +${ts - T0} ms`;
    switch (op.k) {
      case 'wait':
        ts += op.ms;
        break;
      case 'edge': {
        const q = quotes[op.q % Math.max(1, quotes.length)];
        const target = q === undefined ? ts + 1 : q.expiresTs + op.d;
        ts = target > ts ? target : ts + 1;
        break;
      }
      case 'rest': {
        const u = USERS[op.u] as string;
        const c = MARKETS[op.m] as MarketConfig;
        const off = BigInt(op.lvl) * op.gap;
        const price = op.side === 'BUY' ? (MIDS[op.m] as bigint) - off : (MIDS[op.m] as bigint) + off;
        const qty = op.qty * c.stepSize;
        const r = e.execute({
          type: 'placeOrder',
          ts,
          userId: u,
          symbol: c.symbol,
          side: op.side,
          orderType: 'LIMIT',
          timeInForce: 'POST_ONLY',
          price,
          quantity: qty,
        });
        const needs = op.side === 'BUY' ? price * qty * rules.nm(c) : qty * rules.baseMult(c);
        const expected = rules.crosses(op.m, op.side, price)
          ? 'would_take_liquidity'
          : rules.get(u, op.side === 'BUY' ? c.quote : c.base)[0] < needs
            ? 'insufficient_balance'
            : 'ok';
        seen.add(`rest:${r.code}`);
        invariant(r.code === expected, () => `${where()}: POST_ONLY answered ${r.code}, the rules say ${expected}`);
        if (r.code === 'ok') rules.rested((r.order as { orderId: string }).orderId, u, op.m, op.side, price, qty);
        break;
      }
      case 'cancel': {
        const u = USERS[op.u] as string;
        const mine = rules.book.filter((o) => o.user === u);
        const o = mine[op.i % Math.max(1, mine.length)];
        if (o === undefined) break;
        const r = e.execute({ type: 'cancelOrder', ts, userId: u, orderId: o.id });
        invariant(r.code === 'ok', () => `${where()}: cancel answered ${r.code}`);
        rules.cancelled(o.id);
        break;
      }
      case 'quote':
        quote(GROUP[op.u] as string, op.m, op.side, amountOf(GROUP[op.u] as string, op.m, op.side, op.amt, op.raw));
        break;
      case 'confirm': {
        const q = quotes[quotes.length - 1 - (op.q % Math.max(1, quotes.length))];
        if (q !== undefined) confirm(q);
        break;
      }
      case 'flip': {
        // Convert and convert the proceeds straight back: the round trip can only lose the fees and the spread.
        const u = GROUP[op.u] as string;
        const q1 = quote(u, op.m, op.side, amountOf(u, op.m, op.side, 0, op.raw));
        if (q1 === null) break;
        confirm(q1);
        check();
        if (!q1.done) break;
        const back: Side = op.side === 'SELL' ? 'BUY' : 'SELL';
        const c = MARKETS[op.m] as MarketConfig;
        const unit = rules.baseMult(c) * c.stepSize;
        const amount = back === 'BUY' ? q1.minReceive : (q1.minReceive / unit) * unit;
        if (amount === 0n) break;
        const q2 = quote(u, op.m, back, amount);
        if (q2 !== null) confirm(q2);
        seen.add('flip');
        break;
      }
    }
    check();
  });
}

describe('adversary: convert gives no more than the book walk its quote states', () => {
  it(`three accounts converting back and forth against two market makers (${RUNS} plays)`, () => {
    seen.clear();
    playAdversary('convert', gameArb, RUNS, (ops) => play(ops));
    seen.report('convert');
    if (RUNS >= 50) {
      for (const k of [
        'convert:ok',
        'convert:duplicate',
        'convert:convert_quote_expired',
        'convert:convert_slippage',
        'quote:refused',
        'flip',
        'rest:would_take_liquidity',
      ])
        expect(seen.get(k), k).toBeGreaterThan(0);
    }
  }, 120_000);

  it('canary: an engine that pays the taker fee of a convert back is caught', () => {
    const leak: Leak = (e, cmd, r) => {
      if (cmd.type !== 'convert') return;
      for (const ev of r.events)
        if (ev.type === 'trade' && ev.takerFee > 0n)
          e.execute({ type: 'deposit', ts: cmd.ts, userId: ev.takerUserId, asset: ev.takerFeeAsset, account: 'SPOT', amount: ev.takerFee, from: '@fee' });
    };
    expect(findLeak(gameArb, 200, 13, (ops) => play(ops, leak))).toMatch(/the rules say|above the/);
  });
});
