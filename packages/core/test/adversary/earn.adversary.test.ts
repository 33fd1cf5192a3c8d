/**
 * Adversary test of fixed-term savings (docs/earn.md, earn/types.ts): three colluding savers lock, redeem early,
 * re-lock with the same and new client ids, move their funds between accounts, and hit every time boundary of their
 * locks (a millisecond before, at, and after each day's end and each maturity) while the operator changes the
 * products' rates, terms, rules and status under them and the daily settle runs at random times.
 *
 * The model is written from the published rules only: a lock keeps the rate, term and rule of its product at lock
 * time; after d whole days (counted from the lock, capped at the term) the interest owed is
 * floor(amount x aprPpm x d / (365 x 10^6)); a matured lock returns its principal with the full term's interest; an
 * early redemption (FORFEIT_INTEREST only) returns the principal minus the interest paid, so it earns nothing.
 *
 * After EVERY step: every asset sums to zero, no balance is negative; the group's value (its USDT in all four
 * accounts plus the principal of its running locks) is at most the starting value plus the interest the rules
 * entitle it to for the time actually locked, and equal to it right after a settle; '@earn' holds exactly the
 * running principal; the running locks are the model's; each command's code is the model's. At the end every lock
 * matures and the group holds exactly its entitlement. A canary run with doubled interest must be caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';
import { earnMachine } from '../../src/earn/earn-engine';
import type { EarnEarlyRule, EarnProductTerms } from '../../src/earn/types';
import type { Command, CommandResult, ResultCode } from '../../src/types';
import { adversaryRuns, checkLedger, findLeak, groupHoldings, invariant, playAdversary, show, systemBalance, Tally } from './harness';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** 1 USDT in units (scale 8). */
const COIN = 100_000_000n;
const SAVERS = ['1', '2', '3'];
const START_EACH = 30_000n * COIN;
const T0 = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const RUNS = adversaryRuns(150, 20_000);

/** A product as the operator defines it (earnSetProduct terms without the asset). */
interface Product {
  termDays: number;
  aprPpm: number;
  earlyRedeem: EarnEarlyRule;
  minAmount: bigint;
  maxAmount: bigint;
  userQuota: bigint;
  totalQuota: bigint;
  status: 'ON' | 'OFF';
}

type Op =
  /** amt: 0 min, 1 max, 2 min - 1, 3 max + 1, 4 what the user's quota has left (at most max), 5 `raw` within [min, max], 6 all the user's funding balance */
  | { k: 'lock'; u: number; p: number; amt: number; raw: bigint; client: number }
  /** l: a lock ever made (running or ended); own: its owner redeems, else a colluder tries it */
  | { k: 'redeem'; l: number; own: boolean }
  | { k: 'settle' }
  | { k: 'move'; u: number; toSpot: boolean; raw: bigint }
  | { k: 'product'; p: number; aprPpm: number; termDays: number; early: boolean; on: boolean }
  /** jump to a day boundary (or maturity) of a running lock, d ms off it */
  | { k: 'edge'; l: number; day: number; d: -1 | 0 | 1 }
  | { k: 'wait'; ms: number };

const TERMS = [1, 2, 7, 30, 365];
const APRS = [0, 1, 36_500, 50_000, 123_457, 1_000_000];

const productArb: fc.Arbitrary<Product> = fc
  .record({
    termDays: fc.constantFrom(...TERMS),
    aprPpm: fc.constantFrom(...APRS),
    early: fc.boolean(),
    min: fc.constantFrom(1n, 7n, 100n * COIN),
    span: fc.bigInt({ min: 0n, max: 20_000n * COIN }),
    userExtra: fc.bigInt({ min: 0n, max: 30_000n * COIN }),
    totalExtra: fc.bigInt({ min: 0n, max: 60_000n * COIN }),
  })
  .map((r) => {
    const maxAmount = r.min + r.span;
    const userQuota = maxAmount + r.userExtra;
    return {
      termDays: r.termDays,
      aprPpm: r.aprPpm,
      earlyRedeem: r.early ? 'FORFEIT_INTEREST' : 'NOT_ALLOWED',
      minAmount: r.min,
      maxAmount,
      userQuota,
      totalQuota: userQuota + r.totalExtra,
      status: 'ON',
    };
  });

