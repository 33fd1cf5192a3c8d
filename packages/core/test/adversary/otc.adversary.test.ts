/**
 * Adversary test of peer-to-peer fiat trading (docs/otc.md, otc/types.ts): a group of three colluding accounts (a
 * merchant, a buyer who is the same person under another account, and a helper) trade with an honest outsider
 * merchant, an honest outsider taker and an honest operator. The group tries everything: it takes the outsiders' ads
 * and marks them paid without paying, releases, cancels, appeals and withdraws appeals on orders it is not the right
 * side of, self-deals between its own ads and accounts, edits and closes ads with orders open, leaves as a merchant,
 * and lets time run to every payment deadline and appeal wait (a millisecond before, at and after). The outsiders are
 * honest: a buyer pays the fiat before marking paid and never cancels a paid order, a seller releases only what was
 * paid for, the operator resolves an appeal by the fiat (RELEASE when paid, else RETURN).
 *
 * The model is written from the published rules only: quantity = floor(fiat x 10^scale / price) at the ad's price
 * (a floating price is index x ratio rounded half up to a cent); the seller's coins are frozen in escrow from
 * creation; the escrow moves to the buyer only by the seller's release or an operator's RELEASE of an appeal, and
 * returns to the seller (or the ad) by the buyer's cancel, a time-out at or after the deadline, or a RETURN; every
 * transition of the order's state machine with its actor and time conditions. Every command the engine accepts is
 * checked against these rules and applied to the model.
 *
 * After EVERY step: every asset sums to zero, no balance is negative; every user's OTC available and frozen equal
 * the model's (so an escrow is released to the order's buyer exactly and never twice); the group's USDT equals its
 * start plus what it bought from outsiders minus what it sold them; every outsider's escrow the group received was
 * paid for in fiat, never above floor(fiat x 10^scale / price); no order an outsider paid for ended back with the
 * group. A canary run where a release also credits the seller is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';
import type { OtcAdTerms, OtcOrderView } from '../../src/otc/types';
import type { Command, CommandResult } from '../../src/types';
import { adversaryRuns, checkLedger, findLeak, groupHoldings, invariant, playAdversary, show, Tally } from './harness';

const MIN = 60_000;
const DAY = 86_400_000;
const SCALE = 8;
const COIN = 10n ** BigInt(SCALE);
/** Group: 1 the merchant, 2 the same person's buyer account, 3 a helper. Outsiders: 4 an honest merchant, 5 an honest taker. */
const GROUP = ['1', '2', '3'];
const OUTSIDERS = ['4', '5'];
const USERS = [...GROUP, ...OUTSIDERS];
const START = 20_000n * COIN;
const DEPOSIT = 1_000n * COIN;
const APPEAL_AFTER = 10 * MIN;
const CANCEL_LIMIT = 3;
/** The index price the server passes for floating ads: 7.20 CNY per USDT, in cents. */
const INDEX = 720n;
const T0 = 1_767_225_600_000;
const RUNS = adversaryRuns(150, 30_000);

const PRICES = [700n, 720n, 733n, 1n];
const FLOATS = [500_000, 1_000_000, 1_012_345, 2_000_000];
const WINDOWS = [5, 15, 30, 120].map((m) => m * MIN);

/** who: 0 the buyer, 1 the seller, 2 a group member not in the order, 3 an outsider not in the order. */
type Who = 0 | 1 | 2 | 3;
type Op =
  | { k: 'apply'; u: number }
  | { k: 'review'; u: number; approve: boolean }
  | { k: 'status'; u: number; suspend: boolean }
  | { k: 'leave'; u: number }
  | { k: 'publish'; u: number; sell: boolean; qty: bigint; float: boolean; px: number; min: bigint; max: bigint; win: number; client: number }
  | { k: 'update'; a: number; remaining: bigint; px: number }
  | { k: 'adStatus'; a: number; status: 'ONLINE' | 'PAUSED' | 'CLOSED'; byOperator: boolean }
  | { k: 'take'; a: number; u: number; fiat: bigint; client: number }
  /** the buyer pays the fiat off the platform; `mark`: and says so */
  | { k: 'pay'; o: number; mark: boolean }
  | { k: 'paid'; o: number; who: Who }
  | { k: 'release'; o: number; who: Who }
  | { k: 'cancel'; o: number; who: Who }
  | { k: 'timeout'; o: number }
  | { k: 'appeal'; o: number; who: Who }
  | { k: 'unappeal'; o: number; who: Who }
  | { k: 'resolve'; o: number }
  /** the group's buyer account claims an outsider's order paid without paying, waits out the appeal time and appeals */
  | { k: 'scam'; o: number; d: 0 | 1 }
  /** jump to an open order's deadline or appeal time, d ms off it */
  | { k: 'edge'; o: number; appeal: boolean; d: -1 | 0 | 1 }
  | { k: 'wait'; ms: number };

