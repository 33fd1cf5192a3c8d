/**
 * OTC rules at their exact edges, through the real Engine's commands (written from the OTC mutation run's survivors;
 * the flows are in otc-engine.test.ts, the random model checks in test/otc.property.test.ts and the adversary):
 * keys and ids of 1..128 characters (empty, 129 and non-strings refused), a userId starting with '@' refused, amounts
 * 1..10^30 (0, 10^30 + 1 and non-bigints refused), integer fields at min - 1, min, max, max + 1 and non-integers,
 * reasons of OTC_MAX_REASON_LENGTH characters and one more, audit and meta maps (32 entries, 64-character names,
 * 2,000-character values accepted, one more of each refused, non-string values, null, arrays refused), each clause of
 * termsValid, otcConfigure's bounds and the traded asset fixed once anything holds it; every command of the merchant
 * and order state machines in each wrong state and by each wrong user with its code, every refusal answering only
 * its code and leaving the state hash as it was; the buyer's daily cancels at the limit and one more, the
 * Asia/Shanghai day boundary at exactly midnight; idempotency of otcPublishAd and otcTakeAd by (userId, clientId)
 * (the retry answers the first, a new clientId or another user makes a new one, the window's edge); reads, results,
 * events and snapshots handing out copies; otcAds/otcOpenOrders filtering by user; escrow to the unit after take,
 * release, cancel, time-out and both appeal outcomes with every asset summing to zero; the snapshot's canonical rows
 * and restore.
 */
import { describe, expect, it } from 'vitest';
import { otcTerms } from '../../test/otc-fixture';
import { Engine } from '../engine';
import type { OtcSnapshot } from './otc-engine';
import type { Command, CommandResult, EngineEvent, RejectCode } from '../types';
import {
  OTC_COMMAND_TYPES,
  OTC_MAX_FLOAT_PPM,
  OTC_MAX_PAYMENT_WINDOW_MS,
  OTC_MAX_REASON_LENGTH,
  OTC_MIN_FLOAT_PPM,
  OTC_MIN_PAYMENT_WINDOW_MS,
  otcDay,
  otcQuantity,
  type OtcAdTerms,
  type OtcAdView,
  type OtcConfig,
  type OtcOrderView,
} from './types';

const U = 100_000_000n; // 1 USDT in units (scale 8)
const MIN = 60_000;
const DAY = 86_400_000;
const T0 = 1_700_000_000_000; // 2023-11-14T22:13:20Z = 2023-11-15 06:13:20 in Shanghai
/** The first Asia/Shanghai midnight after T0: 2023-11-16T00:00+08:00 = 2023-11-15T16:00:00Z. */
const MIDNIGHT = 1_700_064_000_000;
/** The largest amount OTC accepts (units or cents). */
const MAX = 10n ** 30n;
const NAN = 0 / 0;
const M = '1'; // merchant
const B = '2'; // buyer
const S = '3'; // seller (takes BUY ads)
const X = '4'; // another user
const N = '5'; // a second merchant
const W = 15 * MIN; // payment window of terms()
const A = 10 * MIN; // appeal wait of the default config

/** A string of `n` characters. */
const str = (n: number) => 'k'.repeat(n);
/** A map of `n` entries k0..k(n-1), each value 'v'. */
const entries = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v']));
/** Values refused wherever a key (an id, a client id, an operator id) is expected. */
const BAD_KEYS: unknown[] = ['', str(129), ['k'], 7, null];
/** Values refused wherever a userId is expected: bad keys, and keys starting with '@' (system accounts). */
const BAD_USERS: unknown[] = [...BAD_KEYS, '@', '@1', ['1']];
/** Audit and meta maps refused: not a plain object, 33 entries, a 65-character name, a 2,001-character value, non-string values. */
const BAD_MAPS: unknown[] = [null, [], 'x', 7, entries(33), { [str(65)]: 'v' }, { k: str(2_001) }, { k: 1 }, { k: null }, { k: ['v'] }];
/** Audit and meta maps accepted at their bounds. */
const GOOD_MAPS: Record<string, string>[] = [{}, entries(32), { [str(64)]: 'v' }, { k: str(2_000) }, { k: '' }];
/** Reasons refused: one character too long, not a string. */
const BAD_REASONS: unknown[] = [str(OTC_MAX_REASON_LENGTH + 1), ['r'], 5, null, undefined];

const config: OtcConfig = { asset: 'USDT', fiat: 'CNY', merchantDeposit: 1_000n * U, appealAfterMs: A, cancelLimit: 3 };
const terms = otcTerms;
const float = (over: Partial<OtcAdTerms> = {}): OtcAdTerms => terms({ priceType: 'FLOAT', price: null, floatPpm: 1_000_000, ...over });
/** Terms with any field replaced by anything (a wrong type included). */
const badTerms = (base: OtcAdTerms, over: Record<string, unknown>): unknown => ({ ...base, ...over });

/** A printable label of a test value (bigints, long strings). */
function show(v: unknown): string {
  const s =
    JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : typeof x === 'string' && x.length > 20 ? `<${x.length} chars>` : x)) ?? String(v);
  return s.length > 120 ? `${s.slice(0, 120)}...` : s;
}

type T = ReturnType<typeof setup>;

