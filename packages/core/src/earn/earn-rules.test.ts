/**
 * Fixed-term savings rules at their exact edges, through the real Engine's commands and the exported functions
 * (written from the earn mutation run's survivors; the flows and the interest property are in earn-engine.test.ts):
 * keys of 1..128 characters (and not strings: refused), a userId starting with '@' refused, integer and amount bounds
 * (10^30 accepted, 10^30 + 1 refused, numbers and strings refused), each clause of earnTermsValid, audit maps (32
 * entries, 64-character names and 2,000-character values accepted, one more refused, non-string values refused), a
 * rejection answering only its code with no events, the lock key window (a retry 1 ms inside the window is the
 * duplicate and answers the first lock, one at the window is a new lock; a settle forgets keys at exactly the window),
 * earnDaysDue and earnInterest at their bounds and guards, a frozen user, a balance one unit short, settles that owe
 * nothing (again on the same day, or with an earlier time) changing nothing, reads returning copies and filtering by
 * user, the snapshot leaving savings out before the first product, the audit on product events only when given, and
 * EARN_COMMAND_TYPES naming exactly the commands the engine routes to savings.
 */
import { describe, expect, it } from 'vitest';
import { earnSetup, earnTerms, T0, U } from '../../test/earn-fixture';
import { Engine } from '../engine';
import { Ledger } from '../ledger/ledger';
import type { Command, EngineEvent, RejectCode } from '../types';
import { EARN_KEY_WINDOW_MS, EarnState, earnTermsValid, type EarnHost } from './earn-engine';
import { EARN_COMMAND_TYPES, EARN_DAY_MS, EARN_MAX_AMOUNT, earnDaysDue, earnInterest, type EarnCommand, type EarnProductTerms } from './types';

const DAY = EARN_DAY_MS;
const W = EARN_KEY_WINDOW_MS;
/** A string of `n` characters. */
const str = (n: number) => 'k'.repeat(n);
/** What every rejection answers: its code and no events. */
const refused = (code: RejectCode) => ({ code, events: [] });

const setup = earnSetup;
const terms = earnTerms;
const setProduct = (over: Record<string, unknown> = {}) => ({ type: 'earnSetProduct', terms: terms(), operatorId: 'op1', ...over });
const lockCmd = (over: Record<string, unknown> = {}) => ({ type: 'earnLock', userId: '1', productId: '1', amount: 100n * U, clientId: 'c', ...over });
const assets = (e: Engine, u: string) => e.balance(u, 'ASSETS', 'USDT').available;
/** The savings part of the engine's snapshot (absent before the first product). */
const earnSnap = (e: Engine) => (e.snapshot() as unknown as { earn?: { productSeq: number; lockSeq: number; keys: unknown[] } }).earn;
/** A map of `n` entries k0..k(n-1), each value 'v'. */
const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
/** Terms with one field replaced by anything (a wrong type included). */
const bad = (field: keyof EarnProductTerms, v: unknown) => ({ ...terms(), [field]: v });

