/**
 * Model-based test of the peer-to-peer fiat (OTC) commands: random streams of merchant applications,
 * reviews, suspensions and leaves, ads published, updated, paused and closed, takes (with repeated client ids),
 * payments, releases, buyer cancels, time-outs, appeals, withdrawn appeals and operator resolutions, with time moving
 * by minutes and days, run against the engine and against a deliberately simple model written here from the rules in
 * otc/types.ts. After every command: the same result code; every user's OTC balance equals the model's; escrow
 * (OTC frozen) equals deposit + SELL ads' remainders + the open orders the user sells, per user; every USDT conserved
 * (the asset sums to zero); no order released twice (the model's completed set); open orders and open ads equal the
 * model's (id, state, remaining). Halfway the engine is replaced by its snapshot's restore, which must change nothing.
 * OTC_RUNS (default 100; 1,000 pass) and OTC_SEED tune the run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { Command } from '../src/types';

const USERS = ['1', '2', '3', '4'];
const MIN = 60_000;
const DAY = 86_400_000;
const SCALE = 4;
const START = 10_000n * 10n ** BigInt(SCALE);
const DEPOSIT = 500n * 10n ** BigInt(SCALE);
const APPEAL_AFTER = 5 * MIN;
const CANCEL_LIMIT = 2;
const WINDOW = 15 * MIN;
const PRICES = [700n, 720n, 733n];

type Op =
  | { k: 'apply'; u: number }
  | { k: 'review'; u: number; approve: boolean }
  | { k: 'status'; u: number; suspend: boolean }
  | { k: 'leave'; u: number }
  | { k: 'publish'; u: number; sell: boolean; qty: bigint; price: number; min: bigint; max: bigint; client: number }
  | { k: 'update'; a: number; u: number; remaining: bigint }
  | { k: 'adStatus'; a: number; u: number; status: 'ONLINE' | 'PAUSED' | 'CLOSED'; byOperator: boolean }
  | { k: 'take'; a: number; u: number; fiat: bigint; client: number }
  | { k: 'paid'; o: number; who: number }
  | { k: 'release'; o: number; who: number }
  | { k: 'cancel'; o: number; who: number }
  | { k: 'timeout'; o: number }
  | { k: 'appeal'; o: number; who: number }
  | { k: 'unappeal'; o: number; who: number }
  | { k: 'resolve'; o: number; release: boolean }
  | { k: 'wait'; minutes: number }
  | { k: 'day' };

/** who: 0 buyer, 1 seller, 2 someone else (a user not in the order). */
const who = fc.constantFrom(0, 0, 1, 1, 2);
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { depthSize: 'small' },
  w(2, fc.record({ k: fc.constant('apply' as const), u: fc.nat(3) })),
  w(2, fc.record({ k: fc.constant('review' as const), u: fc.nat(3), approve: fc.nat(4).map((n) => n > 0) })),
  w(1, fc.record({ k: fc.constant('status' as const), u: fc.nat(3), suspend: fc.boolean() })),
  w(1, fc.record({ k: fc.constant('leave' as const), u: fc.nat(3) })),
  w(
    3,
    fc.record({
      k: fc.constant('publish' as const),
      u: fc.nat(3),
      sell: fc.boolean(),
      qty: fc.bigInt({ min: 1n, max: 2_000_000n }),
      price: fc.nat(2),
      min: fc.bigInt({ min: 1n, max: 20_000n }),
      max: fc.bigInt({ min: 20_000n, max: 200_000n }),
      client: fc.nat(3),
    }),
  ),
  w(2, fc.record({ k: fc.constant('update' as const), a: fc.nat(5), u: fc.nat(3), remaining: fc.bigInt({ min: 0n, max: 3_000_000n }) })),
  w(
    2,
    fc.record({
      k: fc.constant('adStatus' as const),
      a: fc.nat(5),
      u: fc.nat(3),
      status: fc.constantFrom('ONLINE' as const, 'PAUSED' as const, 'CLOSED' as const),
      byOperator: fc.nat(4).map((n) => n === 0),
    }),
  ),
  w(10, fc.record({ k: fc.constant('take' as const), a: fc.nat(5), u: fc.nat(3), fiat: fc.bigInt({ min: 1n, max: 150_000n }), client: fc.nat(7) })),
  w(6, fc.record({ k: fc.constant('paid' as const), o: fc.nat(5), who })),
  w(5, fc.record({ k: fc.constant('release' as const), o: fc.nat(5), who })),
  w(5, fc.record({ k: fc.constant('cancel' as const), o: fc.nat(5), who })),
  w(2, fc.record({ k: fc.constant('timeout' as const), o: fc.nat(5) })),
  w(4, fc.record({ k: fc.constant('appeal' as const), o: fc.nat(5), who })),
  w(2, fc.record({ k: fc.constant('unappeal' as const), o: fc.nat(5), who })),
  w(3, fc.record({ k: fc.constant('resolve' as const), o: fc.nat(5), release: fc.boolean() })),
  w(3, fc.record({ k: fc.constant('wait' as const), minutes: fc.constantFrom(1, 4, 5, 6, 15, 16) })),
  w(1, fc.constant({ k: 'day' as const })),
);