/** Assets USDT and BTC; users "1".."5" with 100,000 USDT each in OTC; OTC configured (unless `configure` is false). */
function setup(over: Partial<OtcConfig> = {}, configure = true) {
  const e = new Engine();
  let ts = T0;
  const run = (c: Record<string, unknown>): CommandResult => e.execute({ ts, ...c } as unknown as Command);
  const at = (t: number) => {
    ts = t;
  };
  const now = () => ts;
  run({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  run({ type: 'addAsset', asset: { code: 'BTC', scale: 8 } });
  for (const a of ['merchant', 'buyer', 'seller', 'other', 'merchant2']) run({ type: 'registerUser', account: a, uniqueKeys: [], profile: {} });
  for (const u of [M, B, S, X, N]) run({ type: 'deposit', userId: u, asset: 'USDT', account: 'OTC', amount: 100_000n * U, from: '@faucet' });
  if (configure) expect(run({ type: 'otcConfigure', config: { ...config, ...over } }).code).toBe('ok');
  return { e, run, at, now };
}

/** setup, and M and N approved merchants (1,000 USDT deposit each held). */
function ready(over: Partial<OtcConfig> = {}) {
  const t = setup(over);
  for (const u of [M, N]) {
    ok(t, { type: 'otcApplyMerchant', userId: u });
    ok(t, { type: 'otcReviewMerchant', userId: u, operatorId: 'op', approve: true, reason: '' });
  }
  return t;
}

function ok(t: T, c: Record<string, unknown>): CommandResult {
  const r = t.run(c);
  expect(r.code, `${c.type as string} ${show(c)}`).toBe('ok');
  return r;
}
/** The command is refused with `code`, answers nothing else, and the engine's state (hash) is unchanged. */
function refuses(t: T, c: Record<string, unknown>, code: RejectCode): void {
  const before = t.e.stateHash();
  const r = t.run(c);
  expect(r, `${c.type as string} ${show(c)}`).toStrictEqual({ code, events: [] });
  expect(t.e.stateHash(), `state after ${show(c)}`).toBe(before);
}
type AdEvent = Extract<EngineEvent, { type: 'otcAdChanged' }>;
const adEvent = (r: CommandResult): AdEvent => r.events.find((e): e is AdEvent => e.type === 'otcAdChanged') as AdEvent;
/** Publishes an ad (M SELL 1,000 USDT at 7.20 unless overridden); its id. */
function publish(t: T, over: Record<string, unknown> = {}): string {
  return adEvent(ok(t, { type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 1_000n * U, terms: terms(), ...over })).ad.adId;
}
let clientSeq = 0;
/** `userId` takes `adId` for `fiat` cents; the order's id. */
function take(t: T, adId: string, userId: string, fiat: bigint, over: Record<string, unknown> = {}): string {
  return (ok(t, { type: 'otcTakeAd', userId, adId, fiatAmount: fiat, clientId: `c${++clientSeq}`, ...over }).otcOrder as OtcOrderView).orderId;
}
const otc = (t: T, u: string) => t.e.balance(u, 'OTC', 'USDT');
const types = (r: CommandResult) => r.events.map((e) => e.type);
const zeroSums = (t: T) => expect(Object.fromEntries(t.e.assetTotals())).toEqual({ USDT: 0n, BTC: 0n });
/** The OTC part of an engine snapshot (the object itself, not a copy). */
const otcPart = (snap: object): OtcSnapshot => (snap as { otc: OtcSnapshot }).otc;
const freeze = (t: T, u: string, on: boolean) => ok(t, { type: 'updateUser', userId: u, profile: { frozen: on ? '1' : '0' } });

const markPaid = (userId: string | undefined, orderId: string, more: Record<string, unknown> = {}) => ({ type: 'otcMarkPaid', userId, orderId, ...more });
const release = (userId: string | undefined, orderId: string) => ({ type: 'otcRelease', userId, orderId });
const cancel = (userId: string | undefined, orderId: string, more: Record<string, unknown> = {}) => ({
  type: 'otcCancelOrder',
  orderId,
  ...(userId === undefined ? {} : { userId }),
  ...more,
});
const appeal = (userId: string | undefined, orderId: string, more: Record<string, unknown> = {}) => ({ type: 'otcAppeal', userId, orderId, ...more });
const unappeal = (userId: string | undefined, orderId: string) => ({ type: 'otcCancelAppeal', userId, orderId });
const resolve = (orderId: string, outcome: 'RELEASE' | 'RETURN', more: Record<string, unknown> = {}) => ({
  type: 'otcResolveAppeal',
  orderId,
  operatorId: 'op',
  outcome,
  reason: 'r',
  ...more,
});

describe('otcConfigure', () => {
  it('before it every other OTC command is otc_disabled, nothing is read and the snapshot has no OTC part', () => {
    const t = setup({}, false);
    expect(t.e.otcConfig()).toBeUndefined();
    for (const type of OTC_COMMAND_TYPES) if (type !== 'otcConfigure') refuses(t, { type, userId: M, orderId: '1', adId: '1' }, 'otc_disabled');
    expect('otc' in t.e.snapshot()).toBe(false);
    const copy = Engine.restore(JSON.parse(JSON.stringify(t.e.snapshot())));
    expect(copy.otcConfig()).toBeUndefined();
    expect(copy.execute({ ts: T0, type: 'otcApplyMerchant', userId: M } as Command).code).toBe('otc_disabled');
    ok(t, { type: 'otcConfigure', config });
    expect('otc' in t.e.snapshot()).toBe(true);
  });

  it('refuses each field out of its bounds or of the wrong type, and a config that is not an object', () => {
    const t = setup({}, false);
    const cfg = (over: Record<string, unknown>) => ({ type: 'otcConfigure', config: { ...config, ...over } });
    for (const c of [null, undefined, 'USDT', 7, Object.assign(() => 0, config)]) refuses(t, { type: 'otcConfigure', config: c }, 'invalid_config');
    for (const asset of [...BAD_KEYS, undefined]) refuses(t, cfg({ asset }), 'invalid_config');
    for (const fiat of [...BAD_KEYS, undefined]) refuses(t, cfg({ fiat }), 'invalid_config');
    for (const merchantDeposit of [-1n, MAX + 1n, 1_000, '1000', undefined, null]) refuses(t, cfg({ merchantDeposit }), 'invalid_config');
    for (const appealAfterMs of [-1, 7 * DAY + 1, 0.5, 1n, NAN, Infinity, '0', undefined]) refuses(t, cfg({ appealAfterMs }), 'invalid_config');
    for (const cancelLimit of [0, -1, 101, 2.5, 3n, NAN, '3', undefined]) refuses(t, cfg({ cancelLimit }), 'invalid_config');
    for (const audit of BAD_MAPS) refuses(t, { ...cfg({}), audit }, 'invalid_config');
    // a valid key that is no listed asset
    for (const asset of [str(128), 'k', 'ETH']) refuses(t, cfg({ asset }), 'asset_not_found');
    expect(t.e.otcConfig()).toBeUndefined();
  });

  it('accepts each bound: the event carries a copy of the config, and of the audit only when one was given', () => {
    const t = setup({}, false);
    const accepted: Partial<OtcConfig>[] = [
      { fiat: 'C' },
      { fiat: str(128) },
      { merchantDeposit: 0n },
      { merchantDeposit: MAX },
      { merchantDeposit: 1n },
      { appealAfterMs: 0 },
      { appealAfterMs: 7 * DAY },
      { cancelLimit: 1 },
      { cancelLimit: 100 },
      { asset: 'BTC' },
    ];
    for (const over of accepted) {
      t.at(t.now() + 1);
      const c = { ...config, ...over };
      const r = ok(t, { type: 'otcConfigure', config: c });
      expect(r).toStrictEqual({ code: 'ok', events: [{ type: 'otcConfigured', ts: t.now(), config: c }] });
      expect(t.e.otcConfig()).toStrictEqual(c);
    }
    for (const audit of GOOD_MAPS) {
      const r = ok(t, { type: 'otcConfigure', config, audit });
      expect(r.events).toStrictEqual([{ type: 'otcConfigured', ts: t.now(), config, audit }]);
      const ev = r.events[0] as Extract<EngineEvent, { type: 'otcConfigured' }>;
      expect(ev.audit).not.toBe(audit);
      expect(ev.config).not.toBe(config);
    }
    // the engine keeps its own copy: changing the command's object, the event's or the read's changes nothing
    const c = { ...config, cancelLimit: 7 };
    const audit = { k: 'v' };
    const r = ok(t, { type: 'otcConfigure', config: c, audit });
    c.cancelLimit = 8;
    audit.k = 'changed';
    const ev = r.events[0] as Extract<EngineEvent, { type: 'otcConfigured' }>;
    expect(ev.audit).toEqual({ k: 'v' });
    ev.config.cancelLimit = 9;
    (t.e.otcConfig() as OtcConfig).cancelLimit = 10;
    expect(t.e.otcConfig()).toStrictEqual({ ...config, cancelLimit: 7 });
  });

  it('changes the traded asset only while no merchant record, ad or order exists; other fields change at any time', () => {
    const t = setup({}, false);
    ok(t, { type: 'otcConfigure', config });
    ok(t, { type: 'otcConfigure', config: { ...config, asset: 'BTC' } });
    expect(t.e.otcConfig()?.asset).toBe('BTC');
    ok(t, { type: 'otcConfigure', config });
    ok(t, { type: 'otcApplyMerchant', userId: M });
    refuses(t, { type: 'otcConfigure', config: { ...config, asset: 'BTC' } }, 'invalid_config');
    // the same asset: every other field may change, and the next application holds the new deposit
    ok(t, { type: 'otcConfigure', config: { ...config, merchantDeposit: 5n * U, appealAfterMs: 0, cancelLimit: 1, fiat: 'USD' } });
    ok(t, { type: 'otcApplyMerchant', userId: X });
    expect(t.e.otcMerchant(X)?.deposit).toBe(5n * U);
    expect(otc(t, X)).toEqual({ available: 99_995n * U, frozen: 5n * U });
    // a rejected (or left) merchant is still a record of the asset
    for (const u of [M, X]) ok(t, { type: 'otcReviewMerchant', userId: u, operatorId: 'op', approve: false, reason: '' });
    refuses(t, { type: 'otcConfigure', config: { ...config, asset: 'BTC' } }, 'invalid_config');
  });
});

describe('merchants', () => {
  it('otcApplyMerchant: userId rules, a registered unfrozen user, the deposit to the unit', () => {
    const t = setup({ merchantDeposit: 100_000n * U + 1n });
    for (const userId of BAD_USERS) refuses(t, { type: 'otcApplyMerchant', userId }, 'invalid_config');
    refuses(t, { type: 'otcApplyMerchant', userId: str(128) }, 'user_not_found');
    refuses(t, { type: 'otcApplyMerchant', userId: '9' }, 'user_not_found');
    refuses(t, { type: 'otcApplyMerchant', userId: M }, 'insufficient_balance'); // one unit short
    ok(t, { type: 'otcConfigure', config: { ...config, merchantDeposit: 100_000n * U } });
    freeze(t, M, true);
    refuses(t, { type: 'otcApplyMerchant', userId: M }, 'account_frozen');
    freeze(t, M, false);
    const r = ok(t, { type: 'otcApplyMerchant', userId: M }); // exactly the whole balance
    expect(r.events).toStrictEqual([
      {
        type: 'otcMerchantChanged',
        ts: T0,
        merchant: { userId: M, state: 'PENDING', deposit: 100_000n * U, operatorId: null, reason: null, createdTs: T0, updatedTs: T0 },
      },
      { type: 'balanceChanged', ts: T0, owner: M, account: 'OTC', asset: 'USDT', available: 0n, frozen: 100_000n * U },
    ]);
    // a deposit of 0 holds nothing
    ok(t, { type: 'otcConfigure', config: { ...config, merchantDeposit: 0n } });
    expect(types(ok(t, { type: 'otcApplyMerchant', userId: X }))).toEqual(['otcMerchantChanged']);
    expect(t.e.otcMerchant(X)).toMatchObject({ state: 'PENDING', deposit: 0n });
    expect(otc(t, X)).toEqual({ available: 100_000n * U, frozen: 0n });
  });

  it('otcApplyMerchant again: refused while PENDING, ACTIVE or SUSPENDED; from REJECTED or LEFT it keeps the first createdTs', () => {
    const t = setup();
    ok(t, { type: 'otcApplyMerchant', userId: M });
    refuses(t, { type: 'otcApplyMerchant', userId: M }, 'otc_merchant_state_invalid');
    ok(t, { type: 'otcReviewMerchant', userId: M, operatorId: 'op', approve: true, reason: 'fine' });
    refuses(t, { type: 'otcApplyMerchant', userId: M }, 'otc_merchant_state_invalid');
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: 'x' });
    refuses(t, { type: 'otcApplyMerchant', userId: M }, 'otc_merchant_state_invalid');
    t.at(T0 + 1_000);
    const left = ok(t, { type: 'otcLeaveMerchant', userId: M });
    expect(left.events).toStrictEqual([
      {
        type: 'otcMerchantChanged',
        ts: T0 + 1_000,
        merchant: { userId: M, state: 'LEFT', deposit: 0n, operatorId: null, reason: null, createdTs: T0, updatedTs: T0 + 1_000 },
      },
      { type: 'balanceChanged', ts: T0 + 1_000, owner: M, account: 'OTC', asset: 'USDT', available: 100_000n * U, frozen: 0n },
    ]);
    refuses(t, { type: 'otcLeaveMerchant', userId: M }, 'otc_merchant_state_invalid');
    t.at(T0 + 2_000);
    ok(t, { type: 'otcApplyMerchant', userId: M });
    expect(t.e.otcMerchant(M)).toStrictEqual({
      userId: M,
      state: 'PENDING',
      deposit: 1_000n * U,
      operatorId: null,
      reason: null,
      createdTs: T0,
      updatedTs: T0 + 2_000,
    });
    ok(t, { type: 'otcReviewMerchant', userId: M, operatorId: 'op', approve: false, reason: 'no' });
    t.at(T0 + 3_000);
    ok(t, { type: 'otcApplyMerchant', userId: M });
    expect(t.e.otcMerchant(M)).toStrictEqual({
      userId: M,
      state: 'PENDING',
      deposit: 1_000n * U,
      operatorId: null,
      reason: null,
      createdTs: T0,
      updatedTs: T0 + 3_000,
    });
  });

  it('otcReviewMerchant: operatorId, approve, reason and audit at their bounds; only a PENDING application', () => {
    const t = setup();
    ok(t, { type: 'otcApplyMerchant', userId: M });
    const base = { type: 'otcReviewMerchant', userId: M, operatorId: 'op', approve: false, reason: 'r' };
    for (const operatorId of [...BAD_KEYS, undefined]) refuses(t, { ...base, operatorId }, 'invalid_config');
    for (const approve of ['true', 1, 0, null, undefined]) refuses(t, { ...base, approve }, 'invalid_config');
    for (const reason of BAD_REASONS) refuses(t, { ...base, reason }, 'invalid_config');
    for (const audit of BAD_MAPS) refuses(t, { ...base, audit }, 'invalid_config');
    for (const userId of [X, '9', 1, undefined]) refuses(t, { ...base, userId }, 'otc_not_merchant');
    // each bound accepted: a rejection with exactly these fields, then a new application
    const accepted: Record<string, unknown>[] = [
      { operatorId: 'o' },
      { operatorId: str(128) },
      { reason: str(OTC_MAX_REASON_LENGTH) },
      { reason: '' },
      ...GOOD_MAPS.map((audit) => ({ audit })),
    ];
    for (const over of accepted) {
      t.at(t.now() + 1);
      const c = { ...base, ...over };
      const r = ok(t, c);
      expect(r.events).toStrictEqual([
        {
          type: 'otcMerchantChanged',
          ts: t.now(),
          merchant: { userId: M, state: 'REJECTED', deposit: 0n, operatorId: c.operatorId, reason: c.reason, createdTs: T0, updatedTs: t.now() },
          ...(over.audit === undefined ? {} : { audit: over.audit }),
        },
        { type: 'balanceChanged', ts: t.now(), owner: M, account: 'OTC', asset: 'USDT', available: 100_000n * U, frozen: 0n },
      ]);
      refuses(t, c, 'otc_merchant_state_invalid'); // REJECTED
      ok(t, { type: 'otcApplyMerchant', userId: M });
    }
    t.at(t.now() + 1);
    const r = ok(t, { ...base, approve: true, operatorId: 'op7', reason: 'ok' });
    expect(r.events).toStrictEqual([
      {
        type: 'otcMerchantChanged',
        ts: t.now(),
        merchant: { userId: M, state: 'ACTIVE', deposit: 1_000n * U, operatorId: 'op7', reason: 'ok', createdTs: T0, updatedTs: t.now() },
      },
    ]);
    expect(otc(t, M)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
    refuses(t, base, 'otc_merchant_state_invalid'); // ACTIVE
    refuses(t, { ...base, approve: true }, 'otc_merchant_state_invalid');
  });

  it('otcSetMerchantStatus: field bounds; SUSPENDED only from ACTIVE, ACTIVE only from SUSPENDED', () => {
    const t = setup();
    ok(t, { type: 'otcApplyMerchant', userId: M });
    const sus = { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: 'r' };
    const act = { ...sus, status: 'ACTIVE' };
    for (const operatorId of [...BAD_KEYS, undefined]) refuses(t, { ...sus, operatorId }, 'invalid_config');
    for (const status of ['LEFT', 'PENDING', 'REJECTED', 'suspended', undefined, 1]) refuses(t, { ...sus, status }, 'invalid_config');
    for (const reason of BAD_REASONS) refuses(t, { ...sus, reason }, 'invalid_config');
    for (const audit of BAD_MAPS) refuses(t, { ...sus, audit }, 'invalid_config');
    for (const userId of [X, '9', 1, undefined]) refuses(t, { ...sus, userId }, 'otc_not_merchant');
    refuses(t, sus, 'otc_merchant_state_invalid'); // PENDING
    refuses(t, act, 'otc_merchant_state_invalid');
    ok(t, { type: 'otcReviewMerchant', userId: M, operatorId: 'op', approve: true, reason: '' });
    refuses(t, act, 'otc_merchant_state_invalid'); // ACTIVE already
    const accepted: Record<string, unknown>[] = [
      { operatorId: 'o' },
      { operatorId: str(128) },
      { reason: str(OTC_MAX_REASON_LENGTH) },
      { reason: '' },
      ...GOOD_MAPS.map((audit) => ({ audit })),
    ];
    let suspended = false;
    for (const over of accepted) {
      t.at(t.now() + 1);
      const c = { ...(suspended ? act : sus), ...over };
      const r = ok(t, c);
      suspended = !suspended;
      expect(r.events).toStrictEqual([
        {
          type: 'otcMerchantChanged',
          ts: t.now(),
          merchant: {
            userId: M,
            state: suspended ? 'SUSPENDED' : 'ACTIVE',
            deposit: 1_000n * U,
            operatorId: c.operatorId,
            reason: c.reason,
            createdTs: T0,
            updatedTs: t.now(),
          },
          ...(over.audit === undefined ? {} : { audit: over.audit }),
        },
      ]);
      refuses(t, c, 'otc_merchant_state_invalid'); // the same status again
    }
    expect(otc(t, M)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
    ok(t, { type: 'otcLeaveMerchant', userId: M });
    refuses(t, sus, 'otc_merchant_state_invalid'); // LEFT
    refuses(t, act, 'otc_merchant_state_invalid');
    ok(t, { type: 'otcApplyMerchant', userId: M });
    ok(t, { type: 'otcReviewMerchant', userId: M, operatorId: 'op', approve: false, reason: '' });
    refuses(t, sus, 'otc_merchant_state_invalid'); // REJECTED
    refuses(t, act, 'otc_merchant_state_invalid');
  });

  it('otcLeaveMerchant: only ACTIVE or SUSPENDED, with none of its own ads (paused ones too) and no order of its ads open', () => {
    const t = ready();
    for (const userId of [X, '9', 1, undefined]) refuses(t, { type: 'otcLeaveMerchant', userId }, 'otc_not_merchant');
    ok(t, { type: 'otcApplyMerchant', userId: X });
    refuses(t, { type: 'otcLeaveMerchant', userId: X }, 'otc_merchant_state_invalid'); // PENDING
    ok(t, { type: 'otcReviewMerchant', userId: X, operatorId: 'op', approve: false, reason: '' });
    refuses(t, { type: 'otcLeaveMerchant', userId: X }, 'otc_merchant_state_invalid'); // REJECTED
    const ad = publish(t);
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'PAUSED' });
    refuses(t, { type: 'otcLeaveMerchant', userId: M }, 'otc_ads_open');
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'ONLINE' });
    const o = take(t, ad, B, 72_000n);
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'CLOSED' });
    refuses(t, { type: 'otcLeaveMerchant', userId: M }, 'otc_ads_open'); // the order of a closed ad
    // another merchant's ad and order, and an order M took as a buyer, do not keep M
    const nAd = publish(t, { userId: N });
    take(t, nAd, B, 72_000n);
    const mine = take(t, nAd, M, 72_000n);
    ok(t, release(M, o));
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: 'x' });
    ok(t, { type: 'otcLeaveMerchant', userId: M });
    expect(t.e.otcMerchant(M)).toStrictEqual({ userId: M, state: 'LEFT', deposit: 0n, operatorId: null, reason: null, createdTs: T0, updatedTs: t.now() });
    expect(otc(t, M)).toEqual({ available: 99_900n * U, frozen: 0n });
    expect(t.e.otcOrder(mine)?.buyerId).toBe(M);
    refuses(t, { type: 'otcLeaveMerchant', userId: N }, 'otc_ads_open');
  });
});