describe('earnTermsValid', () => {
  it('accepts the bounds and refuses each clause broken by one', () => {
    expect(earnTermsValid(terms())).toBe(true);
    const max = EARN_MAX_AMOUNT;
    expect(max).toBe(10n ** 30n);
    expect(earnTermsValid(terms({ minAmount: max, maxAmount: max, userQuota: max, totalQuota: max }))).toBe(true);
    expect(earnTermsValid(terms({ totalQuota: max + 1n }))).toBe(false);
    expect(earnTermsValid(terms({ minAmount: 1n }))).toBe(true);
    expect(earnTermsValid(terms({ minAmount: 0n }))).toBe(false);
    expect(earnTermsValid(terms({ minAmount: -1n }))).toBe(false);
    // minAmount <= maxAmount <= userQuota <= totalQuota, each at equality and one unit past it
    expect(earnTermsValid(terms({ minAmount: 5_000n * U }))).toBe(true);
    expect(earnTermsValid(terms({ minAmount: 5_000n * U + 1n }))).toBe(false);
    expect(earnTermsValid(terms({ maxAmount: 6_000n * U }))).toBe(true);
    expect(earnTermsValid(terms({ maxAmount: 6_000n * U + 1n }))).toBe(false);
    expect(earnTermsValid(terms({ userQuota: 8_000n * U }))).toBe(true);
    expect(earnTermsValid(terms({ userQuota: 8_000n * U + 1n }))).toBe(false);
    // the rule and the status
    expect(earnTermsValid(terms({ earlyRedeem: 'NOT_ALLOWED' }))).toBe(true);
    expect(earnTermsValid(bad('earlyRedeem', 'ALLOWED'))).toBe(false);
    expect(earnTermsValid(bad('earlyRedeem', undefined))).toBe(false);
    expect(earnTermsValid(terms({ status: 'OFF' }))).toBe(true);
    expect(earnTermsValid(bad('status', 'PAUSED'))).toBe(false);
    expect(earnTermsValid(bad('status', 'on'))).toBe(false);
  });

  it('integers: termDays 1..365, aprPpm 0..1,000,000, whole numbers of type number only', () => {
    expect(earnTermsValid(terms({ termDays: 1 }))).toBe(true);
    expect(earnTermsValid(terms({ termDays: 365 }))).toBe(true);
    expect(earnTermsValid(terms({ termDays: 0 }))).toBe(false);
    expect(earnTermsValid(terms({ termDays: 366 }))).toBe(false);
    expect(earnTermsValid(terms({ termDays: 1.5 }))).toBe(false);
    expect(earnTermsValid(terms({ termDays: 0 / 0 }))).toBe(false);
    expect(earnTermsValid(bad('termDays', '30'))).toBe(false);
    expect(earnTermsValid(bad('termDays', 30n))).toBe(false);
    expect(earnTermsValid(terms({ aprPpm: 0 }))).toBe(true);
    expect(earnTermsValid(terms({ aprPpm: 1_000_000 }))).toBe(true);
    expect(earnTermsValid(terms({ aprPpm: -1 }))).toBe(false);
    expect(earnTermsValid(terms({ aprPpm: 1_000_001 }))).toBe(false);
    expect(earnTermsValid(terms({ aprPpm: 0.5 }))).toBe(false);
    expect(earnTermsValid(bad('aprPpm', '36500'))).toBe(false);
  });

  it('amounts are bigints: a number or a string is refused even when it compares in range', () => {
    expect(earnTermsValid(bad('minAmount', 5))).toBe(false);
    expect(earnTermsValid(bad('minAmount', '1000000000'))).toBe(false);
    expect(earnTermsValid(bad('totalQuota', 8_000 * 100_000_000))).toBe(false);
  });

  it('the asset is a key of 1..128 characters; null and non-objects are not terms', () => {
    expect(earnTermsValid(terms({ asset: 'U' }))).toBe(true);
    expect(earnTermsValid(terms({ asset: str(128) }))).toBe(true);
    expect(earnTermsValid(terms({ asset: str(129) }))).toBe(false);
    expect(earnTermsValid(terms({ asset: '' }))).toBe(false);
    expect(earnTermsValid(bad('asset', 5))).toBe(false);
    expect(earnTermsValid(null)).toBe(false);
    expect(earnTermsValid(undefined)).toBe(false);
    expect(earnTermsValid('terms')).toBe(false);
    expect(earnTermsValid(5)).toBe(false);
    // a function carrying every field of valid terms is still not an object of terms
    expect(earnTermsValid(Object.assign(() => undefined, terms()))).toBe(false);
  });
});

