/**
 * Fixed-term savings tests: the interest formula against an independent model (fast-check: a day-by-day
 * sum of exact rationals, rounded once), daily settles with exact amounts over days, a settle run twice paying once,
 * maturity, early redemption losing the interest paid, the rejections, quotas, idempotency, double-entry
 * (the principal account holds exactly the locked principal; every asset sums to zero) and a snapshot round trip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { earnSetup, earnTerms, T0, U } from '../../test/earn-fixture';
import { decodeCommand, encodeCommand } from '../codec';
import { Engine, type EngineOptions } from '../engine';
import { MachineMissingError } from '../machine';
import { earnMachine } from './earn-engine';
import type { Command } from '../types';
import { EARN_DAY_MS, EARN_INTEREST, EARN_PRINCIPAL, earnDaysDue, earnInterest } from './types';

const DAY = EARN_DAY_MS;

const setup = earnSetup;
const terms = earnTerms;
const assets = (e: Engine, u: string) => e.balance(u, 'ASSETS', 'USDT').available;
const sys = (e: Engine, o: string) => e.balance(o, 'SYSTEM', 'USDT').available;
function sound(e: Engine) {
  for (const [, v] of e.assetTotals()) expect(v).toBe(0n);
  let locked = 0n;
  for (const l of e.earnLocks()) locked += l.amount;
  expect(sys(e, EARN_PRINCIPAL)).toBe(locked);
}

describe('earn interest math', () => {
  it('is amount x apr x days / 365, rounded down', () => {
    expect(earnInterest(1_000n * U, 36_500, 1)).toBe(10_000_000n); // 0.1 USDT a day on 1,000 at 3.65%
    expect(earnInterest(1_000n * U, 50_000, 30)).toBe(410_958_904n); // 4.10958904109... -> 4.10958904
    expect(earnInterest(1n, 999_999, 365)).toBe(0n);
    expect(() => earnInterest(-1n, 1, 1)).toThrow(RangeError);
  });
  it('counts whole days since the start, capped at the term', () => {
    expect(earnDaysDue(T0, 30, T0)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 + DAY - 1)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 + DAY)).toBe(1);
    expect(earnDaysDue(T0, 30, T0 + 100 * DAY)).toBe(30);
  });
  it('settles at random times pay exactly the model total, never more than the exact interest (property)', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 1n, max: 10n ** 20n }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 365 }),
        fc.array(fc.integer({ min: 0, max: 400 * DAY }), { maxLength: 12 }),
        (amount, apr, term, times) => {
          // Independent model: day by day, exact rational sum num/den, rounded down once at the end.
          const den = 365n * 1_000_000n;
          let num = 0n;
          let paid = 0n;
          let daysPaid = 0;
          for (const t of [...times].sort((a, b) => a - b)) {
            const due = Math.min(term, Math.floor(t / DAY));
            while (daysPaid < due) {
              num += amount * BigInt(apr);
              daysPaid++;
            }
            const owed = num / den - paid;
            expect(owed >= 0n).toBe(true);
            paid += owed;
            expect(earnInterest(amount, apr, daysPaid)).toBe(paid);
          }
          expect(paid * den <= num).toBe(true);
          expect(num - paid * den < den).toBe(true);
        },
      ),
    );
  });
});

describe('earn engine', () => {
  it('the savings and convert commands survive the journal codec', () => {
    const cmds = [
      { type: 'earnSetProduct', ts: T0, terms: terms(), operatorId: 'op1', audit: { a: 'b' } },
      { type: 'earnLock', ts: T0, userId: '1', productId: '1', amount: 5n * U, clientId: 'c' },
      { type: 'earnRedeem', ts: T0, userId: '1', lockId: '1' },
      { type: 'earnSettle', ts: T0 },
      { type: 'convert', ts: T0, userId: '1', symbol: 'BTC/USDT', side: 'SELL', amount: U, minReceive: 7n, expiresTs: T0 + 10_000, clientId: 'cv1' },
    ] as Command[];
    for (const c of cmds) expect(decodeCommand(encodeCommand(c))).toEqual(c);
  });

  it('an operator creates and changes a product; bad terms are refused', () => {
    const { e, run } = setup();
    const r = run({ type: 'earnSetProduct', terms: terms(), operatorId: 'op1', audit: { action: 'earn.product' } });
    expect(r.code).toBe('ok');
    expect(r.earnProduct?.productId).toBe('1');
    expect(r.events[0]).toMatchObject({ type: 'earnProductChanged', audit: { action: 'earn.product' } });
    expect(run({ type: 'earnSetProduct', productId: '1', terms: terms({ aprPpm: 50_000, status: 'OFF' }), operatorId: 'op1' }).code).toBe('ok');
    expect(e.earnProduct('1')).toMatchObject({ aprPpm: 50_000, status: 'OFF' });
    expect(run({ type: 'earnSetProduct', productId: '9', terms: terms(), operatorId: 'op1' }).code).toBe('earn_product_not_found');
    expect(run({ type: 'earnSetProduct', terms: terms({ termDays: 0 }), operatorId: 'op1' }).code).toBe('invalid_config');
    expect(run({ type: 'earnSetProduct', terms: terms({ aprPpm: 1_000_001 }), operatorId: 'op1' }).code).toBe('invalid_config');
    expect(run({ type: 'earnSetProduct', terms: terms({ minAmount: 6_000n * U }), operatorId: 'op1' }).code).toBe('invalid_config');
    expect(run({ type: 'earnSetProduct', terms: terms({ asset: 'BTC' }), operatorId: 'op1' }).code).toBe('asset_not_found');
    expect(run({ type: 'earnSetProduct', productId: '1', terms: terms({ asset: 'BTC' }), operatorId: 'op1' }).code).toBe('invalid_config');
  });

  it('pays interest daily with exact amounts; a settle run twice pays once; maturity returns the principal', () => {
    const { e, run, at } = setup();
    run({ type: 'earnSetProduct', terms: terms({ termDays: 3 }), operatorId: 'op1' });
    const lock = run({ type: 'earnLock', userId: '1', productId: '1', amount: 1_000n * U, clientId: 'c1' });
    expect(lock.code).toBe('ok');
    expect(lock.earnLock).toMatchObject({ lockId: '1', amount: 1_000n * U, startTs: T0, endTs: T0 + 3 * DAY, status: 'LOCKED' });
    expect(assets(e, '1')).toBe(9_000n * U);
    expect(sys(e, EARN_PRINCIPAL)).toBe(1_000n * U);
    sound(e);
    // Before the first day ends: nothing.
    at(T0 + DAY - 1);
    expect(run({ type: 'earnSettle' }).events).toHaveLength(0);
    at(T0 + DAY);
    const s1 = run({ type: 'earnSettle' });
    expect(s1.events.find((x) => x.type === 'earnLockChanged')).toMatchObject({ interest: 10_000_000n });
    expect(assets(e, '1')).toBe(9_000n * U + 10_000_000n);
    // The same settle again (a retry, a restart): pays nothing more.
    expect(run({ type: 'earnSettle' }).events).toHaveLength(0);
    expect(assets(e, '1')).toBe(9_000n * U + 10_000_000n);
    at(T0 + 2 * DAY + 5);
    run({ type: 'earnSettle' });
    expect(e.earnLock('1')).toMatchObject({ daysPaid: 2, interestPaid: 20_000_000n });
    at(T0 + 3 * DAY);
    const m = run({ type: 'earnSettle' });
    const ev = m.events.find((x) => x.type === 'earnLockChanged');
    expect(ev).toMatchObject({
      interest: 10_000_000n,
      lock: { status: 'REDEEMED', redeemKind: 'MATURITY', returned: 1_000n * U, forfeited: 0n, interestPaid: 30_000_000n },
    });
    expect(assets(e, '1')).toBe(10_000n * U + 30_000_000n);
    expect(sys(e, EARN_INTEREST)).toBe(-30_000_000n);
    expect(e.earnLocks()).toHaveLength(0);
    expect(e.earnProduct('1')?.lockedTotal).toBe(0n);
    expect(run({ type: 'earnSettle' }).events).toHaveLength(0);
    sound(e);
  });

  it('a settle long after several days pays them at once, the same total as daily settles', () => {
    const { e, run, at } = setup();
    run({ type: 'earnSetProduct', terms: terms({ aprPpm: 50_000 }), operatorId: 'op1' });
    run({ type: 'earnLock', userId: '1', productId: '1', amount: 1_000n * U, clientId: 'c1' });
    at(T0 + 30 * DAY + 7);
    run({ type: 'earnSettle' });
    expect(assets(e, '1')).toBe(10_000n * U + 410_958_904n);
    sound(e);
  });

  it('early redemption gives back the principal minus the interest paid; NOT_ALLOWED products refuse', () => {
    const { e, run, at } = setup();
    run({ type: 'earnSetProduct', terms: terms(), operatorId: 'op1' });
    run({ type: 'earnSetProduct', terms: terms({ earlyRedeem: 'NOT_ALLOWED' }), operatorId: 'op1' });
    run({ type: 'earnLock', userId: '1', productId: '1', amount: 1_000n * U, clientId: 'a' });
    run({ type: 'earnLock', userId: '1', productId: '2', amount: 100n * U, clientId: 'b' });
    at(T0 + 2 * DAY);
    run({ type: 'earnSettle' });
    expect(assets(e, '1')).toBe(8_900n * U + 20_000_000n + 2_000_000n);
    expect(run({ type: 'earnRedeem', userId: '2', lockId: '1' }).code).toBe('earn_lock_not_found'); // another user's
    expect(run({ type: 'earnRedeem', userId: '1', lockId: '2' }).code).toBe('earn_early_redeem_not_allowed');
    const r = run({ type: 'earnRedeem', userId: '1', lockId: '1' });
    expect(r.code).toBe('ok');
    expect(r.earnLock).toMatchObject({ status: 'REDEEMED', redeemKind: 'EARLY', returned: 1_000n * U - 20_000_000n, forfeited: 20_000_000n });
    // Net: the user has the principal back and no interest from this lock; the interest account got it back.
    expect(assets(e, '1')).toBe(9_900n * U + 2_000_000n);
    expect(sys(e, EARN_INTEREST)).toBe(-2_000_000n);
    expect(run({ type: 'earnRedeem', userId: '1', lockId: '1' }).code).toBe('earn_lock_not_found');
    // A NOT_ALLOWED lock can be redeemed by its owner once matured (before the job got to it).
    at(T0 + 30 * DAY);
    const m = run({ type: 'earnRedeem', userId: '1', lockId: '2' });
    expect(m.earnLock).toMatchObject({ redeemKind: 'MATURITY', returned: 100n * U, interestPaid: 30_000_000n });
    sound(e);
  });

  it('refuses out-of-limit amounts, quotas, closed products, missing funds; idempotent by client id', () => {
    const { e, run } = setup();
    run({ type: 'earnSetProduct', terms: terms(), operatorId: 'op1' });
    const lock = (u: string, amount: bigint, clientId: string) => run({ type: 'earnLock', userId: u, productId: '1', amount, clientId }).code;
    expect(lock('1', 9n * U, 'x')).toBe('earn_amount_out_of_limits');
    expect(lock('1', 5_001n * U, 'x')).toBe('earn_amount_out_of_limits');
    expect(lock('1', 0n, 'x')).toBe('amount_invalid');
    expect(run({ type: 'earnLock', userId: '1', productId: '7', amount: 10n * U, clientId: 'x' }).code).toBe('earn_product_not_found');
    expect(run({ type: 'earnLock', userId: '9', productId: '1', amount: 10n * U, clientId: 'x' }).code).toBe('user_not_found');
    expect(lock('1', 5_000n * U, 'a')).toBe('ok');
    const again = run({ type: 'earnLock', userId: '1', productId: '1', amount: 5_000n * U, clientId: 'a' });
    expect(again).toMatchObject({ code: 'ok', duplicate: true, events: [] });
    expect(assets(e, '1')).toBe(5_000n * U);
    expect(lock('1', 1_001n * U, 'b')).toBe('earn_quota_exceeded'); // user's 6,000
    expect(lock('2', 3_001n * U, 'b')).toBe('earn_quota_exceeded'); // total 8,000
    expect(lock('2', 3_000n * U, 'b')).toBe('ok');
    run({ type: 'earnSetProduct', productId: '1', terms: terms({ status: 'OFF', totalQuota: 10_000n * U }), operatorId: 'op1' });
    expect(lock('2', 10n * U, 'c')).toBe('earn_product_closed');
    run({ type: 'earnSetProduct', productId: '1', terms: terms({ totalQuota: 100_000n * U, userQuota: 100_000n * U }), operatorId: 'op1' });
    expect(lock('2', 5_000n * U, 'd')).toBe('ok');
    expect(lock('2', 3_000n * U, 'e')).toBe('insufficient_balance');
    sound(e);
  });

  it('the state survives a snapshot round trip (same hash, same behaviour)', () => {
    const { e, run, at } = setup();
    run({ type: 'earnSetProduct', terms: terms(), operatorId: 'op1' });
    run({ type: 'earnLock', userId: '1', productId: '1', amount: 1_000n * U, clientId: 'a' });
    const early = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>, { machines: [earnMachine] });
    const dup = { type: 'earnLock', ts: T0 + 1, userId: '1', productId: '1', amount: 1_000n * U, clientId: 'a' } as Command;
    expect(early.execute(dup)).toMatchObject({ code: 'ok', duplicate: true, earnLock: { lockId: '1' } });
    at(T0 + DAY);
    run({ type: 'earnSettle' });
    const copy = Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>, { machines: [earnMachine] });
    expect(copy.stateHash()).toBe(e.stateHash());
    expect(copy.earnLock('1')).toEqual(e.earnLock('1'));
    const cmd = { type: 'earnRedeem', ts: T0 + 2 * DAY, userId: '1', lockId: '1' } as Command;
    expect(copy.execute(cmd)).toEqual(e.execute(cmd));
    expect(copy.stateHash()).toBe(e.stateHash());
  });
});

describe('the savings machine given by the host', () => {
  /** A product, a lock and a settle three days later, at fixed times. */
  function scenario(machines: EngineOptions['machines']): Engine {
    const e = new Engine({ machines });
    let ts = 1_700_000_000_000;
    const run = (c: Record<string, unknown>) => expect(e.execute({ ts: ++ts, ...c } as unknown as Command).code).toBe('ok');
    run({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
    for (const a of ['alice', 'bob']) run({ type: 'registerUser', account: a, uniqueKeys: [], profile: {} });
    for (const u of ['1', '2']) run({ type: 'deposit', userId: u, asset: 'USDT', account: 'ASSETS', amount: 10_000n * U, from: '@faucet' });
    run({ type: 'earnSetProduct', operatorId: 'op', terms: earnTerms() });
    run({ type: 'earnLock', userId: '1', productId: '1', amount: 100n * U, clientId: 'c1' });
    ts += 3 * DAY;
    run({ type: 'earnSettle' });
    return e;
  }

  it('keeps the snapshot and the state hash the engine wrote when it listed savings itself', () => {
    // The hash the engine of the commit before the move (ef04fe29) gave for this scenario: a data directory's
    // snapshots written then restore to the same state and pass their recorded hash.
    const e = scenario([earnMachine]);
    expect(Object.keys(e.snapshot()).at(-1)).toBe('earn');
    expect(e.stateHash()).toBe('2e168333a600c3e8eec7bddc3b38d19eaf084f99a9f569e98b79e560e97f34db');
    expect(Engine.restore(JSON.parse(JSON.stringify(e.snapshot())) as ReturnType<Engine['snapshot']>, { machines: [earnMachine] }).stateHash()).toBe(
      e.stateHash(),
    );
  });

  it('is refused by an engine not given it: its commands, and a restore of its state', () => {
    const e = scenario([earnMachine]);
    expect(new Engine().execute({ type: 'earnSettle', ts: T0 } as Command)).toEqual({ code: 'invalid_order', events: [] });
    expect(() => Engine.restore(e.snapshot())).toThrow(MachineMissingError);
  });
});