describe('ads', () => {
  it('otcPublishAd: userId, side, clientId and meta at their bounds', () => {
    const t = ready();
    const base = { type: 'otcPublishAd', userId: M, side: 'BUY', quantity: U, terms: terms() };
    for (const userId of [...BAD_USERS, undefined]) refuses(t, { ...base, userId }, 'invalid_config');
    for (const side of ['buy', 'BOTH', undefined, 1]) refuses(t, { ...base, side }, 'invalid_config');
    for (const clientId of BAD_KEYS) refuses(t, { ...base, clientId }, 'invalid_config');
    for (const meta of BAD_MAPS) refuses(t, { ...base, meta }, 'invalid_config');
    refuses(t, { ...base, userId: str(128) }, 'otc_not_merchant');
    refuses(t, { ...base, userId: X }, 'otc_not_merchant');
    refuses(t, { ...base, userId: X, terms: null }, 'invalid_order'); // the terms are judged before the merchant
    let n = 0;
    for (const over of [{ clientId: 'c' }, { clientId: str(128) }, {}, {}, ...GOOD_MAPS.map((meta) => ({ meta }))] as Record<string, unknown>[]) {
      t.at(t.now() + 1);
      const r = ok(t, { ...base, ...over });
      expect(r.events).toStrictEqual([{ type: 'otcAdChanged', ts: t.now(), ad: t.e.otcAd(`${++n}`) }]);
      expect(t.e.otcAd(`${n}`)?.meta).toStrictEqual(over.meta ?? {});
    }
    expect(t.e.otcAds(M).length).toBe(n);
  });

  it('otcPublishAd: each clause of the terms, and the quantity, at its bounds', () => {
    const t = ready();
    const base = { type: 'otcPublishAd', userId: M, side: 'BUY', quantity: U, terms: terms() };
    const fixed = terms();
    const flt = float();
    const bad: unknown[] = [
      null,
      undefined,
      'FIXED',
      7,
      badTerms(fixed, { priceType: 'LIMIT' }),
      badTerms(fixed, { priceType: 'fixed' }),
      badTerms(fixed, { priceType: undefined }),
      badTerms(flt, { priceType: 'LIMIT' }), // neither FIXED nor FLOAT, even with a FLOAT's fields
      badTerms(flt, { priceType: undefined }),
      // FIXED: a price of 1..10^30 and no floatPpm
      badTerms(fixed, { price: 0n }),
      badTerms(fixed, { price: -1n }),
      badTerms(fixed, { price: MAX + 1n }),
      badTerms(fixed, { price: 720 }),
      badTerms(fixed, { price: '720' }),
      badTerms(fixed, { price: null }),
      badTerms(fixed, { floatPpm: 1_000_000 }),
      badTerms(fixed, { floatPpm: 0 }),
      badTerms(fixed, { floatPpm: undefined }),
      // FLOAT: no price and a floatPpm of OTC_MIN_FLOAT_PPM..OTC_MAX_FLOAT_PPM
      badTerms(flt, { price: 720n }),
      badTerms(flt, { price: 0n }),
      badTerms(flt, { price: undefined }),
      badTerms(flt, { floatPpm: OTC_MIN_FLOAT_PPM - 1 }),
      badTerms(flt, { floatPpm: OTC_MAX_FLOAT_PPM + 1 }),
      badTerms(flt, { floatPpm: 1_000_000.5 }),
      badTerms(flt, { floatPpm: 1_000_000n }),
      badTerms(flt, { floatPpm: '1000000' }),
      badTerms(flt, { floatPpm: null }),
      badTerms(flt, { floatPpm: NAN }),
      badTerms(flt, { floatPpm: Infinity }),
      // limits: 1..10^30, min <= max
      badTerms(fixed, { minFiat: 0n }),
      badTerms(fixed, { minFiat: -1n }),
      badTerms(fixed, { minFiat: 10_000 }),
      badTerms(fixed, { minFiat: undefined }),
      badTerms(fixed, { maxFiat: 0n }),
      badTerms(fixed, { maxFiat: MAX + 1n }),
      badTerms(fixed, { maxFiat: 5_000_000 }),
      badTerms(fixed, { maxFiat: undefined }),
      badTerms(fixed, { minFiat: 5_000_001n }),
      badTerms(flt, { minFiat: 5_000_001n }),
      badTerms(fixed, { minFiat: MAX, maxFiat: MAX - 1n }),
      // payment window: OTC_MIN_PAYMENT_WINDOW_MS..OTC_MAX_PAYMENT_WINDOW_MS, an integer
      badTerms(fixed, { paymentWindowMs: OTC_MIN_PAYMENT_WINDOW_MS - 1 }),
      badTerms(fixed, { paymentWindowMs: OTC_MAX_PAYMENT_WINDOW_MS + 1 }),
      badTerms(flt, { paymentWindowMs: OTC_MAX_PAYMENT_WINDOW_MS + 1 }),
      badTerms(fixed, { paymentWindowMs: W + 0.5 }),
      badTerms(fixed, { paymentWindowMs: 900_000n }),
      badTerms(fixed, { paymentWindowMs: '900000' }),
      badTerms(fixed, { paymentWindowMs: NAN }),
      badTerms(fixed, { paymentWindowMs: Infinity }),
      badTerms(fixed, { paymentWindowMs: undefined }),
    ];
    for (const tm of bad) refuses(t, { ...base, terms: tm }, 'invalid_order');
    for (const quantity of [0n, -1n, MAX + 1n, 100, '1', undefined, null]) refuses(t, { ...base, quantity }, 'invalid_order');
    const good: OtcAdTerms[] = [
      terms({ price: 1n }),
      terms({ price: MAX }),
      float({ floatPpm: OTC_MIN_FLOAT_PPM }),
      float({ floatPpm: OTC_MAX_FLOAT_PPM }),
      terms({ minFiat: 1n }),
      terms({ maxFiat: MAX }),
      terms({ minFiat: 5_000_000n }),
      terms({ minFiat: MAX, maxFiat: MAX }),
      terms({ paymentWindowMs: OTC_MIN_PAYMENT_WINDOW_MS }),
      terms({ paymentWindowMs: OTC_MAX_PAYMENT_WINDOW_MS }),
      float({ paymentWindowMs: OTC_MIN_PAYMENT_WINDOW_MS }),
    ];
    for (const tm of good) {
      const id = publish(t, { side: 'BUY', terms: tm });
      expect(t.e.otcAd(id)).toMatchObject({ ...tm });
    }
    // quantity: 1 unit (a SELL ad holds exactly it) and 10^30 (a BUY ad holds nothing)
    const one = publish(t, { side: 'SELL', quantity: 1n });
    expect(t.e.otcAd(one)).toMatchObject({ totalQty: 1n, remainingQty: 1n });
    expect(otc(t, M)).toEqual({ available: 99_000n * U - 1n, frozen: 1_000n * U + 1n });
    const big = publish(t, { side: 'BUY', quantity: MAX });
    expect(t.e.otcAd(big)).toMatchObject({ totalQty: MAX, remainingQty: MAX });
    refuses(t, { ...base, side: 'SELL', quantity: MAX }, 'insufficient_balance');
    expect(otc(t, M)).toEqual({ available: 99_000n * U - 1n, frozen: 1_000n * U + 1n });
  });

  it('otcPublishAd: only an ACTIVE unfrozen merchant; a SELL ad holds its quantity to the unit; the view is exact', () => {
    const t = ready();
    const sell = { type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 99_000n * U + 1n, terms: terms() };
    refuses(t, sell, 'insufficient_balance'); // one unit more than available
    freeze(t, M, true);
    refuses(t, { ...sell, quantity: U }, 'account_frozen');
    freeze(t, M, false);
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: '' });
    refuses(t, { ...sell, quantity: U }, 'otc_not_merchant');
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'ACTIVE', reason: '' });
    ok(t, { type: 'otcApplyMerchant', userId: X });
    refuses(t, { ...sell, userId: X, quantity: U }, 'otc_not_merchant'); // PENDING
    ok(t, { type: 'otcReviewMerchant', userId: X, operatorId: 'op', approve: false, reason: '' });
    refuses(t, { ...sell, userId: X, quantity: U }, 'otc_not_merchant'); // REJECTED
    t.at(T0 + 5);
    const tm = float({ floatPpm: 1_050_000, minFiat: 1n, maxFiat: 7n, paymentWindowMs: 30 * MIN });
    const r = ok(t, { ...sell, quantity: 99_000n * U, terms: { ...tm, extra: 'x' }, meta: { pay: '1,2' } }); // only the terms' own fields are kept
    const view: OtcAdView = {
      adId: '1',
      userId: M,
      side: 'SELL',
      asset: 'USDT',
      fiat: 'CNY',
      priceType: 'FLOAT',
      price: null,
      floatPpm: 1_050_000,
      minFiat: 1n,
      maxFiat: 7n,
      paymentWindowMs: 30 * MIN,
      totalQty: 99_000n * U,
      remainingQty: 99_000n * U,
      status: 'ONLINE',
      meta: { pay: '1,2' },
      createdTs: T0 + 5,
      updatedTs: T0 + 5,
    };
    expect(r).toStrictEqual({
      code: 'ok',
      events: [
        { type: 'otcAdChanged', ts: T0 + 5, ad: view },
        { type: 'balanceChanged', ts: T0 + 5, owner: M, account: 'OTC', asset: 'USDT', available: 0n, frozen: 100_000n * U },
      ],
    });
    expect(t.e.otcAd('1')).toStrictEqual(view);
    expect(t.e.otcAds()).toStrictEqual([view]);
  });

  it('otcUpdateAd: field rules, the owner only, the SELL hold follows the remainder to the unit, totalQty only grows', () => {
    const t = ready();
    const ad = publish(t, { quantity: 100n * U, meta: { a: '1' } });
    const nAd = publish(t, { userId: N, side: 'BUY' });
    const base = { type: 'otcUpdateAd', userId: M, adId: ad, remainingQty: 100n * U, terms: terms() };
    for (const userId of [...BAD_USERS, undefined]) refuses(t, { ...base, userId }, 'invalid_config');
    for (const meta of BAD_MAPS) refuses(t, { ...base, meta }, 'invalid_config');
    for (const [over, code] of [
      [{ adId: '9' }, 'otc_ad_not_found'],
      [{ adId: 1 }, 'otc_ad_not_found'],
      [{ adId: nAd }, 'otc_ad_not_found'], // another merchant's
      [{ userId: N }, 'otc_ad_not_found'],
      [{ userId: str(128) }, 'otc_ad_not_found'],
      [{ userId: N, terms: null }, 'otc_ad_not_found'], // the ad is found before the terms are judged
      [{ terms: null }, 'invalid_order'],
      [{ terms: badTerms(terms(), { paymentWindowMs: OTC_MAX_PAYMENT_WINDOW_MS + 1 }) }, 'invalid_order'],
      [{ terms: badTerms(float(), { floatPpm: OTC_MIN_FLOAT_PPM - 1 }) }, 'invalid_order'],
      [{ terms: terms({ minFiat: 5_000_001n }) }, 'invalid_order'],
      [{ remainingQty: -1n }, 'invalid_order'],
      [{ remainingQty: MAX + 1n }, 'invalid_order'],
      [{ remainingQty: 5 }, 'invalid_order'],
      [{ remainingQty: '5' }, 'invalid_order'],
      [{ remainingQty: undefined }, 'invalid_order'],
      [{ remainingQty: 99_000n * U + 1n }, 'insufficient_balance'], // 98,900 available + the 100 held, and one unit
    ] as [Record<string, unknown>, RejectCode][]) {
      refuses(t, { ...base, ...over }, code);
    }
    freeze(t, M, true);
    refuses(t, base, 'account_frozen');
    freeze(t, M, false);
    // up to exactly every available unit
    t.at(T0 + 10);
    let r = ok(t, { ...base, remainingQty: 99_000n * U });
    expect(types(r)).toEqual(['otcAdChanged', 'balanceChanged']);
    expect(otc(t, M)).toEqual({ available: 0n, frozen: 100_000n * U });
    expect(t.e.otcAd(ad)).toMatchObject({ totalQty: 99_000n * U, remainingQty: 99_000n * U, meta: { a: '1' }, createdTs: T0, updatedTs: T0 + 10 });
    // down: released, totalQty kept; the same remainder: no ledger change; up again: totalQty grows by the increase only
    ok(t, { ...base, remainingQty: 40n * U });
    expect(otc(t, M)).toEqual({ available: 98_960n * U, frozen: 1_040n * U });
    expect(t.e.otcAd(ad)).toMatchObject({ totalQty: 99_000n * U, remainingQty: 40n * U });
    r = ok(t, { ...base, remainingQty: 40n * U, meta: { b: '2' } });
    expect(types(r)).toEqual(['otcAdChanged']);
    expect(t.e.otcAd(ad)).toMatchObject({ totalQty: 99_000n * U, remainingQty: 40n * U, meta: { b: '2' } });
    ok(t, { ...base, remainingQty: 41n * U });
    expect(t.e.otcAd(ad)).toMatchObject({ totalQty: 99_001n * U, remainingQty: 41n * U });
    ok(t, { ...base, remainingQty: 0n });
    expect(otc(t, M)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
    expect(t.e.otcAd(ad)).toMatchObject({ totalQty: 99_001n * U, remainingQty: 0n, status: 'ONLINE' });
    refuses(t, { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 10_000n, clientId: 'x' }, 'otc_amount_out_of_limits');
    // a PAUSED ad is updated and stays PAUSED; the new terms replace the old ones
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'PAUSED' });
    const tm = float({ floatPpm: OTC_MAX_FLOAT_PPM, minFiat: 1n, maxFiat: MAX, paymentWindowMs: OTC_MAX_PAYMENT_WINDOW_MS });
    ok(t, { ...base, remainingQty: 0n, terms: { ...tm, extra: 'x' } });
    expect(t.e.otcAd(ad)).toMatchObject({ ...tm, status: 'PAUSED' });
    expect('extra' in (t.e.otcAd(ad) as OtcAdView)).toBe(false);
    // a BUY ad holds nothing, up to 10^30
    r = ok(t, { ...base, userId: N, adId: nAd, remainingQty: MAX });
    expect(types(r)).toEqual(['otcAdChanged']);
    expect(t.e.otcAd(nAd)).toMatchObject({ totalQty: MAX, remainingQty: MAX });
    expect(otc(t, N)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
    // a closed ad is gone
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'CLOSED' });
    refuses(t, base, 'otc_ad_not_found');
  });

  it('otcSetAdStatus: exactly one of userId and operatorId, the status set, the owner; the same status is a no-op', () => {
    const t = ready();
    const ad = publish(t, { quantity: 100n * U });
    const byOwner = { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'PAUSED' };
    const byOp = { type: 'otcSetAdStatus', operatorId: 'op', adId: ad, status: 'PAUSED' };
    refuses(t, { ...byOwner, operatorId: 'op' }, 'invalid_config');
    refuses(t, { type: 'otcSetAdStatus', adId: ad, status: 'PAUSED' }, 'invalid_config');
    for (const operatorId of BAD_KEYS) refuses(t, { ...byOp, operatorId }, 'invalid_config');
    for (const audit of BAD_MAPS) refuses(t, { ...byOwner, audit }, 'invalid_config');
    for (const status of ['DELETED', 'online', undefined, 1]) refuses(t, { ...byOwner, status }, 'invalid_config');
    for (const [over, code] of [
      [{ adId: '9' }, 'otc_ad_not_found'],
      [{ adId: 1 }, 'otc_ad_not_found'],
      [{ userId: N }, 'otc_ad_not_found'],
      [{ userId: B }, 'otc_ad_not_found'],
    ] as [Record<string, unknown>, RejectCode][]) {
      refuses(t, { ...byOwner, ...over }, code);
    }
    // the same status: ok, no event, nothing changed (not even updatedTs)
    t.at(T0 + 1);
    const before = t.e.stateHash();
    expect(t.run({ ...byOwner, status: 'ONLINE' })).toStrictEqual({ code: 'ok', events: [] });
    expect(t.run({ ...byOp, status: 'ONLINE' })).toStrictEqual({ code: 'ok', events: [] });
    expect(t.e.stateHash()).toBe(before);
    // pausing and resuming move no money; the event has the audit only when given
    const r = ok(t, byOwner);
    expect(r.events).toStrictEqual([{ type: 'otcAdChanged', ts: T0 + 1, ad: t.e.otcAd(ad) }]);
    expect(t.e.otcAd(ad)).toMatchObject({ status: 'PAUSED', updatedTs: T0 + 1, remainingQty: 100n * U });
    for (const [over, audit] of [[{ operatorId: 'o' }, undefined], [{ operatorId: str(128) }, undefined], ...GOOD_MAPS.map((a) => [{ audit: a }, a])] as [
      Record<string, unknown>,
      Record<string, string> | undefined,
    ][]) {
      const status = t.e.otcAd(ad)?.status === 'PAUSED' ? 'ONLINE' : 'PAUSED';
      const res = ok(t, { ...byOp, ...over, status });
      expect(res.events).toStrictEqual([{ type: 'otcAdChanged', ts: T0 + 1, ad: t.e.otcAd(ad), ...(audit === undefined ? {} : { audit }) }]);
    }
    expect(otc(t, M)).toEqual({ available: 98_900n * U, frozen: 1_100n * U });
    // a suspended owner may pause and close but not resume; an operator may resume
    ok(t, { ...byOwner, status: 'PAUSED' });
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: '' });
    refuses(t, { ...byOwner, status: 'ONLINE' }, 'otc_not_merchant');
    ok(t, { ...byOp, status: 'ONLINE' });
    ok(t, { ...byOwner, status: 'PAUSED' });
    // closing a paused SELL ad releases its remainder to the unit; the ad is gone
    t.at(T0 + 2);
    const open = t.e.otcAd(ad) as OtcAdView;
    expect(open).toMatchObject({ status: 'PAUSED', remainingQty: 100n * U, totalQty: 100n * U });
    const c = ok(t, { ...byOwner, status: 'CLOSED' });
    expect(c.events).toStrictEqual([
      { type: 'otcAdChanged', ts: T0 + 2, ad: { ...open, status: 'CLOSED', remainingQty: 0n, updatedTs: T0 + 2 } },
      { type: 'balanceChanged', ts: T0 + 2, owner: M, account: 'OTC', asset: 'USDT', available: 99_000n * U, frozen: 1_000n * U },
    ]);
    expect(t.e.otcAd(ad)).toBeUndefined();
    expect(t.e.otcAds()).toEqual([]);
    refuses(t, { ...byOwner, status: 'CLOSED' }, 'otc_ad_not_found');
    refuses(t, { ...byOp, status: 'ONLINE' }, 'otc_ad_not_found');
    // closing a BUY ad moves no money
    const buy = publish(t, { userId: N, side: 'BUY' });
    const buyView = t.e.otcAd(buy) as OtcAdView;
    const cb = ok(t, { type: 'otcSetAdStatus', operatorId: 'op', adId: buy, status: 'CLOSED', audit: { why: 'spam' } });
    expect(cb.events).toStrictEqual([{ type: 'otcAdChanged', ts: T0 + 2, ad: { ...buyView, status: 'CLOSED', remainingQty: 0n }, audit: { why: 'spam' } }]);
    expect(otc(t, N)).toEqual({ available: 99_000n * U, frozen: 1_000n * U });
  });
});