describe('earnInterest and earnDaysDue', () => {
  it('earnInterest: zero inputs give 0; rates and days up to 2^31 compute; beyond, negatives and fractions throw', () => {
    expect(earnInterest(0n, 50_000, 30)).toBe(0n);
    expect(earnInterest(1_000n * U, 0, 30)).toBe(0n);
    expect(earnInterest(1_000n * U, 36_500, 0)).toBe(0n);
    expect(earnInterest(365_000_000n, 2 ** 31, 1)).toBe(2n ** 31n);
    expect(earnInterest(365_000_000n, 1, 2 ** 31)).toBe(2n ** 31n);
    expect(earnInterest(365_000_000n, 2 ** 31, 2 ** 31)).toBe(2n ** 62n);
    expect(earnInterest(1n, 2 ** 31, 1)).toBe(5n); // 2,147,483,648 / 365,000,000 = 5.88 -> 5
    const msg = 'earnInterest: negative or non-integer input';
    const cases: [bigint, number, number][] = [
      [-1n, 1, 1],
      [1n, -1, 1],
      [1n, 1, -1],
      [1n, 1.5, 1],
      [1n, 1, 1.5],
      [1n, 0 / 0, 1],
      [1n, 1, 0 / 0],
      [1n, 2 ** 31 + 1, 1],
      [1n, 1, 2 ** 31 + 1],
    ];
    for (const [a, r, d] of cases) {
      expect(() => earnInterest(a, r, d)).toThrow(RangeError);
      expect(() => earnInterest(a, r, d)).toThrow(msg);
    }
  });

  it('earnDaysDue counts whole days from the start, 0 at and before it, capped at the term', () => {
    expect(earnDaysDue(T0, 30, T0 - 1)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 - 5 * DAY)).toBe(0);
    expect(earnDaysDue(T0, 30, T0)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 + 1)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 + DAY - 1)).toBe(0);
    expect(earnDaysDue(T0, 30, T0 + DAY)).toBe(1);
    expect(earnDaysDue(T0, 30, T0 + 2 * DAY - 1)).toBe(1);
    expect(earnDaysDue(T0, 30, T0 + 30 * DAY - 1)).toBe(29);
    expect(earnDaysDue(T0, 30, T0 + 30 * DAY)).toBe(30);
    expect(earnDaysDue(T0, 30, T0 + 30 * DAY + 1)).toBe(30);
    expect(earnDaysDue(T0, 30, T0 + 400 * DAY)).toBe(30);
    expect(earnDaysDue(T0, 1, T0 + DAY)).toBe(1);
    expect(earnDaysDue(T0, 1, T0 + 2 * DAY)).toBe(1);
  });
});