const who = fc.constantFrom<Who>(0, 0, 1, 1, 2, 3);
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { depthSize: 'small' },
  w(1, fc.record({ k: fc.constant('apply' as const), u: fc.nat(4) })),
  w(1, fc.record({ k: fc.constant('review' as const), u: fc.nat(4), approve: fc.nat(3).map((n) => n > 0) })),
  w(1, fc.record({ k: fc.constant('status' as const), u: fc.nat(4), suspend: fc.boolean() })),
  w(1, fc.record({ k: fc.constant('leave' as const), u: fc.nat(4) })),
  w(
    2,
    fc.record({
      k: fc.constant('publish' as const),
      u: fc.nat(4),
      sell: fc.boolean(),
      qty: fc.bigInt({ min: 1n, max: 3_000n * COIN }),
      float: fc.boolean(),
      px: fc.nat(3),
      min: fc.constantFrom(1n, 100n, 10_000n),
      max: fc.constantFrom(10_000n, 500_000n, 2_000_000n),
      win: fc.nat(3),
      client: fc.nat(3),
    }),
  ),
  w(2, fc.record({ k: fc.constant('update' as const), a: fc.nat(9), remaining: fc.bigInt({ min: 0n, max: 4_000n * COIN }), px: fc.nat(3) })),
  w(
    2,
    fc.record({
      k: fc.constant('adStatus' as const),
      a: fc.nat(9),
      status: fc.constantFrom('ONLINE' as const, 'PAUSED' as const, 'CLOSED' as const),
      byOperator: fc.nat(4).map((n) => n === 0),
    }),
  ),
  w(
    10,
    fc.record({
      k: fc.constant('take' as const),
      a: fc.nat(9),
      u: fc.nat(4),
      fiat: fc.oneof(fc.bigInt({ min: 1n, max: 2_100_000n }), fc.constantFrom(1n, 699n, 700n, 733n, 10_000n)),
      client: fc.nat(5),
    }),
  ),
  w(5, fc.record({ k: fc.constant('pay' as const), o: fc.nat(9), mark: fc.nat(3).map((n) => n > 0) })),
  w(6, fc.record({ k: fc.constant('paid' as const), o: fc.nat(9), who })),
  w(5, fc.record({ k: fc.constant('release' as const), o: fc.nat(9), who })),
  w(3, fc.record({ k: fc.constant('cancel' as const), o: fc.nat(9), who })),
  w(2, fc.record({ k: fc.constant('timeout' as const), o: fc.nat(9) })),
  w(6, fc.record({ k: fc.constant('appeal' as const), o: fc.nat(9), who })),
  w(4, fc.record({ k: fc.constant('unappeal' as const), o: fc.nat(9), who })),
  w(5, fc.record({ k: fc.constant('resolve' as const), o: fc.nat(9) })),
  w(3, fc.record({ k: fc.constant('scam' as const), o: fc.nat(9), d: fc.constantFrom(0 as const, 1 as const) })),
  w(7, fc.record({ k: fc.constant('edge' as const), o: fc.nat(9), appeal: fc.boolean(), d: fc.constantFrom(-1 as const, 0 as const, 1 as const) })),
  w(2, fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(1, MIN, 7 * MIN, 2 * 3_600_000, DAY) })),
);