describe('otcTakeAd', () => {
  it('userId, clientId and meta rules; an unknown user; a missing or own ad', () => {
    const t = ready();
    const ad = publish(t);
    const base = { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 72_000n, clientId: 'c' };
    for (const userId of [...BAD_USERS, undefined]) refuses(t, { ...base, userId }, 'invalid_config');
    for (const clientId of [...BAD_KEYS, undefined]) refuses(t, { ...base, clientId }, 'invalid_config');
    for (const meta of BAD_MAPS) refuses(t, { ...base, meta }, 'invalid_config');
    refuses(t, { ...base, userId: str(128) }, 'user_not_found');
    refuses(t, { ...base, userId: '9' }, 'user_not_found');
    refuses(t, { ...base, adId: '9' }, 'otc_ad_not_found');
    refuses(t, { ...base, adId: 1 }, 'otc_ad_not_found');
    refuses(t, { ...base, userId: M }, 'otc_own_ad');
    refuses(t, { ...base, userId: M, fiatAmount: 0n }, 'otc_own_ad'); // judged before the amount
    let n = 0;
    for (const over of [{ clientId: 'k' }, { clientId: str(128) }, ...GOOD_MAPS.map((meta) => ({ meta, clientId: `m${n++}` }))] as Record<string, unknown>[]) {
      const r = ok(t, { ...base, ...over });
      expect(r.otcOrder).toMatchObject({ clientId: over.clientId, meta: over.meta ?? {} });
    }
  });

  it('amounts: fiatAmount and indexPrice of 1..10^30 and bigints only', () => {
    const t = ready();
    const fixed = publish(t, { terms: terms({ price: MAX, minFiat: 1n, maxFiat: MAX }) });
    const base = { type: 'otcTakeAd', userId: B, adId: fixed, fiatAmount: 72_000n, clientId: 'c' };
    for (const fiatAmount of [0n, -1n, MAX + 1n, 72_000, '72000', undefined, null]) refuses(t, { ...base, fiatAmount }, 'amount_invalid');
    for (const indexPrice of [0n, -1n, MAX + 1n, 720, '720', null]) refuses(t, { ...base, indexPrice }, 'amount_invalid'); // refused even for a FIXED ad
    // 1 cent at 10^30 cents a coin buys nothing; 10^30 cents buy exactly one coin
    refuses(t, { ...base, fiatAmount: 1n }, 'otc_amount_out_of_limits');
    expect(ok(t, { ...base, fiatAmount: MAX }).otcOrder).toMatchObject({ price: MAX, fiatAmount: MAX, quantity: U });
    // an index of 1 cent at 50%: 0.5 rounds half up to 1 cent a coin; an index of 10^30 is an amount too
    const flt = publish(t, { terms: float({ floatPpm: OTC_MIN_FLOAT_PPM, minFiat: 1n, maxFiat: 100n }) });
    expect(ok(t, { ...base, adId: flt, fiatAmount: 1n, indexPrice: 1n, clientId: 'f1' }).otcOrder).toMatchObject({ price: 1n, quantity: U });
    refuses(t, { ...base, adId: flt, fiatAmount: 1n, clientId: 'f2' }, 'price_required');
    refuses(t, { ...base, adId: flt, fiatAmount: 100n, indexPrice: MAX, clientId: 'f2' }, 'otc_amount_out_of_limits'); // 5 * 10^29 a coin
    expect(ok(t, { ...base, adId: fixed, fiatAmount: MAX, indexPrice: MAX, clientId: 'f3' }).otcOrder).toMatchObject({ price: MAX, quantity: U }); // ignored for FIXED
    // 150% of 7.33 = 10.995, half up 11.00
    const f150 = publish(t, { terms: float({ floatPpm: 1_500_000 }) });
    expect(ok(t, { ...base, adId: f150, fiatAmount: 11_000n, indexPrice: 733n, clientId: 'f4' }).otcOrder).toMatchObject({ price: 1_100n, quantity: 10n * U });
  });

  it('limits to the cent and the remainder to the unit; nothing bought is refused', () => {
    const t = ready();
    // 1.00 CNY a coin: 1 cent = 0.01 USDT
    const ad = publish(t, { quantity: 10n * U, terms: terms({ price: 100n, minFiat: 200n, maxFiat: 500n }) });
    const base = { type: 'otcTakeAd', userId: B, adId: ad, clientId: 'x' };
    refuses(t, { ...base, fiatAmount: 199n }, 'otc_amount_out_of_limits');
    expect(ok(t, { ...base, fiatAmount: 200n, clientId: 'a' }).otcOrder?.quantity).toBe(2n * U);
    refuses(t, { ...base, fiatAmount: 501n }, 'otc_amount_out_of_limits');
    expect(ok(t, { ...base, fiatAmount: 500n, clientId: 'b' }).otcOrder?.quantity).toBe(5n * U);
    expect(t.e.otcAd(ad)?.remainingQty).toBe(3n * U);
    refuses(t, { ...base, fiatAmount: 301n }, 'otc_amount_out_of_limits'); // 3.01 USDT > 3 left
    expect(ok(t, { ...base, fiatAmount: 300n, clientId: 'c' }).otcOrder?.quantity).toBe(3n * U);
    expect(t.e.otcAd(ad)?.remainingQty).toBe(0n);
    refuses(t, { ...base, fiatAmount: 200n }, 'otc_amount_out_of_limits');
    expect(otc(t, M)).toEqual({ available: 98_990n * U, frozen: 1_010n * U });
  });

  it("the taker unfrozen; the ad ONLINE, its merchant ACTIVE and unfrozen; a BUY ad's taker holds the quantity to the unit", () => {
    const t = ready();
    const ad = publish(t);
    const base = { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 72_000n, clientId: 'c' };
    freeze(t, B, true);
    refuses(t, base, 'account_frozen');
    freeze(t, B, false);
    freeze(t, M, true);
    refuses(t, base, 'otc_ad_unavailable');
    freeze(t, M, false);
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'PAUSED' });
    refuses(t, base, 'otc_ad_unavailable');
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'ONLINE' });
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'SUSPENDED', reason: '' });
    refuses(t, base, 'otc_ad_unavailable');
    ok(t, { type: 'otcSetMerchantStatus', userId: M, operatorId: 'op', status: 'ACTIVE', reason: '' });
    // a BUY ad at 1.00 CNY a coin: the seller has 100,000 USDT = 10,000,000 cents
    const buy = publish(t, { userId: N, side: 'BUY', quantity: 200_000n * U, terms: terms({ price: 100n, minFiat: 1n, maxFiat: MAX }) });
    refuses(t, { ...base, userId: S, adId: buy, fiatAmount: 10_000_001n }, 'insufficient_balance');
    t.at(T0 + 7);
    const r = ok(t, { ...base, userId: S, adId: buy, fiatAmount: 10_000_000n, meta: { pay: 'card' } });
    const order: OtcOrderView = {
      orderId: '1',
      clientId: 'c',
      adId: buy,
      makerId: N,
      takerId: S,
      buyerId: N,
      sellerId: S,
      asset: 'USDT',
      fiat: 'CNY',
      price: 100n,
      quantity: 100_000n * U,
      fiatAmount: 10_000_000n,
      state: 'PENDING_PAYMENT',
      createdTs: T0 + 7,
      deadlineTs: T0 + 7 + W,
      paidTs: null,
      appealBy: null,
      appealTs: null,
      endReason: null,
      resolvedBy: null,
      reason: null,
      meta: { pay: 'card' },
      updatedTs: T0 + 7,
    };
    expect(r).toStrictEqual({
      code: 'ok',
      events: [
        { type: 'otcAdChanged', ts: T0 + 7, ad: t.e.otcAd(buy) },
        { type: 'otcOrderChanged', ts: T0 + 7, order },
        { type: 'balanceChanged', ts: T0 + 7, owner: S, account: 'OTC', asset: 'USDT', available: 0n, frozen: 100_000n * U },
      ],
      otcOrder: order,
    });
    expect(t.e.otcAd(buy)?.remainingQty).toBe(100_000n * U);
    expect(t.e.otcOrder('1')).toStrictEqual(order);
  });
});