describe('earnSetProduct rules', () => {
  it('operatorId and productId are keys of 1..128 characters; a malformed productId is invalid_config, not unknown', () => {
    const { e, run } = setup();
    for (const operatorId of ['', str(129), null, 5]) expect(run(setProduct({ operatorId }))).toEqual(refused('invalid_config'));
    expect(e.earnProducts()).toEqual([]);
    expect(run(setProduct({ operatorId: 'o' })).earnProduct?.productId).toBe('1');
    expect(run(setProduct({ operatorId: str(128) })).earnProduct?.productId).toBe('2');
    for (const productId of ['', str(129), null, 7]) expect(run(setProduct({ productId }))).toEqual(refused('invalid_config'));
    expect(run(setProduct({ productId: str(128) }))).toEqual(refused('earn_product_not_found'));
    const r = run(setProduct({ productId: '2', terms: terms({ aprPpm: 1 }) }));
    expect(r.code).toBe('ok');
    expect(r.earnProduct).toMatchObject({ productId: '2', aprPpm: 1 });
    expect(e.earnProducts().map((p) => [p.productId, p.aprPpm])).toEqual([
      ['1', 36_500],
      ['2', 1],
    ]);
  });

  it('bad terms are refused through the command: each && clause, null and non-object terms', () => {
    const { e, run } = setup();
    const cases: unknown[] = [
      null,
      'terms',
      terms({ maxAmount: 6_000n * U + 1n }),
      terms({ userQuota: 8_000n * U + 1n }),
      terms({ totalQuota: EARN_MAX_AMOUNT + 1n }),
      bad('earlyRedeem', 'ALLOWED'),
      bad('status', 'PAUSED'),
      bad('termDays', '30'),
      bad('minAmount', 5),
    ];
    for (const t of cases) expect(run(setProduct({ terms: t }))).toEqual(refused('invalid_config'));
    expect(e.earnProducts()).toEqual([]);
  });

  it('audit maps: absent, {}, 32 entries, 64-char names, 2,000-char values accepted; one more of each and non-maps refused', () => {
    const { e, run } = setup();
    const good: unknown[] = [undefined, {}, entries(32), { [str(64)]: 'v' }, { a: str(2_000) }, { a: '' }];
    for (const audit of good) expect(run(setProduct({ audit })).code).toBe('ok');
    expect(e.earnProducts()).toHaveLength(good.length);
    const badAudits: unknown[] = [
      null,
      [],
      ['x'],
      'abc',
      5,
      entries(33),
      { [str(65)]: 'v' },
      { a: str(2_001) },
      { a: 5 },
      { a: null },
      { a: ['x'] },
      { ok: 'v', [str(65)]: 'v' }, // one bad entry among good ones
      { ok: 'v', b: 5 },
    ];
    for (const audit of badAudits) expect(run(setProduct({ audit }))).toEqual(refused('invalid_config'));
    expect(e.earnProducts()).toHaveLength(good.length);
  });

  it('earnProductChanged carries the product as it now is, and the audit only when the command gave one', () => {
    const { e, run, at } = setup();
    const r1 = run(setProduct({ audit: { action: 'create' } }));
    const p1 = e.earnProduct('1');
    expect(p1).toEqual({ productId: '1', ...terms(), lockedTotal: 0n, createdTs: T0, updatedTs: T0 });
    expect(r1.events).toEqual([{ type: 'earnProductChanged', ts: T0, product: p1, audit: { action: 'create' } }]);
    at(T0 + 5);
    const r2 = run(setProduct({ productId: '1', terms: terms({ aprPpm: 1 }) }));
    const p2 = e.earnProduct('1');
    expect(p2).toEqual({ productId: '1', ...terms({ aprPpm: 1 }), lockedTotal: 0n, createdTs: T0, updatedTs: T0 + 5 });
    expect(r2.events).toEqual([{ type: 'earnProductChanged', ts: T0 + 5, product: p2 }]);
    expect(r2.events[0]).not.toHaveProperty('audit');
    // a lock's product event has no audit either
    const r3 = run(lockCmd());
    const pe = r3.events.find((x) => x.type === 'earnProductChanged');
    expect(pe).toEqual({ type: 'earnProductChanged', ts: T0 + 5, product: { ...p2, lockedTotal: 100n * U } });
    expect(pe).not.toHaveProperty('audit');
  });

  it('the snapshot leaves savings out before the first product (a refused one included), and has them after', () => {
    const { e, run } = setup();
    expect(earnSnap(e)).toBeUndefined();
    run(setProduct({ operatorId: '' }));
    expect(earnSnap(e)).toBeUndefined();
    const h = e.stateHash();
    run(setProduct());
    expect(e.stateHash()).not.toBe(h);
    expect(earnSnap(e)).toMatchObject({ productSeq: 1, lockSeq: 0, keys: [] });
  });

  it('EarnState.isEmpty is true until the first product; an unknown command type is invalid_order with no events', () => {
    const ledger = new Ledger();
    const events: EngineEvent[] = [];
    const host: EarnHost = { ledger, events, isFrozen: () => false, isUser: () => true, hasAsset: (c) => (c === 'USDT' ? 8 : undefined) };
    const s = new EarnState(ledger);
    expect(s.isEmpty).toBe(true);
    expect(s.execute({ type: 'earnBogus', ts: T0 } as unknown as EarnCommand, host)).toEqual(refused('invalid_order'));
    expect(s.execute({ type: 'earnSetProduct', ts: T0, terms: terms({ asset: 'BTC' }), operatorId: 'op' }, host)).toEqual(refused('asset_not_found'));
    expect(s.isEmpty).toBe(true);
    expect(s.execute({ type: 'earnSetProduct', ts: T0, terms: terms(), operatorId: 'op' }, host).code).toBe('ok');
    expect(s.isEmpty).toBe(false);
    expect(s.earnProducts().map((p) => p.productId)).toEqual(['1']);
    // through the engine, an unknown type is refused the same way
    expect(new Engine().execute({ type: 'earnBogus', ts: T0 } as unknown as Command)).toEqual(refused('invalid_order'));
  });

  it('EARN_COMMAND_TYPES names exactly the four commands the engine routes to savings', () => {
    expect(EARN_COMMAND_TYPES).toEqual(['earnSetProduct', 'earnLock', 'earnRedeem', 'earnSettle']);
    const { run } = setup();
    // each reaches the savings state (its own validation answers, not the engine's invalid_order)
    expect(EARN_COMMAND_TYPES.map((type) => run({ type }).code)).toEqual(['invalid_config', 'invalid_config', 'invalid_config', 'ok']);
  });
});