const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  w(
    10,
    fc.record({
      k: fc.constant('lock' as const),
      u: fc.nat(2),
      p: fc.constantFrom(0, 0, 1, 1, 2, 2, 3),
      amt: fc.constantFrom(0, 1, 2, 3, 4, 4, 5, 5, 5, 5, 6),
      raw: fc.bigInt({ min: 1n, max: 25_000n * COIN }),
      client: fc.nat(4),
    }),
  ),
  w(5, fc.record({ k: fc.constant('redeem' as const), l: fc.nat(50), own: fc.nat(5).map((n) => n > 0) })),
  w(4, fc.constant({ k: 'settle' as const })),
  w(2, fc.record({ k: fc.constant('move' as const), u: fc.nat(2), toSpot: fc.boolean(), raw: fc.bigInt({ min: 1n, max: 30_000n * COIN }) })),
  w(
    1,
    fc.record({
      k: fc.constant('product' as const),
      p: fc.nat(2),
      aprPpm: fc.constantFrom(...APRS),
      termDays: fc.constantFrom(...TERMS),
      early: fc.boolean(),
      on: fc.nat(3).map((n) => n > 0),
    }),
  ),
  w(8, fc.record({ k: fc.constant('edge' as const), l: fc.nat(50), day: fc.nat(400), d: fc.constantFrom(-1 as const, 0 as const, 1 as const) })),
  w(3, fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(1, 999, HOUR, 12 * HOUR, DAY - 1, DAY, 3 * DAY, 40 * DAY, 400 * DAY) })),
);

const gameArb = fc.tuple(fc.array(productArb, { minLength: 3, maxLength: 3 }), fc.array(opArb, { minLength: 40, maxLength: 140 }));

/** A lock as the rules see it: what was locked, at which terms, and how it ended. */
interface MLock {
  lockId: string;
  userId: string;
  productId: string;
  amount: bigint;
  aprPpm: number;
  termDays: number;
  earlyRedeem: EarnEarlyRule;
  startTs: number;
  state: 'LOCKED' | 'MATURED' | 'EARLY';
}

/** floor(amount x aprPpm x days / (365 x 10^6)): the published interest of `days` whole days. */
function interestOf(amount: bigint, aprPpm: number, days: number): bigint {
  return (amount * BigInt(aprPpm) * BigInt(days)) / (365n * 1_000_000n);
}

/** The published rules of fixed-term savings, as a user may read them (docs/earn.md, the earnLock docstring). */
class SavingsRules {
  readonly products = new Map<string, Product>();
  readonly locks: MLock[] = [];
  private readonly keys = new Map<string, number>();

  running(): MLock[] {
    return this.locks.filter((l) => l.state === 'LOCKED');
  }
  endTs(l: MLock): number {
    return l.startTs + l.termDays * DAY;
  }
  private lockedBy(productId: string, userId?: string): bigint {
    let s = 0n;
    for (const l of this.running()) if (l.productId === productId && (userId === undefined || l.userId === userId)) s += l.amount;
    return s;
  }
  /** What the user's quota in the product has left. */
  quotaLeft(productId: string, userId: string): bigint {
    const p = this.products.get(productId);
    return p === undefined ? 1n : p.userQuota - this.lockedBy(productId, userId);
  }