describe('the order state machine: each command in a wrong state or by a wrong user is refused and changes nothing', () => {
  function world() {
    const t = ready({ cancelLimit: 100 });
    const ad = publish(t, { quantity: 10_000n * U });
    const open = () => take(t, ad, B, 72_000n); // 100 USDT, M sells to B
    const paid = () => {
      const id = open();
      ok(t, markPaid(B, id));
      return id;
    };
    const appealed = (by: string) => {
      const id = paid();
      t.at(t.now() + A);
      ok(t, appeal(by, id));
      return id;
    };
    return { t, ad, open, paid, appealed };
  }

  it('PENDING_PAYMENT: the buyer pays before the deadline, the seller may release, the time-out comes at the deadline', () => {
    const { t, open } = world();
    const id = open();
    const deadline = t.now() + W;
    for (const [c, code] of [
      [markPaid(M, id), 'otc_order_state_invalid'],
      [markPaid(undefined, id), 'otc_order_state_invalid'],
      [markPaid(X, id), 'otc_order_not_found'],
      [markPaid(N, id), 'otc_order_not_found'],
      [markPaid(B, '99'), 'otc_order_not_found'],
      [markPaid(B, 1 as unknown as string), 'otc_order_not_found'],
      [release(B, id), 'otc_order_state_invalid'],
      [release(undefined, id), 'otc_order_state_invalid'],
      [release(X, id), 'otc_order_not_found'],
      [cancel(M, id), 'otc_order_state_invalid'],
      [cancel(X, id), 'otc_order_not_found'],
      [cancel(str(128), id), 'otc_order_not_found'],
      [cancel(undefined, id), 'otc_order_state_invalid'], // before the deadline
      [appeal(B, id), 'otc_order_state_invalid'],
      [appeal(M, id), 'otc_order_state_invalid'],
      [appeal(X, id), 'otc_order_not_found'],
      [unappeal(B, id), 'otc_order_state_invalid'],
      [unappeal(M, id), 'otc_order_state_invalid'],
      [unappeal(X, id), 'otc_order_not_found'],
      [resolve(id, 'RELEASE'), 'otc_order_state_invalid'],
      [resolve(id, 'RETURN'), 'otc_order_state_invalid'],
    ] as [Record<string, unknown>, RejectCode][]) {
      refuses(t, c, code);
    }
    for (const userId of BAD_USERS) refuses(t, cancel(userId as string, id), 'invalid_config');
    for (const meta of BAD_MAPS) {
      refuses(t, markPaid(B, id, { meta }), 'invalid_config');
      refuses(t, cancel(B, id, { meta }), 'invalid_config');
      refuses(t, cancel(undefined, id, { meta }), 'invalid_config');
    }
    t.at(deadline - 1);
    refuses(t, cancel(undefined, id), 'otc_order_state_invalid');
    expect(ok(t, markPaid(B, id, { meta: entries(32) })).otcOrder).toMatchObject({
      state: 'PAID',
      paidTs: deadline - 1,
      updatedTs: deadline - 1,
      meta: entries(32),
    });
    // at the deadline: too late to pay, the time-out job cancels
    const late = open();
    t.at(t.now() + W);
    refuses(t, markPaid(B, late), 'otc_payment_expired');
    expect(ok(t, cancel(undefined, late)).otcOrder).toMatchObject({ state: 'CANCELLED', endReason: 'TIMEOUT' });
    // the seller releases an unpaid order
    const r = open();
    expect(ok(t, release(M, r)).otcOrder).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED', paidTs: null });
    // the buyer cancels an unpaid order
    const c = open();
    expect(ok(t, cancel(B, c, { meta: { why: 'x' } })).otcOrder).toMatchObject({ state: 'CANCELLED', endReason: 'BUYER_CANCELLED', meta: { why: 'x' } });
  });

  it('PAID: appeal by either side at exactly appealAfterMs after paid; the buyer may still cancel, the seller release; no time-out', () => {
    const { t, paid } = world();
    const id = paid();
    const p = t.now();
    for (const [c, code] of [
      [markPaid(B, id), 'otc_order_state_invalid'],
      [release(B, id), 'otc_order_state_invalid'],
      [release(X, id), 'otc_order_not_found'],
      [cancel(M, id), 'otc_order_state_invalid'],
      [cancel(X, id), 'otc_order_not_found'],
      [unappeal(B, id), 'otc_order_state_invalid'],
      [unappeal(M, id), 'otc_order_state_invalid'],
      [resolve(id, 'RELEASE'), 'otc_order_state_invalid'],
      [resolve(id, 'RETURN'), 'otc_order_state_invalid'],
    ] as [Record<string, unknown>, RejectCode][]) {
      refuses(t, c, code);
    }
    t.at(p + A - 1);
    refuses(t, appeal(B, id), 'otc_appeal_too_early');
    refuses(t, appeal(M, id), 'otc_appeal_too_early');
    t.at(p + A);
    refuses(t, appeal(X, id), 'otc_order_not_found');
    for (const meta of BAD_MAPS) refuses(t, appeal(M, id, { meta }), 'invalid_config');
    expect(ok(t, appeal(M, id, { meta: { a: 'b' } })).otcOrder).toMatchObject({ state: 'APPEAL', appealBy: M, appealTs: p + A, paidTs: p, meta: { a: 'b' } });
    // a paid order past its deadline is not timed out
    const id2 = paid();
    t.at(t.now() + W);
    refuses(t, cancel(undefined, id2), 'otc_order_state_invalid');
    expect(ok(t, cancel(B, id2)).otcOrder).toMatchObject({ state: 'CANCELLED', endReason: 'BUYER_CANCELLED' });
    const id3 = paid();
    expect(ok(t, release(M, id3)).otcOrder).toMatchObject({ state: 'COMPLETED', endReason: 'RELEASED' });
    // a zero wait: the appeal right away
    ok(t, { type: 'otcConfigure', config: { ...config, appealAfterMs: 0, cancelLimit: 100 } });
    const id4 = paid();
    expect(ok(t, appeal(B, id4)).otcOrder).toMatchObject({ state: 'APPEAL', appealBy: B });
  });

  it('APPEAL: frozen for both sides; only the appellant withdraws it; an operator resolves it with bounded fields', () => {
    const { t, appealed } = world();
    const id = appealed(B);
    const at = t.now();
    t.at(at + W);
    for (const [c, code] of [
      [markPaid(B, id), 'otc_order_state_invalid'],
      [release(M, id), 'otc_order_state_invalid'],
      [cancel(B, id), 'otc_order_state_invalid'],
      [cancel(undefined, id), 'otc_order_state_invalid'],
      [appeal(B, id), 'otc_order_state_invalid'],
      [appeal(M, id), 'otc_order_state_invalid'],
      [unappeal(M, id), 'otc_order_state_invalid'], // not the appellant
      [unappeal(undefined, id), 'otc_order_state_invalid'],
      [unappeal(X, id), 'otc_order_not_found'],
      [resolve('99', 'RELEASE'), 'otc_order_not_found'],
    ] as [Record<string, unknown>, RejectCode][]) {
      refuses(t, c, code);
    }
    for (const operatorId of [...BAD_KEYS, undefined]) refuses(t, resolve(id, 'RELEASE', { operatorId }), 'invalid_config');
    for (const outcome of ['release', 'CANCEL', undefined]) refuses(t, resolve(id, 'RELEASE', { outcome }), 'invalid_config');
    for (const reason of BAD_REASONS) refuses(t, resolve(id, 'RELEASE', { reason }), 'invalid_config');
    for (const audit of BAD_MAPS) refuses(t, resolve(id, 'RELEASE', { audit }), 'invalid_config');
    for (const meta of BAD_MAPS) refuses(t, resolve(id, 'RELEASE', { meta }), 'invalid_config');
    // the appellant withdraws: PAID again; then the other side may appeal at once (the wait is from paid)
    expect(ok(t, unappeal(B, id)).otcOrder).toMatchObject({ state: 'PAID' });
    refuses(t, unappeal(B, id), 'otc_order_state_invalid'); // no appeal open any more
    expect(ok(t, appeal(M, id)).otcOrder).toMatchObject({ state: 'APPEAL', appealBy: M, appealTs: at + W });
    refuses(t, unappeal(B, id), 'otc_order_state_invalid');
    // resolutions at their bounds
    const accepted: Record<string, unknown>[] = [
      { operatorId: 'o' },
      { operatorId: str(128) },
      { reason: str(OTC_MAX_REASON_LENGTH) },
      { reason: '' },
      ...GOOD_MAPS.map((audit) => ({ audit })),
      ...GOOD_MAPS.map((meta) => ({ meta })),
    ];
    let first = true;
    for (const over of accepted) {
      const o = first ? id : appealed(B);
      first = false;
      const c = resolve(o, 'RETURN', over);
      const r = ok(t, c);
      const ev = r.events.find((e) => e.type === 'otcOrderChanged') as Extract<EngineEvent, { type: 'otcOrderChanged' }>;
      expect(ev.order).toMatchObject({ state: 'CANCELLED', endReason: 'APPEAL_RETURNED', resolvedBy: c.operatorId, reason: c.reason });
      expect(ev.order.meta).toEqual(over.meta ?? {});
      expect(ev.audit).toStrictEqual(over.audit);
      expect('audit' in ev).toBe(over.audit !== undefined);
      expect(r.otcOrder).toStrictEqual(ev.order);
    }
  });

  it('a final order is gone: every command on it answers otc_order_not_found', () => {
    const { t, open, appealed } = world();
    const done = open();
    ok(t, release(M, done));
    const back = appealed(M);
    ok(t, resolve(back, 'RETURN'));
    t.at(t.now() + W);
    for (const id of [done, back]) {
      expect(t.e.otcOrder(id)).toBeUndefined();
      for (const c of [markPaid(B, id), release(M, id), cancel(B, id), cancel(undefined, id), appeal(B, id), unappeal(M, id), resolve(id, 'RELEASE')])
        refuses(t, c, 'otc_order_not_found');
    }
    expect(t.e.otcOpenOrders()).toEqual([]);
  });
});