describe('earnLock rules', () => {
  it('userId, clientId and productId are keys of 1..128 characters; a userId starting with @ is refused', () => {
    const { e, run } = setup();
    run(setProduct());
    for (const userId of ['', str(129), null, 5, '@1', '@earn', '@interest']) expect(run(lockCmd({ userId }))).toEqual(refused('invalid_config'));
    for (const clientId of ['', str(129), null, 5]) expect(run(lockCmd({ clientId }))).toEqual(refused('invalid_config'));
    for (const productId of ['', str(129), null, 5]) expect(run(lockCmd({ productId }))).toEqual(refused('invalid_config'));
    expect(e.earnLocks()).toEqual([]);
    expect(assets(e, '1')).toBe(10_000n * U);
    // well-formed but unknown
    expect(run(lockCmd({ userId: str(128) }))).toEqual(refused('user_not_found'));
    expect(run(lockCmd({ userId: '1@' }))).toEqual(refused('user_not_found'));
    expect(run(lockCmd({ productId: str(128) }))).toEqual(refused('earn_product_not_found'));
    // a 1-character and a 128-character client id lock
    expect(run(lockCmd({ clientId: 'c' })).earnLock).toMatchObject({ lockId: '1', clientId: 'c', userId: '1' });
    expect(run(lockCmd({ clientId: str(128) })).earnLock).toMatchObject({ lockId: '2', clientId: str(128) });
    expect(assets(e, '1')).toBe(9_800n * U);
  });

  it('amounts: bigints from 1 unit to 10^30; 0, negatives, numbers, strings and 10^30 + 1 are amount_invalid', () => {
    const { e, run } = setup();
    run(setProduct({ terms: terms({ minAmount: 1n, maxAmount: EARN_MAX_AMOUNT, userQuota: EARN_MAX_AMOUNT, totalQuota: EARN_MAX_AMOUNT }) }));
    for (const amount of [0n, -1n, 5, 10_000_000_000, '100', EARN_MAX_AMOUNT + 1n]) expect(run(lockCmd({ amount }))).toEqual(refused('amount_invalid'));
    // 10^30 is a valid amount: what stops it is the balance
    expect(run(lockCmd({ amount: EARN_MAX_AMOUNT }))).toEqual(refused('insufficient_balance'));
    expect(run(lockCmd({ amount: 1n })).earnLock).toMatchObject({ amount: 1n });
    expect(assets(e, '1')).toBe(10_000n * U - 1n);
  });

  it('a frozen user is refused with account_frozen and nothing changes; unfrozen, the lock goes through', () => {
    const { e, run } = setup();
    run(setProduct());
    expect(run({ type: 'updateUser', userId: '1', profile: { frozen: '1' } }).code).toBe('ok');
    const h = e.stateHash();
    expect(run(lockCmd())).toEqual(refused('account_frozen'));
    expect(e.stateHash()).toBe(h);
    expect(assets(e, '1')).toBe(10_000n * U);
    run({ type: 'updateUser', userId: '1', profile: { frozen: '0' } });
    expect(run(lockCmd()).code).toBe('ok');
    expect(assets(e, '1')).toBe(9_900n * U);
  });

  it('insufficient_balance at exactly one unit short, and for a user with no ASSETS account; the exact balance locks', () => {
    const { e, run } = setup();
    run(setProduct({ terms: terms({ maxAmount: 20_000n * U, userQuota: 20_000n * U, totalQuota: 40_000n * U }) }));
    expect(run(lockCmd({ userId: '2', amount: 10_000n * U + 1n }))).toEqual(refused('insufficient_balance'));
    expect(assets(e, '2')).toBe(10_000n * U);
    run({ type: 'registerUser', account: 'carol', uniqueKeys: [], profile: {} });
    expect(run(lockCmd({ userId: '3', amount: 10n * U }))).toEqual(refused('insufficient_balance'));
    const r = run(lockCmd({ userId: '2', amount: 10_000n * U }));
    expect(r.earnLock).toMatchObject({ userId: '2', amount: 10_000n * U });
    expect(assets(e, '2')).toBe(0n);
    expect(e.balance('@earn', 'SYSTEM', 'USDT').available).toBe(10_000n * U);
  });

  it('a retry 1 ms inside the key window is the duplicate answering the first lock; at the window it is a new lock', () => {
    const { e, run, at } = setup();
    run(setProduct());
    expect(W).toBe(86_400_000);
    const first = run(lockCmd({ clientId: 'k' }));
    expect(first.earnLock).toMatchObject({ lockId: '1', startTs: T0 });
    at(T0 + W - 1);
    const h = e.stateHash();
    expect(run(lockCmd({ clientId: 'k' }))).toStrictEqual({ code: 'ok', events: [], duplicate: true, earnLock: first.earnLock });
    expect(e.stateHash()).toBe(h);
    // the key is (userId, clientId): another user's same client id is its own lock
    expect(run(lockCmd({ userId: '2', clientId: 'k' })).earnLock).toMatchObject({ lockId: '2', userId: '2' });
    at(T0 + W);
    const again = run(lockCmd({ clientId: 'k' }));
    expect(again.code).toBe('ok');
    expect(again.duplicate).toBeUndefined();
    expect(again.earnLock).toMatchObject({ lockId: '3', userId: '1', clientId: 'k', startTs: T0 + W });
    expect(assets(e, '1')).toBe(9_800n * U);
  });

  it('a retry of a lock that has ended is a duplicate without a lock', () => {
    const { e, run, at } = setup();
    run(setProduct());
    run(lockCmd({ clientId: 'k' }));
    at(T0 + 1);
    expect(run({ type: 'earnRedeem', userId: '1', lockId: '1' }).earnLock).toMatchObject({ redeemKind: 'EARLY', returned: 100n * U });
    at(T0 + 2);
    expect(run(lockCmd({ clientId: 'k' }))).toStrictEqual({ code: 'ok', events: [], duplicate: true });
    expect(assets(e, '1')).toBe(10_000n * U);
  });
});