/** Every run starts with two approved merchants (users 1 and 2), each with a SELL and a BUY ad. */
const PRELUDE: Op[] = [
  { k: 'apply', u: 0 },
  { k: 'apply', u: 1 },
  { k: 'review', u: 0, approve: true },
  { k: 'review', u: 1, approve: true },
  { k: 'publish', u: 0, sell: true, qty: 5_000_000n, price: 1, min: 1_000n, max: 150_000n, client: 9 },
  { k: 'publish', u: 0, sell: false, qty: 5_000_000n, price: 0, min: 1_000n, max: 150_000n, client: 10 },
  { k: 'publish', u: 1, sell: true, qty: 5_000_000n, price: 2, min: 1_000n, max: 150_000n, client: 9 },
  { k: 'publish', u: 1, sell: false, qty: 5_000_000n, price: 1, min: 1_000n, max: 150_000n, client: 10 },
];

interface MAd {
  id: string;
  user: string;
  sell: boolean;
  price: bigint;
  min: bigint;
  max: bigint;
  total: bigint;
  remaining: bigint;
  status: 'ONLINE' | 'PAUSED' | 'CLOSED';
}
interface MOrder {
  id: string;
  ad: string;
  maker: string;
  buyer: string;
  seller: string;
  qty: bigint;
  state: 'PENDING_PAYMENT' | 'PAID' | 'APPEAL' | 'COMPLETED' | 'CANCELLED';
  deadline: number;
  paidAt: number;
  appealBy: string;
}

/** The independent model: plain maps and the rules of otc/types.ts, written without the engine's code. */
class Model {
  avail = new Map(USERS.map((u) => [u, START]));
  frozen = new Map(USERS.map((u) => [u, 0n]));
  merchant = new Map<string, { state: string; deposit: bigint }>();
  ads = new Map<string, MAd>();
  orders = new Map<string, MOrder>();
  completed = new Set<string>();
  adClients = new Set<string>();
  orderClients = new Map<string, string>();
  cancels = new Map<string, { day: number; n: number }>();
  adSeq = 0;
  orderSeq = 0;

  adId(i: number): string {
    const ids = [...this.ads.keys()];
    return ids.length === 0 ? '99' : ids[i % ids.length]!;
  }
  orderId(i: number): string {
    const ids = [...this.orders.keys()];
    return ids.length === 0 ? '99' : ids[i % ids.length]!;
  }
  /** the user acting as `w` (0 buyer, 1 seller, 2 a third user) in an order */
  actor(o: MOrder | undefined, w: number): string {
    if (o === undefined) return USERS[w]!;
    if (w === 0) return o.buyer;
    if (w === 1) return o.seller;
    return USERS.find((u) => u !== o.buyer && u !== o.seller)!;
  }
  private hold(u: string, n: bigint): void {
    this.avail.set(u, this.avail.get(u)! - n);
    this.frozen.set(u, this.frozen.get(u)! + n);
  }
  private release(u: string, n: bigint): void {
    this.hold(u, -n);
  }
  private shDay(ts: number): number {
    return Math.floor((ts + 8 * 3_600_000) / DAY);
  }
  private active(u: string): boolean {
    return this.merchant.get(u)?.state === 'ACTIVE';
  }
  private back(o: MOrder): void {
    const a = this.ads.get(o.ad);
    if (a !== undefined) {
      a.remaining += o.qty;
      if (!a.sell) this.release(o.seller, o.qty);
    } else {
      this.release(o.seller, o.qty);
    }
    o.state = 'CANCELLED';
    this.orders.delete(o.id);
  }
  private settle(o: MOrder): void {
    expect(this.completed.has(o.id), `order ${o.id} released twice`).toBe(false);
    this.completed.add(o.id);
    this.frozen.set(o.seller, this.frozen.get(o.seller)! - o.qty);
    this.avail.set(o.buyer, this.avail.get(o.buyer)! + o.qty);
    o.state = 'COMPLETED';
    this.orders.delete(o.id);
  }