describe('the daily cancel limit', () => {
  it('at exactly the limit taking is refused, one less is not, one more stays refused; per buyer; a new day at exactly Shanghai midnight', () => {
    expect(otcDay(MIDNIGHT)).toBe(otcDay(MIDNIGHT - 1) + 1);
    expect(otcDay(MIDNIGHT)).toBe(otcDay(T0) + 1);
    const t = ready({ cancelLimit: 2 });
    const ad = publish(t);
    const takeCmd = (u: string) => ({ type: 'otcTakeAd', userId: u, adId: ad, fiatAmount: 72_000n, clientId: `t${++clientSeq}` });
    expect(t.e.otcCancelsOn(B, T0)).toBe(0);
    ok(t, cancel(B, take(t, ad, B, 72_000n)));
    expect(t.e.otcCancelsOn(B, T0)).toBe(1);
    expect(t.e.otcCancelsOn(B, MIDNIGHT)).toBe(0);
    expect(t.e.otcCancelsOn(X, T0)).toBe(0);
    expect(t.e.otcCancelsOn(M, T0)).toBe(0); // the seller's count is untouched
    const o2 = take(t, ad, B, 72_000n); // one cancel under the limit
    const o3 = take(t, ad, B, 72_000n);
    ok(t, cancel(B, o2));
    expect(t.e.otcCancelsOn(B, T0)).toBe(2);
    refuses(t, takeCmd(B), 'otc_cancel_limit');
    take(t, ad, X, 72_000n); // another buyer is not barred
    // one more (an order taken before the limit, cancelled a millisecond before midnight): still the same day
    t.at(MIDNIGHT - 1);
    ok(t, cancel(B, o3));
    expect(t.e.otcCancelsOn(B, MIDNIGHT - 1)).toBe(3);
    expect(t.e.otcCancelsOn(B, T0)).toBe(3);
    refuses(t, takeCmd(B), 'otc_cancel_limit');
    // midnight in Shanghai: the count is of another day
    t.at(MIDNIGHT);
    expect(t.e.otcCancelsOn(B, MIDNIGHT)).toBe(0);
    const o4 = take(t, ad, B, 72_000n);
    ok(t, cancel(B, o4));
    expect(t.e.otcCancelsOn(B, MIDNIGHT)).toBe(1); // a new day starts at 1
    expect(t.e.otcCancelsOn(B, MIDNIGHT - 1)).toBe(0);
    // a time-out counts as a cancel of the buyer
    const o5 = take(t, ad, B, 72_000n);
    t.at(MIDNIGHT + W);
    ok(t, cancel(undefined, o5));
    expect(t.e.otcCancelsOn(B, MIDNIGHT)).toBe(2);
    refuses(t, takeCmd(B), 'otc_cancel_limit');
    // a BUY ad: the merchant is the buyer whose cancels count, not the taker
    const buy = publish(t, { userId: N, side: 'BUY' });
    const b1 = take(t, buy, S, 72_000n);
    refuses(t, cancel(S, b1), 'otc_order_state_invalid');
    t.at(MIDNIGHT + 2 * W);
    ok(t, cancel(undefined, b1));
    expect(t.e.otcCancelsOn(N, MIDNIGHT)).toBe(1);
    expect(t.e.otcCancelsOn(S, MIDNIGHT)).toBe(0);
    // an appeal returned by the operator is no cancel of the buyer
    const x1 = take(t, ad, X, 72_000n);
    ok(t, markPaid(X, x1));
    t.at(t.now() + A);
    ok(t, appeal(M, x1));
    ok(t, resolve(x1, 'RETURN'));
    expect(t.e.otcCancelsOn(X, t.now())).toBe(0);
  });

  it('a cancel limit of 1 bars after the first cancel, and 100 after the hundredth', () => {
    const t = ready({ cancelLimit: 1 });
    const ad = publish(t);
    ok(t, cancel(B, take(t, ad, B, 72_000n)));
    refuses(t, { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 72_000n, clientId: 'z' }, 'otc_cancel_limit');
    ok(t, { type: 'otcConfigure', config: { ...config, cancelLimit: 100 } });
    for (let i = 1; i < 100; i++) ok(t, cancel(B, take(t, ad, B, 72_000n)));
    expect(t.e.otcCancelsOn(B, T0)).toBe(100);
    refuses(t, { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 72_000n, clientId: 'z' }, 'otc_cancel_limit');
  });
});

describe('idempotency by (userId, clientId)', () => {
  it('otcTakeAd: the retry answers the first order as it is now and changes nothing; a new clientId or another user makes a new order; the window edge', () => {
    const t = ready();
    const ad = publish(t);
    const ad2 = publish(t, { userId: N });
    const base = { type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 72_000n, clientId: 'c' };
    const first = ok(t, base).otcOrder as OtcOrderView;
    expect(first.orderId).toBe('1');
    const dup = (c: Record<string, unknown>, order: OtcOrderView | undefined) => {
      const before = t.e.stateHash();
      expect(t.run(c)).toStrictEqual({ code: 'ok', events: [], duplicate: true, ...(order === undefined ? {} : { otcOrder: order }) });
      expect(t.e.stateHash()).toBe(before);
    };
    dup(base, first);
    dup({ ...base, adId: ad2, fiatAmount: 36_000n, meta: { other: '1' } }, first); // other fields of the retry do not matter
    dup({ ...base, fiatAmount: 0n }, first); // not even invalid ones after the key
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'PAUSED' });
    freeze(t, B, true);
    dup(base, first);
    freeze(t, B, false);
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'ONLINE' });
    ok(t, markPaid(B, '1'));
    dup(base, t.e.otcOrder('1'));
    expect(t.e.otcOrder('1')?.state).toBe('PAID');
    // a new clientId, another user with the same clientId
    expect(ok(t, { ...base, clientId: 'c2' }).otcOrder?.orderId).toBe('2');
    expect(ok(t, { ...base, userId: X }).otcOrder).toMatchObject({ orderId: '3', buyerId: X, clientId: 'c' });
    // a final first order: the retry is still the duplicate, with no order to show
    ok(t, release(M, '1'));
    dup(base, undefined);
    // a refused take records no key
    refuses(t, { ...base, clientId: 'c3', fiatAmount: 1n }, 'otc_amount_out_of_limits');
    expect(ok(t, { ...base, clientId: 'c3' }).otcOrder?.orderId).toBe('4');
    // the window (24 h of command time): a retry 1 ms inside it is the duplicate, one at its end is a new order
    t.at(T0 + DAY - 1);
    dup({ ...base, clientId: 'c2' }, t.e.otcOrder('2'));
    t.at(T0 + DAY);
    expect(ok(t, { ...base, clientId: 'c2' }).otcOrder?.orderId).toBe('5');
    expect(t.e.otcOpenOrders().map((o) => o.orderId)).toEqual(['2', '3', '4', '5']);
  });

  it('otcPublishAd: the retry answers ok with no event and changes nothing; a new clientId, another merchant or no clientId make a new ad; the window edge', () => {
    const t = ready();
    const base = { type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 100n * U, terms: terms(), clientId: 'a' };
    ok(t, base);
    const dup = (c: Record<string, unknown>) => {
      const before = t.e.stateHash();
      expect(t.run(c)).toStrictEqual({ code: 'ok', events: [], duplicate: true });
      expect(t.e.stateHash()).toBe(before);
    };
    dup(base);
    dup({ ...base, side: 'BUY', quantity: 5n * U, terms: terms({ price: 1n }) });
    dup({ ...base, terms: null, quantity: 0n }); // the key is looked up before the terms are judged
    freeze(t, M, true);
    dup(base);
    freeze(t, M, false);
    expect(otc(t, M)).toEqual({ available: 98_900n * U, frozen: 1_100n * U });
    expect(publish(t, { ...base, clientId: 'b' })).toBe('2');
    expect(publish(t, { ...base, userId: N })).toBe('3');
    expect(publish(t, { ...base, clientId: undefined })).toBe('4');
    expect(publish(t, { ...base, clientId: undefined })).toBe('5');
    // a refused publish records no key
    refuses(t, { ...base, clientId: 'z', quantity: 99_000n * U }, 'insufficient_balance');
    expect(publish(t, { ...base, clientId: 'z' })).toBe('6');
    t.at(T0 + DAY - 1);
    dup(base);
    t.at(T0 + DAY);
    expect(publish(t, base)).toBe('7');
    expect(t.e.otcAds(M).map((a) => a.adId)).toEqual(['1', '2', '4', '5', '6', '7']);
    expect(otc(t, M)).toEqual({ available: 98_400n * U, frozen: 1_600n * U });
  });
});