describe('earnRedeem and earnSettle rules', () => {
  it('earnRedeem: userId and lockId are keys of 1..128 characters; malformed is invalid_config, unknown earn_lock_not_found', () => {
    const { e, run } = setup();
    run(setProduct());
    run(lockCmd());
    for (const userId of ['', str(129), null, 5]) expect(run({ type: 'earnRedeem', userId, lockId: '1' })).toEqual(refused('invalid_config'));
    for (const lockId of ['', str(129), null, 5]) expect(run({ type: 'earnRedeem', userId: '1', lockId })).toEqual(refused('invalid_config'));
    expect(run({ type: 'earnRedeem', userId: str(128), lockId: '1' })).toEqual(refused('earn_lock_not_found'));
    expect(run({ type: 'earnRedeem', userId: '1', lockId: str(128) })).toEqual(refused('earn_lock_not_found'));
    expect(e.earnLock('1')?.status).toBe('LOCKED');
    expect(run({ type: 'earnRedeem', userId: '1', lockId: '1' }).earnLock).toMatchObject({ status: 'REDEEMED', redeemKind: 'EARLY' });
  });

  it('a settle forgets lock keys at exactly the window, not 1 ms before', () => {
    const { e, run, at } = setup();
    run(setProduct());
    run(lockCmd({ clientId: 'k' }));
    expect(earnSnap(e)?.keys).toEqual([['1', 'k', '1', T0]]);
    at(T0 + W - 1);
    expect(run({ type: 'earnSettle' })).toEqual({ code: 'ok', events: [] });
    expect(earnSnap(e)?.keys).toEqual([['1', 'k', '1', T0]]);
    at(T0 + W);
    run({ type: 'earnSettle' });
    expect(earnSnap(e)?.keys).toEqual([]);
  });

  it('settles owing nothing change nothing: before the first day, twice on a day, with an earlier time', () => {
    const { e, run, at } = setup();
    run(setProduct());
    run(lockCmd({ amount: 1_000n * U }));
    at(T0 + DAY - 1);
    let h = e.stateHash();
    expect(run({ type: 'earnSettle' })).toEqual({ code: 'ok', events: [] });
    expect(e.stateHash()).toBe(h);
    at(T0 + 2 * DAY);
    const s = run({ type: 'earnSettle' });
    expect(s.events.find((x) => x.type === 'earnLockChanged')).toMatchObject({ interest: 20_000_000n, lock: { daysPaid: 2, interestPaid: 20_000_000n } });
    h = e.stateHash();
    expect(run({ type: 'earnSettle' })).toEqual({ code: 'ok', events: [] });
    expect(e.stateHash()).toBe(h);
    // a settle with an earlier command time (a job on a late clock) owes fewer days than paid: pays nothing back
    at(T0 + DAY);
    expect(run({ type: 'earnSettle' })).toEqual({ code: 'ok', events: [] });
    expect(e.stateHash()).toBe(h);
    expect(e.earnLock('1')).toMatchObject({ daysPaid: 2, interestPaid: 20_000_000n });
    expect(assets(e, '1')).toBe(9_000n * U + 20_000_000n);
    // the interest comes from the system account '@interest', which goes negative by what it paid
    expect(e.balance('@interest', 'SYSTEM', 'USDT').available).toBe(-20_000_000n);
    expect(e.balance('@earn', 'SYSTEM', 'USDT').available).toBe(1_000n * U);
  });
});