/** Every play starts with both merchants (1 of the group, 4 outside) approved, each with a SELL and a BUY ad. */
const PRELUDE: Op[] = [
  { k: 'apply', u: 0 },
  { k: 'apply', u: 3 },
  { k: 'review', u: 0, approve: true },
  { k: 'review', u: 3, approve: true },
  { k: 'publish', u: 0, sell: true, qty: 5_000n * COIN, float: false, px: 1, min: 100n, max: 2_000_000n, win: 1, client: 8 },
  { k: 'publish', u: 0, sell: false, qty: 5_000n * COIN, float: true, px: 1, min: 100n, max: 2_000_000n, win: 0, client: 9 },
  { k: 'publish', u: 3, sell: true, qty: 5_000n * COIN, float: false, px: 2, min: 100n, max: 2_000_000n, win: 1, client: 8 },
  { k: 'publish', u: 3, sell: false, qty: 5_000n * COIN, float: false, px: 0, min: 100n, max: 2_000_000n, win: 2, client: 9 },
];

const gameArb = fc.array(opArb, { minLength: 40, maxLength: 150 });

interface MAd {
  id: string;
  owner: string;
  sell: boolean;
  terms: OtcAdTerms;
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
  price: bigint;
  fiat: bigint;
  state: 'PENDING_PAYMENT' | 'PAID' | 'APPEAL' | 'COMPLETED' | 'CANCELLED';
  deadline: number;
  paidTs: number;
  appealBy: string;
  /** the buyer paid the fiat off the platform (the model's knowledge; the engine never sees fiat) */
  fiatPaid: boolean;
  /** how it ended: by whom */
  end: string;
}

/**
 * The published OTC rules as a monitor: `accepted` is called for every command the engine accepted with events; it
 * returns why the rules forbid it (or null) and, when allowed, applies the balance effects to the model.
 */
class OtcRules {
  readonly avail = new Map(USERS.map((u) => [u, START]));
  readonly frozen = new Map(USERS.map((u) => [u, 0n]));
  readonly merchants = new Map<string, { state: string; deposit: bigint }>();
  readonly ads = new Map<string, MAd>();
  readonly orders = new Map<string, MOrder>();
  /** ended orders: they must never change again */
  readonly ended = new Map<string, MOrder>();
  private readonly cancels = new Map<string, { day: number; n: number }>();

  private move(u: string, toFrozen: bigint): void {
    this.avail.set(u, (this.avail.get(u) as bigint) - toFrozen);
    this.frozen.set(u, (this.frozen.get(u) as bigint) + toFrozen);
  }
  private active(u: string): boolean {
    return this.merchants.get(u)?.state === 'ACTIVE';
  }
  private shDay(ts: number): number {
    return Math.floor((ts + 8 * 3_600_000) / DAY);
  }
  private countCancel(u: string, ts: number): void {
    const c = this.cancels.get(u);
    const d = this.shDay(ts);
    this.cancels.set(u, c !== undefined && c.day === d ? { day: d, n: c.n + 1 } : { day: d, n: 1 });
  }
  /** The price of an order taken now: the fixed price, or index x ratio rounded half up to a cent. */
  priceOf(t: OtcAdTerms): bigint {
    if (t.priceType === 'FIXED') return t.price as bigint;
    const x = INDEX * BigInt(t.floatPpm as number);
    return (2n * x + 1_000_000n) / 2_000_000n;
  }

  /** The escrow goes to the buyer: the seller's frozen coins leave, the buyer's available grows. */
  private complete(o: MOrder, by: string): void {
    this.frozen.set(o.seller, (this.frozen.get(o.seller) as bigint) - o.qty);
    this.avail.set(o.buyer, (this.avail.get(o.buyer) as bigint) + o.qty);
    o.state = 'COMPLETED';
    o.end = by;
    this.orders.delete(o.id);
    this.ended.set(o.id, o);
  }
  /** The escrow goes back: to the ad while it is not closed (a BUY ad's taker gets its coins back), else to the seller. */
  private unwind(o: MOrder, by: string): void {
    const a = this.ads.get(o.ad);
    if (a !== undefined && a.status !== 'CLOSED') {
      a.remaining += o.qty;
      if (!a.sell) this.move(o.seller, -o.qty);
    } else {
      this.move(o.seller, -o.qty);
    }
    o.state = 'CANCELLED';
    o.end = by;
    this.orders.delete(o.id);
    this.ended.set(o.id, o);
  }