describe('reads and answers are copies', () => {
  it('changing what otcConfig, otcMerchant, otcAd, otcAds, otcOrder, otcOpenOrders, results and events return changes nothing', () => {
    const t = ready();
    const tm = terms();
    const meta = { pay: '7' };
    const pub = ok(t, { type: 'otcPublishAd', userId: M, side: 'SELL', quantity: 100n * U, terms: tm, meta });
    const omMeta = { note: 'n' };
    const tk = ok(t, { type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'c', meta: omMeta });
    const paidMeta = { proof: 'p' };
    const pd = ok(t, markPaid(B, '1', { meta: paidMeta }));
    const ad2 = publish(t, { side: 'BUY', meta: { a: '1' } });
    const tm2 = terms({ price: 730n });
    const upMeta = { b: '2' };
    const up = ok(t, { type: 'otcUpdateAd', userId: M, adId: ad2, remainingQty: 5n * U, terms: tm2, meta: upMeta });
    const sus = ok(t, { type: 'otcSetMerchantStatus', userId: N, operatorId: 'op', status: 'SUSPENDED', reason: 'r', audit: { a: '1' } });
    const before = t.e.stateHash();
    const views = {
      ad: t.e.otcAd('1'),
      ad2: t.e.otcAd(ad2),
      order: t.e.otcOrder('1'),
      merchant: t.e.otcMerchant(M),
      n: t.e.otcMerchant(N),
      config: t.e.otcConfig(),
    };
    // the command's own objects
    tm.price = 1n;
    tm2.price = 1n;
    upMeta.b = 'x';
    meta.pay = 'x';
    omMeta.note = 'x';
    paidMeta.proof = 'x';
    // reads
    const c = t.e.otcConfig() as OtcConfig;
    c.cancelLimit = 0;
    c.asset = 'BTC';
    const m = t.e.otcMerchant(M)!;
    m.state = 'LEFT';
    m.deposit = 0n;
    for (const a of [t.e.otcAd('1')!, ...t.e.otcAds(), ...t.e.otcAds(M)]) {
      a.remainingQty = 0n;
      a.status = 'CLOSED';
      a.price = 1n;
      a.meta.pay = 'x';
      a.meta.more = 'x';
    }
    for (const o of [t.e.otcOrder('1')!, ...t.e.otcOpenOrders(), ...t.e.otcOpenOrders(B), ...t.e.otcOpenOrders(M)]) {
      o.state = 'COMPLETED';
      o.quantity = 0n;
      o.meta.note = 'x';
      o.meta.more = 'x';
    }
    // results and events
    for (const r of [pub, tk, pd, up, sus]) {
      for (const e of r.events) {
        if (e.type === 'otcMerchantChanged') {
          e.merchant.state = 'LEFT';
          e.merchant.deposit = 0n;
        }
        if (e.type === 'otcMerchantChanged' && e.audit !== undefined) e.audit.a = 'x';
        if (e.type === 'otcAdChanged') {
          e.ad.remainingQty = 0n;
          e.ad.meta.pay = 'x';
        }
        if (e.type === 'otcOrderChanged') {
          e.order.quantity = 0n;
          e.order.meta.note = 'x';
        }
      }
      if (r.otcOrder !== undefined) {
        r.otcOrder.state = 'CANCELLED';
        r.otcOrder.meta.note = 'y';
      }
    }
    const dup = t.run({ type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'c' });
    (dup.otcOrder as OtcOrderView).meta.note = 'z';
    (dup.otcOrder as OtcOrderView).fiatAmount = 1n;
    // a snapshot's rows
    const rows = otcPart(t.e.snapshot());
    (rows.ads[0]!.meta as Record<string, string>).pay = 'x';
    (rows.orders[0]!.meta as Record<string, string>).note = 'x';
    rows.merchants[0]!.state = 'LEFT';
    expect(t.e.stateHash()).toBe(before);
    expect({
      ad: t.e.otcAd('1'),
      ad2: t.e.otcAd(ad2),
      order: t.e.otcOrder('1'),
      merchant: t.e.otcMerchant(M),
      n: t.e.otcMerchant(N),
      config: t.e.otcConfig(),
    }).toStrictEqual(views);
    expect(views.ad?.meta).toEqual({ pay: '7' });
    expect(views.ad?.price).toBe(720n);
    expect(views.ad2).toMatchObject({ price: 730n, remainingQty: 5n * U, meta: { b: '2' } });
    expect(views.n).toMatchObject({ state: 'SUSPENDED', deposit: 1_000n * U });
    expect(views.order?.meta).toEqual({ note: 'n', proof: 'p' });
  });

  it('the result and the event of a command are separate copies', () => {
    const t = ready();
    publish(t);
    const r = ok(t, { type: 'otcTakeAd', userId: B, adId: '1', fiatAmount: 72_000n, clientId: 'c', meta: { a: '1' } });
    const ev = r.events.find((e) => e.type === 'otcOrderChanged') as Extract<EngineEvent, { type: 'otcOrderChanged' }>;
    (r.otcOrder as OtcOrderView).meta.a = 'changed';
    expect(ev.order.meta).toEqual({ a: '1' });
    expect(t.e.otcOrder('1')?.meta).toEqual({ a: '1' });
  });

  it('otcAds(userId) and otcOpenOrders(userId) filter by the user (maker or taker), oldest first', () => {
    const t = ready();
    const a1 = publish(t);
    const a2 = publish(t, { userId: N });
    const a3 = publish(t, { side: 'BUY' });
    const ids = (xs: { adId: string }[]) => xs.map((a) => a.adId);
    expect(ids(t.e.otcAds())).toEqual([a1, a2, a3]);
    expect(ids(t.e.otcAds(M))).toEqual([a1, a3]);
    expect(ids(t.e.otcAds(N))).toEqual([a2]);
    expect(t.e.otcAds(B)).toEqual([]);
    expect(t.e.otcAds('9')).toEqual([]);
    const o1 = take(t, a1, B, 72_000n); // M -> B
    const o2 = take(t, a1, N, 72_000n); // M -> N
    const o3 = take(t, a3, S, 72_000n); // S -> M
    const o4 = take(t, a2, B, 72_000n); // N -> B
    const oids = (xs: OtcOrderView[]) => xs.map((o) => o.orderId);
    expect(oids(t.e.otcOpenOrders())).toEqual([o1, o2, o3, o4]);
    expect(oids(t.e.otcOpenOrders(M))).toEqual([o1, o2, o3]);
    expect(oids(t.e.otcOpenOrders(N))).toEqual([o2, o4]);
    expect(oids(t.e.otcOpenOrders(B))).toEqual([o1, o4]);
    expect(oids(t.e.otcOpenOrders(S))).toEqual([o3]);
    expect(t.e.otcOpenOrders(X)).toEqual([]);
    // a closed ad leaves the list; its orders stay open
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: a1, status: 'CLOSED' });
    expect(ids(t.e.otcAds(M))).toEqual([a3]);
    expect(oids(t.e.otcOpenOrders(M))).toEqual([o1, o2, o3]);
    ok(t, release(M, o1));
    expect(oids(t.e.otcOpenOrders(B))).toEqual([o4]);
    expect(t.e.otcOrder(o1)).toBeUndefined();
  });
});