  apply(op: Op, ts: number): string {
    switch (op.k) {
      case 'wait':
      case 'day':
        return 'ok';
      case 'apply': {
        const u = USERS[op.u]!;
        const m = this.merchant.get(u);
        if (m !== undefined && m.state !== 'REJECTED' && m.state !== 'LEFT') return 'otc_merchant_state_invalid';
        if (this.avail.get(u)! < DEPOSIT) return 'insufficient_balance';
        this.hold(u, DEPOSIT);
        this.merchant.set(u, { state: 'PENDING', deposit: DEPOSIT });
        return 'ok';
      }
      case 'review': {
        const m = this.merchant.get(USERS[op.u]!);
        if (m === undefined) return 'otc_not_merchant';
        if (m.state !== 'PENDING') return 'otc_merchant_state_invalid';
        if (op.approve) m.state = 'ACTIVE';
        else {
          this.release(USERS[op.u]!, m.deposit);
          m.deposit = 0n;
          m.state = 'REJECTED';
        }
        return 'ok';
      }
      case 'status': {
        const m = this.merchant.get(USERS[op.u]!);
        if (m === undefined) return 'otc_not_merchant';
        if (m.state !== (op.suspend ? 'ACTIVE' : 'SUSPENDED')) return 'otc_merchant_state_invalid';
        m.state = op.suspend ? 'SUSPENDED' : 'ACTIVE';
        return 'ok';
      }
      case 'leave': {
        const u = USERS[op.u]!;
        const m = this.merchant.get(u);
        if (m === undefined) return 'otc_not_merchant';
        if (m.state !== 'ACTIVE' && m.state !== 'SUSPENDED') return 'otc_merchant_state_invalid';
        if ([...this.ads.values()].some((a) => a.user === u) || [...this.orders.values()].some((o) => o.maker === u)) return 'otc_ads_open';
        this.release(u, m.deposit);
        m.deposit = 0n;
        m.state = 'LEFT';
        return 'ok';
      }
      case 'publish': {
        const u = USERS[op.u]!;
        const ck = `${u}:${op.client}`;
        if (this.adClients.has(ck)) return 'ok';
        if (op.min > op.max) return 'invalid_order';
        if (!this.active(u)) return 'otc_not_merchant';
        if (op.sell) {
          if (this.avail.get(u)! < op.qty) return 'insufficient_balance';
          this.hold(u, op.qty);
        }
        const id = `${++this.adSeq}`;
        this.ads.set(id, {
          id,
          user: u,
          sell: op.sell,
          price: PRICES[op.price]!,
          min: op.min,
          max: op.max,
          total: op.qty,
          remaining: op.qty,
          status: 'ONLINE',
        });
        this.adClients.add(ck);
        return 'ok';
      }
      case 'update': {
        const a = this.ads.get(this.adId(op.a));
        const u = USERS[op.u]!;
        if (a === undefined || a.user !== u) return 'otc_ad_not_found';
        const d = op.remaining - a.remaining;
        if (a.sell) {
          if (d > 0n && this.avail.get(u)! < d) return 'insufficient_balance';
          this.hold(u, d);
        }
        if (d > 0n) a.total += d;
        a.remaining = op.remaining;
        return 'ok';
      }
      case 'adStatus': {
        const a = this.ads.get(this.adId(op.a));
        const u = USERS[op.u]!;
        if (a === undefined || (!op.byOperator && a.user !== u)) return 'otc_ad_not_found';
        if (op.status === 'ONLINE' && !op.byOperator && !this.active(a.user)) return 'otc_not_merchant';
        if (a.status === op.status) return 'ok';
        if (op.status === 'CLOSED') {
          if (a.sell) this.release(a.user, a.remaining);
          a.remaining = 0n;
          this.ads.delete(a.id);
        }
        a.status = op.status;
        return 'ok';
      }
      case 'take': {
        const u = USERS[op.u]!;
        const ck = `${u}:${op.client}`;
        if (this.orderClients.has(ck)) return 'ok';
        const a = this.ads.get(this.adId(op.a));
        if (a === undefined) return 'otc_ad_not_found';
        if (a.user === u) return 'otc_own_ad';
        if (a.status !== 'ONLINE' || !this.active(a.user)) return 'otc_ad_unavailable';
        const c = this.cancels.get(u);
        if (c !== undefined && c.day === this.shDay(ts) && c.n >= CANCEL_LIMIT) return 'otc_cancel_limit';
        const qty = (op.fiat * 10n ** BigInt(SCALE)) / a.price;
        if (op.fiat < a.min || op.fiat > a.max || qty <= 0n || qty > a.remaining) return 'otc_amount_out_of_limits';
        if (!a.sell) {
          if (this.avail.get(u)! < qty) return 'insufficient_balance';
          this.hold(u, qty);
        }
        a.remaining -= qty;
        const id = `${++this.orderSeq}`;
        this.orders.set(id, {
          id,
          ad: a.id,
          maker: a.user,
          buyer: a.sell ? u : a.user,
          seller: a.sell ? a.user : u,
          qty,
          state: 'PENDING_PAYMENT',
          deadline: ts + WINDOW,
          paidAt: 0,
          appealBy: '',
        });
        this.orderClients.set(ck, id);
        return 'ok';
      }
      case 'resolve': {
        const o = this.orders.get(this.orderId(op.o));
        if (o === undefined) return 'otc_order_not_found';
        if (o.state !== 'APPEAL') return 'otc_order_state_invalid';
        if (op.release) this.settle(o);
        else this.back(o);
        return 'ok';
      }
      case 'timeout': {
        const o = this.orders.get(this.orderId(op.o));
        if (o === undefined) return 'otc_order_not_found';
        if (o.state !== 'PENDING_PAYMENT' || ts < o.deadline) return 'otc_order_state_invalid';
        this.back(o);
        this.countCancel(o.buyer, ts);
        return 'ok';
      }
      default: {
        const o = this.orders.get(this.orderId(op.o));
        const u = this.actor(o, op.who);
        if (o === undefined || (u !== o.buyer && u !== o.seller)) return 'otc_order_not_found';
        switch (op.k) {
          case 'paid':
            if (u !== o.buyer || o.state !== 'PENDING_PAYMENT') return 'otc_order_state_invalid';
            if (ts >= o.deadline) return 'otc_payment_expired';
            o.state = 'PAID';
            o.paidAt = ts;
            return 'ok';
          case 'release':
            if (u !== o.seller || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID')) return 'otc_order_state_invalid';
            this.settle(o);
            return 'ok';
          case 'cancel':
            if (u !== o.buyer || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID')) return 'otc_order_state_invalid';
            this.back(o);
            this.countCancel(o.buyer, ts);
            return 'ok';
          case 'appeal':
            if (o.state !== 'PAID') return 'otc_order_state_invalid';
            if (ts < o.paidAt + APPEAL_AFTER) return 'otc_appeal_too_early';
            o.state = 'APPEAL';
            o.appealBy = u;
            return 'ok';
          case 'unappeal':
            if (o.state !== 'APPEAL' || o.appealBy !== u) return 'otc_order_state_invalid';
            o.state = 'PAID';
            return 'ok';
        }
      }
    }
  }
  private countCancel(u: string, ts: number): void {
    const d = this.shDay(ts);
    const c = this.cancels.get(u);
    if (c === undefined || c.day !== d) this.cancels.set(u, { day: d, n: 1 });
    else c.n++;
  }
}

function toCommand(op: Op, ts: number, m: Model): Command | null {
  const terms = (price: bigint, min: bigint, max: bigint) => ({
    priceType: 'FIXED' as const,
    price,
    floatPpm: null,
    minFiat: min,
    maxFiat: max,
    paymentWindowMs: WINDOW,
  });
  switch (op.k) {
    case 'wait':
    case 'day':
      return null;
    case 'apply':
      return { type: 'otcApplyMerchant', ts, userId: USERS[op.u]! };
    case 'review':
      return { type: 'otcReviewMerchant', ts, userId: USERS[op.u]!, operatorId: 'op', approve: op.approve, reason: '' };
    case 'status':
      return { type: 'otcSetMerchantStatus', ts, userId: USERS[op.u]!, operatorId: 'op', status: op.suspend ? 'SUSPENDED' : 'ACTIVE', reason: 'r' };
    case 'leave':
      return { type: 'otcLeaveMerchant', ts, userId: USERS[op.u]! };
    case 'publish':
      return {
        type: 'otcPublishAd',
        ts,
        userId: USERS[op.u]!,
        side: op.sell ? 'SELL' : 'BUY',
        quantity: op.qty,
        terms: terms(PRICES[op.price]!, op.min, op.max),
        clientId: `a${op.client}`,
      };
    case 'update': {
      const a = m.ads.get(m.adId(op.a));
      return {
        type: 'otcUpdateAd',
        ts,
        userId: USERS[op.u]!,
        adId: m.adId(op.a),
        remainingQty: op.remaining,
        terms: terms(a?.price ?? 700n, a?.min ?? 1n, a?.max ?? 1n),
      };
    }
    case 'adStatus':
      return op.byOperator
        ? { type: 'otcSetAdStatus', ts, adId: m.adId(op.a), status: op.status, operatorId: 'op' }
        : { type: 'otcSetAdStatus', ts, adId: m.adId(op.a), status: op.status, userId: USERS[op.u]! };
    case 'take':
      return { type: 'otcTakeAd', ts, userId: USERS[op.u]!, adId: m.adId(op.a), fiatAmount: op.fiat, clientId: `o${op.client}` };
    case 'resolve':
      return { type: 'otcResolveAppeal', ts, orderId: m.orderId(op.o), operatorId: 'op', outcome: op.release ? 'RELEASE' : 'RETURN', reason: 'decided' };
    case 'timeout':
      return { type: 'otcCancelOrder', ts, orderId: m.orderId(op.o) };
    default: {
      const id = m.orderId(op.o);
      const userId = m.actor(m.orders.get(id), op.who);
      const type = { paid: 'otcMarkPaid', release: 'otcRelease', cancel: 'otcCancelOrder', appeal: 'otcAppeal', unappeal: 'otcCancelAppeal' }[op.k];
      return { type, ts, userId, orderId: id } as Command;
    }
  }
}

const ENV = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};
const RUNS = Number(ENV.OTC_RUNS ?? 100);
const SEED = ENV.OTC_SEED === undefined ? undefined : Number(ENV.OTC_SEED);

describe('OTC commands against an independent model', () => {
  it('same codes, balances, escrow, open ads and orders after every command; conserved; across a snapshot restore', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 40, maxLength: 160 }), (random) => {
        const ops = [...PRELUDE, ...random];
        let e = new Engine({ idempotencyWindowMs: 1000 * DAY });
        let ts = 1_800_000_000_000;
        e.execute({ type: 'addAsset', ts, asset: { code: 'USDT', scale: SCALE } });
        for (const u of USERS) {
          e.execute({ type: 'registerUser', ts, account: `mail:${u}@x.io`, uniqueKeys: [], profile: {} });
          e.execute({ type: 'deposit', ts, userId: u, asset: 'USDT', account: 'OTC', amount: START, from: '@faucet' });
        }
        const cfg = { asset: 'USDT', fiat: 'CNY', merchantDeposit: DEPOSIT, appealAfterMs: APPEAL_AFTER, cancelLimit: CANCEL_LIMIT };
        expect(e.execute({ type: 'otcConfigure', ts, config: cfg }).code).toBe('ok');
        const m = new Model();
        ops.forEach((op, i) => {
          // Only waits and days move the clock (by whole minutes), so deadlines and appeal waits are hit exactly.
          ts += op.k === 'day' ? DAY : op.k === 'wait' ? op.minutes * MIN : 0;
          const cmd = toCommand(op, ts, m);
          const expected = m.apply(op, ts);
          if (cmd !== null) expect(e.execute(cmd).code, `${i}: ${JSON.stringify(op, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}` : v))}`).toBe(expected);
          for (const u of USERS) {
            const b = e.balance(u, 'OTC', 'USDT');
            expect([b.available, b.frozen], `balance of ${u} after ${i}`).toEqual([m.avail.get(u), m.frozen.get(u)]);
            // escrow = deposit + SELL ads' remainders + the open orders the user sells
            let escrow = m.merchant.get(u)?.deposit ?? 0n;
            for (const a of m.ads.values()) if (a.user === u && a.sell) escrow += a.remaining;
            for (const o of m.orders.values()) if (o.seller === u) escrow += o.qty;
            expect(b.frozen, `escrow of ${u} after ${i}`).toBe(escrow);
          }
          expect(e.assetTotals().get('USDT')).toBe(0n);
          expect(e.otcOpenOrders().map((o) => [o.orderId, o.state, o.quantity, o.buyerId, o.sellerId])).toEqual(
            [...m.orders.values()].map((o) => [o.id, o.state, o.qty, o.buyer, o.seller]),
          );
          expect(e.otcAds().map((a) => [a.adId, a.status, a.remainingQty, a.totalQty])).toEqual(
            [...m.ads.values()].map((a) => [a.id, a.status, a.remaining, a.total]),
          );
          if (i === Math.floor(ops.length / 2)) {
            const restored = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())));
            expect(restored.stateHash()).toBe(e.stateHash());
            e = restored;
          }
        });
      }),
      { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) },
    );
  }, 120_000);
});