  /** Checks an accepted command against the rules; applies it; returns the broken rule or null. */
  accepted(cmd: Command, r: CommandResult): string | null {
    const ts = cmd.ts;
    switch (cmd.type) {
      case 'otcApplyMerchant': {
        const m = this.merchants.get(cmd.userId);
        if (m !== undefined && m.state !== 'REJECTED' && m.state !== 'LEFT') return `applied again from ${m.state}`;
        if ((this.avail.get(cmd.userId) as bigint) < DEPOSIT) return 'applied without the deposit';
        this.move(cmd.userId, DEPOSIT);
        this.merchants.set(cmd.userId, { state: 'PENDING', deposit: DEPOSIT });
        return null;
      }
      case 'otcReviewMerchant': {
        const m = this.merchants.get(cmd.userId);
        if (m?.state !== 'PENDING') return `reviewed a merchant in ${m?.state}`;
        if (cmd.approve) m.state = 'ACTIVE';
        else {
          this.move(cmd.userId, -m.deposit);
          m.deposit = 0n;
          m.state = 'REJECTED';
        }
        return null;
      }
      case 'otcSetMerchantStatus': {
        const m = this.merchants.get(cmd.userId);
        if (m?.state !== (cmd.status === 'SUSPENDED' ? 'ACTIVE' : 'SUSPENDED')) return `status ${cmd.status} from ${m?.state}`;
        m.state = cmd.status;
        return null;
      }
      case 'otcLeaveMerchant': {
        const m = this.merchants.get(cmd.userId);
        if (m?.state !== 'ACTIVE' && m?.state !== 'SUSPENDED') return `left from ${m?.state}`;
        if ([...this.ads.values()].some((a) => a.owner === cmd.userId && a.status !== 'CLOSED')) return 'left with an ad not closed';
        if ([...this.orders.values()].some((o) => o.maker === cmd.userId)) return 'left with an open order';
        this.move(cmd.userId, -m.deposit);
        m.deposit = 0n;
        m.state = 'LEFT';
        return null;
      }
      case 'otcPublishAd': {
        if (!this.active(cmd.userId)) return 'published by a merchant not ACTIVE';
        if (cmd.side === 'SELL') {
          if ((this.avail.get(cmd.userId) as bigint) < cmd.quantity) return 'a SELL ad without the coins';
          this.move(cmd.userId, cmd.quantity);
        }
        const ev = r.events.find((x) => x.type === 'otcAdChanged');
        if (ev?.type !== 'otcAdChanged') return 'no ad event';
        this.ads.set(ev.ad.adId, { id: ev.ad.adId, owner: cmd.userId, sell: cmd.side === 'SELL', terms: cmd.terms, remaining: cmd.quantity, status: 'ONLINE' });
        return null;
      }
      case 'otcUpdateAd': {
        const a = this.ads.get(cmd.adId);
        if (a === undefined || a.owner !== cmd.userId || a.status === 'CLOSED') return 'updated an ad not its own or closed';
        if (a.sell) {
          const d = cmd.remainingQty - a.remaining;
          if (d > 0n && (this.avail.get(a.owner) as bigint) < d) return 'raised a SELL ad without the coins';
          this.move(a.owner, d);
        }
        a.remaining = cmd.remainingQty;
        a.terms = cmd.terms;
        return null;
      }
      case 'otcSetAdStatus': {
        const a = this.ads.get(cmd.adId);
        if (a === undefined || a.status === 'CLOSED') return 'changed a closed or unknown ad';
        if (cmd.operatorId === undefined && a.owner !== cmd.userId) return "changed another merchant's ad";
        if (cmd.status === 'ONLINE' && cmd.operatorId === undefined && !this.active(a.owner)) return 'put online by a merchant not ACTIVE';
        if (cmd.status === 'CLOSED') {
          if (a.sell) this.move(a.owner, -a.remaining);
          a.remaining = 0n;
        }
        a.status = cmd.status;
        return null;
      }
      case 'otcTakeAd': {
        const a = this.ads.get(cmd.adId);
        if (a === undefined || a.status !== 'ONLINE' || !this.active(a.owner)) return 'took an ad not ONLINE or of a merchant not ACTIVE';
        if (a.owner === cmd.userId) return 'took its own ad';
        const c = this.cancels.get(cmd.userId);
        if (c !== undefined && c.day === this.shDay(ts) && c.n >= CANCEL_LIMIT) return 'took an ad over the daily cancel limit';
        const price = this.priceOf(a.terms);
        const qty = (cmd.fiatAmount * COIN) / price;
        if (cmd.fiatAmount < a.terms.minFiat || cmd.fiatAmount > a.terms.maxFiat || qty <= 0n || qty > a.remaining)
          return `took ${cmd.fiatAmount} cents outside the ad's limits`;
        const buyer = a.sell ? cmd.userId : a.owner;
        const seller = a.sell ? a.owner : cmd.userId;
        if (!a.sell) {
          if ((this.avail.get(seller) as bigint) < qty) return 'sold coins the taker does not have';
          this.move(seller, qty);
        }
        a.remaining -= qty;
        const ev = r.events.find((x) => x.type === 'otcOrderChanged');
        if (ev?.type !== 'otcOrderChanged') return 'no order event';
        const v: OtcOrderView = ev.order;
        const o: MOrder = {
          id: v.orderId,
          ad: a.id,
          maker: a.owner,
          buyer,
          seller,
          qty,
          price,
          fiat: cmd.fiatAmount,
          state: 'PENDING_PAYMENT',
          deadline: ts + a.terms.paymentWindowMs,
          paidTs: 0,
          appealBy: '',
          fiatPaid: false,
          end: '',
        };
        if (
          v.buyerId !== buyer ||
          v.sellerId !== seller ||
          v.quantity !== qty ||
          v.price !== price ||
          v.fiatAmount !== cmd.fiatAmount ||
          v.deadlineTs !== o.deadline ||
          v.state !== 'PENDING_PAYMENT'
        ) {
          return `order ${show(v)} is not the rules' ${show(o)}`;
        }
        this.orders.set(o.id, o);
        return null;
      }
      default:
        return this.orderStep(cmd);
    }
  }