  /** The code earnLock must return; 'duplicate' for a repeat of the same client id within a day. */
  lockCode(userId: string, productId: string, amount: bigint, clientId: string, ts: number, funding: bigint): ResultCode | 'duplicate' {
    const k = this.keys.get(`${userId}|${clientId}`);
    if (k !== undefined && ts < k + DAY) return 'duplicate';
    const p = this.products.get(productId);
    if (p === undefined) return 'earn_product_not_found';
    if (p.status !== 'ON') return 'earn_product_closed';
    if (amount <= 0n) return 'amount_invalid';
    if (amount < p.minAmount || amount > p.maxAmount) return 'earn_amount_out_of_limits';
    if (this.lockedBy(productId, userId) + amount > p.userQuota || this.lockedBy(productId) + amount > p.totalQuota) return 'earn_quota_exceeded';
    if (funding < amount) return 'insufficient_balance';
    return 'ok';
  }
  locked(lockId: string, userId: string, productId: string, amount: bigint, clientId: string, ts: number): MLock {
    const p = this.products.get(productId) as Product;
    const l: MLock = { lockId, userId, productId, amount, aprPpm: p.aprPpm, termDays: p.termDays, earlyRedeem: p.earlyRedeem, startTs: ts, state: 'LOCKED' };
    this.locks.push(l);
    this.keys.set(`${userId}|${clientId}`, ts);
    return l;
  }
  redeemCode(l: MLock, userId: string, ts: number): ResultCode {
    if (l.state !== 'LOCKED' || l.userId !== userId) return 'earn_lock_not_found';
    if (ts >= this.endTs(l)) return 'ok';
    return l.earlyRedeem === 'FORFEIT_INTEREST' ? 'ok' : 'earn_early_redeem_not_allowed';
  }
  redeemed(l: MLock, ts: number): void {
    l.state = ts >= this.endTs(l) ? 'MATURED' : 'EARLY';
  }
  settled(ts: number): void {
    for (const l of this.running()) if (ts >= this.endTs(l)) l.state = 'MATURED';
  }

  /** Whole days of `l` locked at `ts` (capped at the term). */
  days(l: MLock, ts: number): number {
    if (ts <= l.startTs) return 0;
    return Math.min(l.termDays, Math.floor((ts - l.startTs) / DAY));
  }
  /** The interest the rules entitle `l` to at `ts`: none when redeemed early, the full term's once matured. */
  entitled(l: MLock, ts: number): bigint {
    if (l.state === 'EARLY') return 0n;
    if (l.state === 'MATURED') return interestOf(l.amount, l.aprPpm, l.termDays);
    return interestOf(l.amount, l.aprPpm, this.days(l, ts));
  }
  entitledTotal(ts: number): bigint {
    let s = 0n;
    for (const l of this.locks) s += this.entitled(l, ts);
    return s;
  }
  principal(): bigint {
    let s = 0n;
    for (const l of this.running()) s += l.amount;
    return s;
  }
}

/** A deliberate leak injected after a command (canary runs only). */
type Leak = (e: Engine, cmd: Command, r: CommandResult) => void;

/** What the plays exercised: codes per operation, redemptions by kind. */
const seen = new Tally();