describe('escrow to the unit', () => {
  it('SELL ad: take, release, buyer cancel, time-out, appeal RELEASE and RETURN (ad open and closed); every asset sums to zero', () => {
    const t = ready();
    const ad = publish(t, { terms: terms({ price: 733n, minFiat: 1n }) }); // 7.33 CNY a coin
    const q1 = 1_364_392_905n; // 100.01 CNY / 7.33 = 13.64392905... USDT
    const q2 = 2_728_785_811n; // 200.02 CNY
    const q4 = 4_547_476_125n; // 333.33 CNY
    expect([otcQuantity(10_001n, 733n, 8), otcQuantity(20_002n, 733n, 8), otcQuantity(33_333n, 733n, 8)]).toEqual([q1, q2, q4]);
    const mStart = { available: 98_000n * U, frozen: 2_000n * U }; // deposit and the ad
    expect(otc(t, M)).toEqual(mStart);
    const remaining = () => t.e.otcAd(ad)?.remainingQty;
    // take: the ad's hold moves to the order (no ledger change)
    const tk = t.run({ type: 'otcTakeAd', userId: B, adId: ad, fiatAmount: 10_001n, clientId: 'o1' });
    expect(types(tk)).toEqual(['otcAdChanged', 'otcOrderChanged']);
    const o1 = (tk.otcOrder as OtcOrderView).orderId;
    expect(tk.otcOrder?.quantity).toBe(q1);
    expect(remaining()).toBe(1_000n * U - q1);
    expect(otc(t, M)).toEqual(mStart);
    expect(otc(t, B)).toEqual({ available: 100_000n * U, frozen: 0n });
    zeroSums(t);
    // release: exactly q1 from M's frozen to B's available
    const rel = ok(t, release(M, o1));
    expect(rel.events.slice(1)).toStrictEqual([
      { type: 'balanceChanged', ts: T0, owner: M, account: 'OTC', asset: 'USDT', available: 98_000n * U, frozen: 2_000n * U - q1 },
      { type: 'balanceChanged', ts: T0, owner: B, account: 'OTC', asset: 'USDT', available: 100_000n * U + q1, frozen: 0n },
    ]);
    zeroSums(t);
    const m1 = { available: 98_000n * U, frozen: 2_000n * U - q1 };
    // buyer cancel and time-out: the quantity returns to the ad, no ledger change
    const o2 = take(t, ad, X, 20_002n);
    expect(remaining()).toBe(1_000n * U - q1 - q2);
    const cn = ok(t, cancel(X, o2));
    expect(types(cn)).toEqual(['otcAdChanged', 'otcOrderChanged']);
    expect(adEvent(cn).ad.remainingQty).toBe(1_000n * U - q1);
    expect(remaining()).toBe(1_000n * U - q1);
    expect(otc(t, M)).toEqual(m1);
    expect(otc(t, X)).toEqual({ available: 100_000n * U, frozen: 0n });
    const o3 = take(t, ad, X, 20_002n);
    t.at(T0 + W);
    expect(types(ok(t, cancel(undefined, o3)))).toEqual(['otcAdChanged', 'otcOrderChanged']);
    expect(remaining()).toBe(1_000n * U - q1);
    expect(otc(t, M)).toEqual(m1);
    zeroSums(t);
    // appeal RELEASE: like a release
    const o4 = take(t, ad, B, 33_333n);
    ok(t, markPaid(B, o4));
    t.at(t.now() + A);
    ok(t, appeal(B, o4));
    expect(otc(t, M)).toEqual(m1);
    ok(t, resolve(o4, 'RELEASE'));
    const m2 = { available: 98_000n * U, frozen: 2_000n * U - q1 - q4 };
    expect(otc(t, M)).toEqual(m2);
    expect(otc(t, B)).toEqual({ available: 100_000n * U + q1 + q4, frozen: 0n });
    expect(remaining()).toBe(1_000n * U - q1 - q4);
    zeroSums(t);
    // appeal RETURN with the ad open: back to the ad
    const o5 = take(t, ad, B, 33_333n);
    ok(t, markPaid(B, o5));
    t.at(t.now() + A);
    ok(t, appeal(M, o5));
    expect(types(ok(t, resolve(o5, 'RETURN')))).toEqual(['otcAdChanged', 'otcOrderChanged']);
    expect(remaining()).toBe(1_000n * U - q1 - q4);
    expect(otc(t, M)).toEqual(m2);
    expect(otc(t, B)).toEqual({ available: 100_000n * U + q1 + q4, frozen: 0n });
    // the ad closed with an order open: the remainder is released, the order's quantity stays held until it ends
    const o6 = take(t, ad, B, 20_002n);
    const o7 = take(t, ad, B, 10_001n);
    ok(t, markPaid(B, o7));
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: ad, status: 'CLOSED' });
    const left = 1_000n * U - q1 - q4 - q2 - q1;
    expect(otc(t, M)).toEqual({ available: 98_000n * U + left, frozen: 1_000n * U + q2 + q1 });
    expect(types(ok(t, cancel(B, o6)))).toEqual(['otcOrderChanged', 'balanceChanged']);
    expect(otc(t, M)).toEqual({ available: 98_000n * U + left + q2, frozen: 1_000n * U + q1 });
    t.at(t.now() + A);
    ok(t, appeal(B, o7));
    expect(types(ok(t, resolve(o7, 'RETURN')))).toEqual(['otcOrderChanged', 'balanceChanged']);
    expect(otc(t, M)).toEqual({ available: 99_000n * U - q1 - q4, frozen: 1_000n * U });
    expect(otc(t, B)).toEqual({ available: 100_000n * U + q1 + q4, frozen: 0n });
    zeroSums(t);
  });

  it("BUY ad: the taker's coins held at take, released by a cancel (ad open or closed), paid to the merchant by a release", () => {
    const t = ready();
    const ad = publish(t, { userId: N, side: 'BUY', terms: terms({ price: 733n, minFiat: 1n }) });
    const q1 = 1_364_392_905n;
    const nStart = { available: 99_000n * U, frozen: 1_000n * U };
    const o1 = take(t, ad, S, 10_001n);
    expect(otc(t, S)).toEqual({ available: 100_000n * U - q1, frozen: q1 });
    expect(otc(t, N)).toEqual(nStart);
    expect(t.e.otcAd(ad)?.remainingQty).toBe(1_000n * U - q1);
    const cn = ok(t, cancel(N, o1)); // the merchant is the buyer
    expect(types(cn)).toEqual(['otcAdChanged', 'otcOrderChanged', 'balanceChanged']);
    expect(otc(t, S)).toEqual({ available: 100_000n * U, frozen: 0n });
    expect(t.e.otcAd(ad)?.remainingQty).toBe(1_000n * U);
    zeroSums(t);
    const o2 = take(t, ad, S, 10_001n);
    ok(t, markPaid(N, o2));
    refuses(t, release(N, o2), 'otc_order_state_invalid');
    ok(t, release(S, o2));
    expect(otc(t, S)).toEqual({ available: 100_000n * U - q1, frozen: 0n });
    expect(otc(t, N)).toEqual({ available: 99_000n * U + q1, frozen: 1_000n * U });
    expect(t.e.otcAd(ad)?.remainingQty).toBe(1_000n * U - q1);
    zeroSums(t);
    const o3 = take(t, ad, S, 10_001n);
    ok(t, markPaid(N, o3));
    t.at(t.now() + A);
    ok(t, appeal(S, o3));
    ok(t, { type: 'otcSetAdStatus', userId: N, adId: ad, status: 'CLOSED' });
    expect(types(ok(t, resolve(o3, 'RETURN')))).toEqual(['otcOrderChanged', 'balanceChanged']);
    expect(otc(t, S)).toEqual({ available: 100_000n * U - q1, frozen: 0n });
    expect(otc(t, N)).toEqual({ available: 99_000n * U + q1, frozen: 1_000n * U });
    zeroSums(t);
  });
});

describe('snapshot', () => {
  function busy() {
    const t = setup({ cancelLimit: 5 });
    // applied out of id order: N ("5") before M ("1")
    for (const u of [N, M]) {
      ok(t, { type: 'otcApplyMerchant', userId: u });
      ok(t, { type: 'otcReviewMerchant', userId: u, operatorId: 'op', approve: true, reason: 'ok' });
    }
    ok(t, { type: 'otcApplyMerchant', userId: X }); // PENDING
    ok(t, { type: 'otcApplyMerchant', userId: S });
    ok(t, { type: 'otcReviewMerchant', userId: S, operatorId: 'op', approve: false, reason: 'no' }); // REJECTED
    const a1 = publish(t, { meta: { pay: '1' } });
    const a2 = publish(t, { userId: N, terms: float({ floatPpm: 1_010_000 }) });
    const a3 = publish(t, { side: 'BUY' });
    const a4 = publish(t, { userId: N });
    ok(t, { type: 'otcSetAdStatus', userId: N, adId: a4, status: 'CLOSED' });
    ok(t, { type: 'otcSetAdStatus', userId: M, adId: a3, status: 'PAUSED' });
    // cancels: X ("4") before B ("2")
    ok(t, cancel(X, take(t, a1, X, 72_000n)));
    ok(t, cancel(B, take(t, a1, B, 72_000n)));
    take(t, a1, B, 72_000n, { meta: { m: '1' } }); // PENDING_PAYMENT
    const p = take(t, a2, B, 72_720n, { indexPrice: 720n });
    ok(t, markPaid(B, p, { meta: { proof: 'x' } })); // PAID
    const ap = take(t, a1, X, 36_000n);
    ok(t, markPaid(X, ap));
    ok(t, release(N, take(t, a2, X, 10_000n, { indexPrice: 720n }))); // gone
    t.at(t.now() + A);
    ok(t, appeal(X, ap)); // APPEAL
    return { t, a1, a2, a3 };
  }

  it('rows are canonical: merchants and cancels by user id, ads and orders by id, bigints as strings', () => {
    const { t } = busy();
    const s = otcPart(t.e.snapshot());
    expect(s.config).toStrictEqual({ asset: 'USDT', fiat: 'CNY', merchantDeposit: `${1_000n * U}`, appealAfterMs: A, cancelLimit: 5 });
    expect(s.merchants.map((m) => [m.userId, m.state, m.deposit])).toEqual([
      [M, 'ACTIVE', `${1_000n * U}`],
      [S, 'REJECTED', '0'],
      [X, 'PENDING', `${1_000n * U}`],
      [N, 'ACTIVE', `${1_000n * U}`],
    ]);
    expect(s.cancels).toEqual([
      [B, otcDay(T0), 1],
      [X, otcDay(T0), 1],
    ]);
    expect([s.adSeq, s.orderSeq]).toEqual([4, 6]);
    expect(s.ads.map((a) => [a.adId, a.status, a.price])).toEqual([
      ['1', 'ONLINE', '720'],
      ['2', 'ONLINE', null],
      ['3', 'PAUSED', '720'],
    ]);
    expect(s.orders.map((o) => [o.orderId, o.state, o.quantity])).toEqual([
      ['3', 'PENDING_PAYMENT', `${100n * U}`],
      ['4', 'PAID', `${otcQuantity(72_720n, 727n, 8)}`],
      ['5', 'APPEAL', `${50n * U}`],
    ]);
    expect(s.ads[0]!.meta).toEqual({ pay: '1' });
  });

  it('restore (after JSON) keeps every view, the cancels and the next ids; both engines answer the next commands alike', () => {
    const { t, a1, a2, a3 } = busy();
    const copy = Engine.restore(JSON.parse(JSON.stringify(t.e.snapshot())));
    expect(copy.stateHash()).toBe(t.e.stateHash());
    const views = (e: Engine) => ({
      config: e.otcConfig(),
      merchants: [M, B, S, X, N].map((u) => e.otcMerchant(u)),
      ads: e.otcAds(),
      ad3: e.otcAd(a3),
      orders: e.otcOpenOrders(),
      order: e.otcOrder('4'),
      cancels: [B, X, M].map((u) => e.otcCancelsOn(u, t.now())),
    });
    expect(views(copy)).toStrictEqual(views(t.e));
    expect(views(copy).cancels).toEqual([1, 1, 0]);
    const now = t.now();
    const next: Record<string, unknown>[] = [
      { type: 'otcPublishAd', userId: M, side: 'SELL', quantity: U, terms: terms(), clientId: 'n1' },
      { type: 'otcTakeAd', userId: B, adId: a1, fiatAmount: 72_000n, clientId: 'n2' },
      { type: 'otcTakeAd', userId: X, adId: a2, fiatAmount: 72_720n, indexPrice: 720n, clientId: 'n3' },
      cancel(B, '3'),
      { type: 'otcTakeAd', userId: B, adId: a1, fiatAmount: 72_000n, clientId: 'n2' }, // the duplicate
      unappeal(X, '5'),
      appeal(M, '5'),
      resolve('5', 'RELEASE'),
      release(N, '4'),
      { type: 'otcUpdateAd', userId: M, adId: a3, remainingQty: 7n * U, terms: terms(), meta: { x: 'y' } },
    ];
    for (const c of next) {
      const cmd = { ts: now, ...c } as unknown as Command;
      const r1 = t.e.execute(cmd);
      expect(r1.code, show(c)).toBe('ok');
      expect(copy.execute(cmd), show(c)).toStrictEqual(r1);
    }
    expect(t.e.otcAd('5')?.adId).toBe('5');
    expect(t.e.otcOpenOrders().map((o) => o.orderId)).toEqual(['7', '8']);
    expect(copy.otcCancelsOn(B, now)).toBe(2);
    expect(copy.stateHash()).toBe(t.e.stateHash());
    zeroSums({ ...t, e: copy });
  });

  it('restore refuses a malformed OTC part', () => {
    const { t } = busy();
    const good = JSON.parse(JSON.stringify(t.e.snapshot())) as Record<string, Record<string, unknown>>;
    for (const field of ['merchants', 'ads', 'orders', 'cancels']) {
      for (const v of ['x', null, {}]) {
        const bad = { ...good, otc: { ...good.otc, [field]: v } };
        expect(() => Engine.restore(bad as never), `${field} ${show(v)}`).toThrow('restore: malformed otc state');
      }
    }
    for (const otcPart of [null, 'x']) expect(() => Engine.restore({ ...good, otc: otcPart } as never)).toThrow('restore: malformed otc state');
    // a part without a config restores a disabled OTC
    const off = Engine.restore({ ...good, otc: { ...good.otc, config: null, merchants: [], ads: [], orders: [], cancels: [] } } as never);
    expect(off.otcConfig()).toBeUndefined();
    expect(off.execute({ ts: T0, type: 'otcApplyMerchant', userId: B } as Command).code).toBe('otc_disabled');
    expect(Engine.restore(good as never).stateHash()).toBe(t.e.stateHash());
  });

  // Found by this file: restoring from a snapshot object (without a JSON round trip) kept the rows' `meta` maps as the
  // restored orders' own, and orderChanged merges a command's meta into the order's map in place, so two engines
  // restored from one snapshot object shared each open order's meta. restore now copies it.
  it('engines restored from one snapshot object share nothing (an order meta merged on one stays there)', () => {
    const { t } = busy();
    const snap = t.e.snapshot();
    const one = Engine.restore(snap);
    const two = Engine.restore(snap);
    const before = two.stateHash();
    expect(one.execute({ ts: t.now(), type: 'otcMarkPaid', userId: B, orderId: '3', meta: { proof: 'y' } } as Command).code).toBe('ok');
    expect(two.otcOrder('3')?.meta).toEqual({ m: '1' });
    expect(two.stateHash()).toBe(before);
  });
});