  private orderStep(cmd: Command): string | null {
    if (!('orderId' in cmd) || typeof cmd.orderId !== 'string') return `unexpected ${cmd.type}`;
    const ended = this.ended.get(cmd.orderId);
    if (ended !== undefined) return `${cmd.type} changed order ${cmd.orderId} after it ended ${ended.state}`;
    const o = this.orders.get(cmd.orderId);
    if (o === undefined) return `${cmd.type} on an unknown order`;
    const ts = cmd.ts;
    switch (cmd.type) {
      case 'otcMarkPaid':
        if (cmd.userId !== o.buyer || o.state !== 'PENDING_PAYMENT' || ts >= o.deadline)
          return `marked paid by ${cmd.userId} in ${o.state}, deadline ${o.deadline - ts} ms away`;
        o.state = 'PAID';
        o.paidTs = ts;
        return null;
      case 'otcRelease':
        if (cmd.userId !== o.seller || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID'))
          return `released by ${cmd.userId} (seller ${o.seller}) in ${o.state}`;
        this.complete(o, 'seller');
        return null;
      case 'otcCancelOrder':
        if (cmd.userId === undefined) {
          if (o.state !== 'PENDING_PAYMENT' || ts < o.deadline) return `timed out in ${o.state}, ${o.deadline - ts} ms before the deadline`;
          this.unwind(o, 'timeout');
        } else {
          if (cmd.userId !== o.buyer || (o.state !== 'PENDING_PAYMENT' && o.state !== 'PAID'))
            return `cancelled by ${cmd.userId} (buyer ${o.buyer}) in ${o.state}`;
          this.unwind(o, 'buyer');
        }
        this.countCancel(o.buyer, ts);
        return null;
      case 'otcAppeal':
        if ((cmd.userId !== o.buyer && cmd.userId !== o.seller) || o.state !== 'PAID' || ts < o.paidTs + APPEAL_AFTER)
          return `appealed by ${cmd.userId} in ${o.state} ${ts - o.paidTs} ms after paid`;
        o.state = 'APPEAL';
        o.appealBy = cmd.userId;
        return null;
      case 'otcCancelAppeal':
        if (o.state !== 'APPEAL' || cmd.userId !== o.appealBy) return `appeal withdrawn by ${cmd.userId} (appellant ${o.appealBy}) in ${o.state}`;
        o.state = 'PAID';
        return null;
      case 'otcResolveAppeal':
        if (o.state !== 'APPEAL') return `resolved in ${o.state}`;
        if (cmd.outcome === 'RELEASE') this.complete(o, 'operator');
        else this.unwind(o, 'operator');
        return null;
      default:
        return `unexpected ${cmd.type}`;
    }
  }
}

/** A deliberate leak injected after a command (canary runs only). */
type Leak = (e: Engine, cmd: Command, r: CommandResult) => void;

/** What the plays exercised. */
const seen = new Tally();

function play(random: Op[], leak?: Leak): void {
  const ops = [...PRELUDE, ...random];
  const e = new Engine({ idempotencyWindowMs: 1_000 * DAY });
  let ts = T0;
  const must = (cmd: Command) => {
    const r = e.execute(cmd);
    if (r.code !== 'ok') throw new Error(`setup ${cmd.type}: ${r.code}`);
    return r;
  };
  must({ type: 'addAsset', ts, asset: { code: 'USDT', scale: SCALE } });
  for (const u of USERS) {
    expect(must({ type: 'registerUser', ts, account: `mail:otc${u}@x.io`, uniqueKeys: [], profile: {} }).userId).toBe(u);
    must({ type: 'deposit', ts, userId: u, asset: 'USDT', account: 'OTC', amount: START, from: '@faucet' });
  }
  must({ type: 'otcConfigure', ts, config: { asset: 'USDT', fiat: 'CNY', merchantDeposit: DEPOSIT, appealAfterMs: APPEAL_AFTER, cancelLimit: CANCEL_LIMIT } });
  const rules = new OtcRules();
  const adIds: string[] = [];
  const orderIds: string[] = [];
  const pick = <T>(xs: T[], i: number): T | undefined => (xs.length === 0 ? undefined : xs[i % xs.length]);
  /** An order id: mostly an open order's, sometimes any order ever taken (ended ones included). */
  const orderOf = (i: number): string | undefined => (i < 7 && rules.orders.size > 0 ? pick([...rules.orders.keys()], i) : pick(orderIds, i));
  const isGroup = (u: string) => GROUP.includes(u);
  const terms = (float: boolean, px: number, min: bigint, max: bigint, win: number): OtcAdTerms =>
    float
      ? { priceType: 'FLOAT', price: null, floatPpm: FLOATS[px] as number, minFiat: min, maxFiat: max, paymentWindowMs: WINDOWS[win] as number }
      : { priceType: 'FIXED', price: PRICES[px] as bigint, floatPpm: null, minFiat: min, maxFiat: max, paymentWindowMs: WINDOWS[win] as number };
  /** The user playing role `who` in order `o`; null when that user is an honest outsider who would not do `act`. */
  const actor = (o: MOrder, who: Who): string => {
    if (who === 0) return o.buyer;
    if (who === 1) return o.seller;
    const pool = (who === 2 ? GROUP : OUTSIDERS).filter((u) => u !== o.buyer && u !== o.seller);
    return pool[0] ?? o.buyer;
  };

  /** The command an operation sends, or null when it sends none (a wait, or an honest outsider declining). */
  const toCommand = (op: Op): Command | null => {
    switch (op.k) {
      case 'wait':
      case 'edge':
        return null;
      case 'apply':
        return { type: 'otcApplyMerchant', ts, userId: USERS[op.u] as string };
      case 'review':
        return { type: 'otcReviewMerchant', ts, userId: USERS[op.u] as string, operatorId: 'op', approve: op.approve, reason: 'checked' };
      case 'status':
        return {
          type: 'otcSetMerchantStatus',
          ts,
          userId: USERS[op.u] as string,
          operatorId: 'op',
          status: op.suspend ? 'SUSPENDED' : 'ACTIVE',
          reason: 'checked',
        };
      case 'leave':
        return { type: 'otcLeaveMerchant', ts, userId: USERS[op.u] as string };
      case 'publish': {
        const min = op.min < op.max ? op.min : op.max;
        return {
          type: 'otcPublishAd',
          ts,
          userId: USERS[op.u] as string,
          side: op.sell ? 'SELL' : 'BUY',
          quantity: op.qty,
          terms: terms(op.float, op.px, min, op.max, op.win),
          clientId: `ad${op.client}`,
        };
      }
      case 'update': {
        const a = rules.ads.get(pick(adIds, op.a) ?? '');
        if (a === undefined) return null;
        const t = a.terms.priceType === 'FIXED' ? { ...a.terms, price: PRICES[op.px] as bigint } : { ...a.terms, floatPpm: FLOATS[op.px] as number };
        return { type: 'otcUpdateAd', ts, userId: a.owner, adId: a.id, remainingQty: op.remaining, terms: t };
      }
      case 'adStatus': {
        const a = rules.ads.get(pick(adIds, op.a) ?? '');
        if (a === undefined) return null;
        return op.byOperator
          ? { type: 'otcSetAdStatus', ts, adId: a.id, status: op.status, operatorId: 'op' }
          : { type: 'otcSetAdStatus', ts, adId: a.id, status: op.status, userId: a.owner };
      }
      case 'take': {
        const adId = pick(adIds, op.a);
        if (adId === undefined) return null;
        return { type: 'otcTakeAd', ts, userId: USERS[op.u] as string, adId, fiatAmount: op.fiat, indexPrice: INDEX, clientId: `o${op.client}` };
      }
      case 'timeout': {
        const id = orderOf(op.o);
        return id === undefined ? null : { type: 'otcCancelOrder', ts, orderId: id };
      }
      case 'resolve': {
        const o = rules.orders.get(orderOf(op.o) ?? '');
        if (o === undefined) return null;
        // The honest operator decides by the fiat: RELEASE when the buyer paid, else RETURN.
        return { type: 'otcResolveAppeal', ts, orderId: o.id, operatorId: 'op', outcome: o.fiatPaid ? 'RELEASE' : 'RETURN', reason: 'evidence' };
      }
      case 'scam': {
        const o = [...rules.orders.values()].filter((x) => isGroup(x.buyer) && !isGroup(x.seller))[op.o % 7];
        if (o === undefined) return null;
        if (o.state === 'PENDING_PAYMENT') return { type: 'otcMarkPaid', ts, userId: o.buyer, orderId: o.id };
        if (o.state !== 'PAID') return null;
        ts = Math.max(ts, o.paidTs + APPEAL_AFTER + op.d);
        return { type: 'otcAppeal', ts, userId: o.buyer, orderId: o.id };
      }
      case 'pay': {
        const o = rules.orders.get(orderOf(op.o) ?? '');
        if (o === undefined) return null;
        // An honest outsider pays only an order it can still mark paid (pending, before the deadline).
        if (!isGroup(o.buyer) && (o.state !== 'PENDING_PAYMENT' || ts >= o.deadline)) return null;
        o.fiatPaid = true;
        // An honest outsider buyer always says it paid; the group may pay and stay silent.
        return op.mark || !isGroup(o.buyer) ? { type: 'otcMarkPaid', ts, userId: o.buyer, orderId: o.id } : null;
      }
      default: {
        const o = rules.orders.get(orderOf(op.o) ?? '') ?? rules.ended.get(orderOf(op.o) ?? '');
        if (o === undefined) return null;
        const u = op.k === 'unappeal' && op.who === 0 && o.appealBy !== '' ? o.appealBy : actor(o, op.who);
        if (!isGroup(u)) {
          // Honest outsiders: mark paid only what they paid, release only what was paid, never cancel a paid order.
          if (op.k === 'paid' && !o.fiatPaid) return null;
          if (op.k === 'release' && !o.fiatPaid) return null;
          if (op.k === 'cancel' && o.fiatPaid) return null;
        }
        const type = { paid: 'otcMarkPaid', release: 'otcRelease', cancel: 'otcCancelOrder', appeal: 'otcAppeal', unappeal: 'otcCancelAppeal' }[op.k];
        return { type, ts, userId: u, orderId: o.id } as Command;
      }
    }
  };

  const startGroup = BigInt(GROUP.length) * START;
  ops.forEach((op, i) => {
    seen.add('steps');
    const where = () => `step ${i} ${show(op)} at +${ts - T0} ms`;
    if (op.k === 'wait') ts += op.ms;
    if (op.k === 'edge') {
      const o = rules.orders.get(orderOf(op.o) ?? '');
      const target = o === undefined ? ts + MIN : (op.appeal && o.paidTs > 0 ? o.paidTs + APPEAL_AFTER : o.deadline) + op.d;
      ts = target > ts ? target : ts + 1;
    }
    const cmd = toCommand(op);
    if (cmd !== null) {
      const r = e.execute(cmd);
      if (leak !== undefined) leak(e, cmd, r);
      const changed = r.code === 'ok' && r.events.length > 0;
      seen.add(`${cmd.type}:${changed ? 'ok' : r.code === 'ok' ? 'duplicate' : r.code}`);
      if (changed) {
        const broken = rules.accepted(cmd, r);
        invariant(broken === null, () => `${where()}: the engine accepted ${show(cmd)} but the rules forbid it: ${broken}`);
        for (const ev of r.events) {
          if (ev.type === 'otcAdChanged' && !adIds.includes(ev.ad.adId)) adIds.push(ev.ad.adId);
          if (ev.type === 'otcOrderChanged' && !orderIds.includes(ev.order.orderId)) orderIds.push(ev.order.orderId);
          if (ev.type === 'otcOrderChanged' && (ev.order.state === 'COMPLETED' || ev.order.state === 'CANCELLED'))
            seen.add(`ended:${ev.order.endReason}:${isGroup(ev.order.buyerId) ? 'G' : 'O'}${isGroup(ev.order.sellerId) ? 'G' : 'O'}`);
        }
      }
    }
    checkLedger(e, where);
    for (const u of USERS) {
      const b = e.balance(u, 'OTC', 'USDT');
      invariant(
        b.available === rules.avail.get(u) && b.frozen === rules.frozen.get(u),
        () => `${where()}: user ${u} holds ${b.available} + ${b.frozen} frozen, the rules say ${rules.avail.get(u)} + ${rules.frozen.get(u)}`,
      );
    }
    // The group's value: its start plus what it bought from outsiders, less what it sold them (completed orders).
    let entitled = startGroup;
    for (const o of rules.ended.values()) {
      if (o.state !== 'COMPLETED' || isGroup(o.buyer) === isGroup(o.seller)) continue;
      entitled += isGroup(o.buyer) ? o.qty : -o.qty;
      if (isGroup(o.buyer)) {
        invariant(
          o.fiatPaid,
          () => `${where()}: the group received outsider ${o.seller}'s escrow of order ${o.id} (${o.qty}) without paying the fiat (${o.end})`,
        );
        invariant(o.qty * o.price <= o.fiat * COIN, () => `${where()}: order ${o.id} gave ${o.qty} units for ${o.fiat} cents at ${o.price}`);
      }
    }
    for (const o of rules.ended.values()) {
      if (o.state === 'CANCELLED' && !isGroup(o.buyer) && isGroup(o.seller))
        invariant(!o.fiatPaid || o.end === 'buyer', () => `${where()}: outsider ${o.buyer} paid for order ${o.id} but the group got its coins back (${o.end})`);
    }
    const held = groupHoldings(e, GROUP, 'USDT');
    invariant(held <= entitled, () => `${where()}: the group holds ${held}, above its start plus net purchases ${entitled}`);
    invariant(held === entitled, () => `${where()}: the group holds ${held}, not its start plus net purchases ${entitled}`);
  });
}

describe("adversary: OTC escrow goes only to the order's buyer, once, by the order's state machine", () => {
  it(`a merchant, its own buyer account and a helper against honest outsiders (${RUNS} plays)`, () => {
    seen.clear();
    playAdversary('otc', gameArb, RUNS, (ops) => play(ops));
    seen.report('otc');
    if (RUNS >= 50) {
      for (const k of [
        'otcRelease:ok',
        'otcRelease:otc_order_state_invalid',
        'otcRelease:otc_order_not_found',
        'otcAppeal:ok',
        'otcResolveAppeal:ok',
        'otcMarkPaid:otc_payment_expired',
        'otcCancelOrder:ok',
        'ended:TIMEOUT:GO',
        'ended:RELEASED:GO',
        'ended:RELEASED:OG',
        'ended:RELEASED:GG',
      ]) {
        expect(seen.get(k), k).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it('canary: an engine that also credits the seller on release is caught', () => {
    const leak: Leak = (e, cmd, r) => {
      for (const ev of r.events) {
        if (ev.type === 'otcOrderChanged' && ev.order.state === 'COMPLETED') {
          e.execute({ type: 'deposit', ts: cmd.ts, userId: ev.order.sellerId, asset: 'USDT', account: 'OTC', amount: ev.order.quantity, from: '@faucet' });
        }
      }
    };
    expect(findLeak(gameArb, 200, 11, (ops) => play(ops, leak))).toMatch(/holds/);
  });
});