function play([products, ops]: [Product[], Op[]], leak?: Leak): void {
  const e = new Engine({ machines: [earnMachine] });
  let ts = T0;
  const exec = (cmd: Command): CommandResult => {
    const r = e.execute(cmd);
    if (leak !== undefined) leak(e, cmd, r);
    return r;
  };
  const must = (cmd: Command): CommandResult => {
    const r = e.execute(cmd);
    if (r.code !== 'ok') throw new Error(`setup ${cmd.type}: ${r.code}`);
    return r;
  };
  must({ type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
  for (const u of SAVERS) {
    expect(must({ type: 'registerUser', ts, account: `mail:saver${u}@x.io`, uniqueKeys: [], profile: {} }).userId).toBe(u);
    must({ type: 'deposit', ts, userId: u, asset: 'USDT', account: 'ASSETS', amount: START_EACH, from: '@faucet' });
  }
  const rules = new SavingsRules();
  const terms = (p: Product): EarnProductTerms => ({ asset: 'USDT', ...p });
  products.forEach((p, i) => {
    must({ type: 'earnSetProduct', ts, terms: terms(p), operatorId: 'op' });
    rules.products.set(`${i + 1}`, { ...p });
  });
  const start = BigInt(SAVERS.length) * START_EACH;
  let last = 'setup';

  const check = (i: number, op: Op | 'finale', exact: boolean) => {
    const where = () => `step ${i} ${show(op)} at +${ts - T0} ms (after ${last})`;
    checkLedger(e, where);
    const value = groupHoldings(e, SAVERS, 'USDT') + rules.principal();
    const bound = start + rules.entitledTotal(ts);
    invariant(value <= bound, () => `${where()}: the savers hold ${value}, above start ${start} + entitled interest ${bound - start} (by ${value - bound})`);
    if (exact) invariant(value === bound, () => `${where()}: after a settle the savers hold ${value}, not start + entitled interest ${bound}`);
    invariant(
      systemBalance(e, '@earn', 'USDT') === rules.principal(),
      () => `${where()}: '@earn' holds ${systemBalance(e, '@earn', 'USDT')}, the running principal is ${rules.principal()}`,
    );
    const running = rules.running().map((l) => l.lockId);
    const engineRunning = e.earnLocks().map((l) => l.lockId);
    invariant(show(engineRunning) === show(running), () => `${where()}: running locks ${show(engineRunning)}, the rules say ${show(running)}`);
    for (const l of e.earnLocks()) {
      const m = rules.locks.find((x) => x.lockId === l.lockId) as MLock;
      invariant(l.interestPaid <= rules.entitled(m, ts), () => `${where()}: lock ${l.lockId} was paid ${l.interestPaid}, entitled to ${rules.entitled(m, ts)}`);
    }
  };
  const expectCode = (i: number, op: Op, r: CommandResult, code: ResultCode | 'duplicate') => {
    const got = r.code === 'ok' && r.events.length === 0 ? 'duplicate' : r.code;
    seen.add(`${op.k}:${got}`);
    invariant(got === code, () => `step ${i} ${show(op)}: engine answered ${got}, the rules say ${code}`);
  };

  ops.forEach((op, i) => {
    seen.add('steps');
    let exact = false;
    switch (op.k) {
      case 'wait':
        ts += op.ms;
        break;
      case 'edge': {
        const run = rules.running();
        if (run.length === 0) {
          ts += HOUR;
          break;
        }
        const l = run[op.l % run.length] as MLock;
        let k = 1 + (op.day % l.termDays);
        let target = l.startTs + k * DAY + op.d;
        if (target <= ts) {
          k = Math.min(l.termDays, rules.days(l, ts) + 1);
          target = l.startTs + k * DAY + op.d;
        }
        ts = target > ts ? target : ts + 1;
        break;
      }
      case 'lock': {
        const userId = SAVERS[op.u] as string;
        const productId = op.p === 3 ? '99' : `${op.p + 1}`;
        const p = rules.products.get(productId);
        const funding = e.balance(userId, 'ASSETS', 'USDT').available;
        const min = p?.minAmount ?? 1n;
        const max = p?.maxAmount ?? 1n;
        const left = rules.quotaLeft(productId, userId);
        const amount = [min, max, min - 1n, max + 1n, left < max ? left : max, min + (op.raw % (max - min + 1n)), funding][op.amt] as bigint;
        const clientId = `c${op.client}`;
        const code = rules.lockCode(userId, productId, amount, clientId, ts, funding);
        const r = exec({ type: 'earnLock', ts, userId, productId, amount, clientId });
        expectCode(i, op, r, code);
        if (code === 'ok') {
          const view = r.earnLock;
          invariant(view !== undefined && view.amount === amount && view.startTs === ts, () => `step ${i}: lock view ${show(view)}`);
          const m = rules.locked(view.lockId, userId, productId, amount, clientId, ts);
          invariant(
            view.aprPpm === m.aprPpm && view.termDays === m.termDays && view.earlyRedeem === m.earlyRedeem,
            () => `step ${i}: lock ${show(view)} not at the product's terms ${show(m)}`,
          );
        }
        break;
      }
      case 'redeem': {
        if (rules.locks.length === 0) break;
        const l = rules.locks[op.l % rules.locks.length] as MLock;
        const userId = op.own ? l.userId : (SAVERS.find((u) => u !== l.userId) as string);
        const code = rules.redeemCode(l, userId, ts);
        const r = exec({ type: 'earnRedeem', ts, userId, lockId: l.lockId });
        expectCode(i, op, r, code);
        if (code === 'ok') {
          rules.redeemed(l, ts);
          seen.add(`redeemed:${l.state}`);
        }
        break;
      }
      case 'settle': {
        const r = exec({ type: 'earnSettle', ts });
        expectCode(i, op, r, r.events.length === 0 ? 'duplicate' : 'ok');
        invariant(r.code === 'ok', () => `step ${i}: settle answered ${r.code}`);
        rules.settled(ts);
        exact = true;
        break;
      }
      case 'move': {
        const userId = SAVERS[op.u] as string;
        const from = op.toSpot ? 'ASSETS' : 'SPOT';
        const have = e.balance(userId, from, 'USDT').available;
        const amount = op.raw <= have ? op.raw : have;
        if (amount > 0n) expectCode(i, op, exec({ type: 'transfer', ts, userId, asset: 'USDT', from, to: op.toSpot ? 'SPOT' : 'ASSETS', amount }), 'ok');
        break;
      }
      case 'product': {
        const productId = `${op.p + 1}`;
        const p = {
          ...(rules.products.get(productId) as Product),
          aprPpm: op.aprPpm,
          termDays: op.termDays,
          earlyRedeem: op.early ? 'FORFEIT_INTEREST' : 'NOT_ALLOWED',
          status: op.on ? 'ON' : 'OFF',
        } as Product;
        expectCode(i, op, exec({ type: 'earnSetProduct', ts, productId, terms: terms(p), operatorId: 'op' }), 'ok');
        rules.products.set(productId, p);
        break;
      }
    }
    last = op.k;
    check(i, op, exact);
  });

  // Finale: every lock matures and is settled; the savers then hold exactly the start plus the full entitlement.
  for (const l of rules.running()) ts = Math.max(ts, rules.endTs(l));
  ts += 1;
  exec({ type: 'earnSettle', ts });
  rules.settled(ts);
  last = 'final settle';
  check(ops.length, 'finale', true);
  invariant(rules.running().length === 0, () => 'locks still running after the final settle');
}

describe('adversary: fixed-term savings pay no more than the stated rate for the time locked', () => {
  it(`colluding savers at every time boundary (${RUNS} plays)`, () => {
    seen.clear();
    playAdversary('earn', gameArb, RUNS, (g) => play(g));
    seen.report('earn');
    if (RUNS >= 50)
      for (const k of [
        'lock:ok',
        'lock:duplicate',
        'lock:earn_quota_exceeded',
        'redeemed:EARLY',
        'redeemed:MATURED',
        'redeem:earn_early_redeem_not_allowed',
        'settle:ok',
      ])
        expect(seen.get(k), k).toBeGreaterThan(0);
  }, 120_000);

  it('canary: an engine paying every interest twice is caught', () => {
    // The leak: each interest payment is credited a second time (from the faucet, so the ledger still balances).
    const doubleInterest: Leak = (e, cmd, r) => {
      for (const ev of r.events) {
        if (ev.type === 'earnLockChanged' && ev.interest > 0n) {
          e.execute({ type: 'deposit', ts: cmd.ts, userId: ev.lock.userId, asset: 'USDT', account: 'ASSETS', amount: ev.interest, from: '@faucet' });
        }
      }
    };
    const msg = findLeak(gameArb, 200, 7, (g) => play(g, doubleInterest));
    expect(msg).toMatch(/above start .* entitled interest|not start \+ entitled interest/);
  });
});