describe('earn reads', () => {
  it('return copies: changing what a read returned does not change the engine', () => {
    const { e, run } = setup();
    run(setProduct());
    run(lockCmd());
    const p = e.earnProduct('1');
    const ps = e.earnProducts();
    const l = e.earnLock('1');
    const ls = e.earnLocks();
    const mine = e.earnLocks('1');
    expect(ps).toEqual([p]);
    expect(ls).toEqual([l]);
    expect(mine).toEqual([l]);
    const h = e.stateHash();
    if (p === undefined || l === undefined) throw new Error('missing');
    p.aprPpm = 1;
    p.lockedTotal = 0n;
    (ps[0] as { status: string }).status = 'OFF';
    l.amount = 1n;
    (ls[0] as { status: string }).status = 'REDEEMED';
    (mine[0] as { daysPaid: number }).daysPaid = 9;
    expect(e.stateHash()).toBe(h);
    expect(e.earnProduct('1')).toMatchObject({ aprPpm: 36_500, lockedTotal: 100n * U, status: 'ON' });
    expect(e.earnProducts()).toEqual([e.earnProduct('1')]);
    expect(e.earnLock('1')).toMatchObject({ amount: 100n * U, status: 'LOCKED', daysPaid: 0 });
  });

  it("unknown ids read as undefined; earnProducts in id order; earnLocks(userId) is that user's locks only, oldest first", () => {
    const { e, run } = setup();
    expect(e.earnProducts()).toEqual([]);
    expect(e.earnProduct('1')).toBeUndefined();
    run(setProduct());
    run(setProduct({ terms: terms({ termDays: 7 }) }));
    expect(e.earnProducts().map((p) => [p.productId, p.termDays])).toEqual([
      ['1', 30],
      ['2', 7],
    ]);
    expect(e.earnProduct('9')).toBeUndefined();
    expect(e.earnLock('1')).toBeUndefined();
    run(lockCmd({ clientId: 'a' }));
    run(lockCmd({ userId: '2', clientId: 'a', productId: '2' }));
    run(lockCmd({ clientId: 'b', productId: '2', amount: 50n * U }));
    expect(e.earnLock('9')).toBeUndefined();
    expect(e.earnLocks().map((l) => [l.lockId, l.userId])).toEqual([
      ['1', '1'],
      ['2', '2'],
      ['3', '1'],
    ]);
    expect(e.earnLocks('1').map((l) => [l.lockId, l.amount])).toEqual([
      ['1', 100n * U],
      ['3', 50n * U],
    ]);
    expect(e.earnLocks('2').map((l) => l.lockId)).toEqual(['2']);
    expect(e.earnLocks('nobody')).toEqual([]);
  });
});
