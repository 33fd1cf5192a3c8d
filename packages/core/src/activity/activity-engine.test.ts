/**
 * Activity engine tests: definition rules, join rules (not before the start, not from the end, once),
 * volume counted from spot and perpetual fills (scope, self-trades, before joining, outside the period), the ranking
 * and its tie-break, exact payouts from '@marketing' paid once (a second settle, a settle after a snapshot restore),
 * the deposit bonus within its budget; and a property test of the ranking and payouts against an independent model
 * that recomputes every volume from the trade events.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../engine';
import type { Command, CommandResult, EngineEvent, MarketConfig } from '../types';
import type { PerpMarketConfig } from '../perp/types';
import { ACTIVITY_PAYER, type ActivityTerms } from './types';

const U = 100_000_000n; // 1 USDT (scale 8)
const T0 = 1_700_006_400_000;
const HOUR = 3_600_000;

const SPOT: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 6,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 0n,
  makerFeePpm: 1000,
  takerFeePpm: 2000,
  status: 'TRADING',
};
const PERP: PerpMarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  tickSize: 10n,
  stepSize: 1n,
  minQty: 1n,
  makerFeePpm: 200,
  takerFeePpm: 500,
  lotNotional: 1000n * U,
  brackets: [{ notionalCap: 1_000_000n * U, maxLeverage: 100, maintMarginPpm: 5_000 }],
  priceBandPpm: 500_000,
  fundingIntervalMs: 28_800_000,
  interestRateE8: 10_000,
  fundingCapE8: 300_000,
  impactNotional: 1000n * U,
  markBasisSamples: 300,
  status: 'TRADING',
};

class World {
  e = new Engine();
  ts = T0;
  run(c: Record<string, unknown>): CommandResult {
    const r = this.e.execute({ ts: this.ts, ...c } as unknown as Command);
    for (const [a, t] of this.e.assetTotals()) expect(t, `total ${a}`).toBe(0n);
    return r;
  }
  ok(c: Record<string, unknown>): CommandResult {
    const r = this.run(c);
    expect(r.code, String(c.type)).toBe('ok');
    return r;
  }
  /** a spot fill of `qty` BTC units at `price` (price units) between maker and taker */
  spot(maker: string, taker: string, price: bigint, qty: bigint): EngineEvent[] {
    this.ok({ type: 'placeOrder', userId: maker, symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: qty });
    return this.ok({ type: 'placeOrder', userId: taker, symbol: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price, quantity: qty }).events;
  }
  assets(u: string): bigint {
    return this.e.balance(u, 'ASSETS', 'USDT').available;
  }
}

/** Five users ("1".."5") with spot and contract funds, BTC/USDT spot and perpetual markets. */
function world(): World {
  const w = new World();
  w.ok({ type: 'addAsset', asset: { code: 'BTC', scale: 8 } });
  w.ok({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  w.ok({ type: 'addMarket', market: SPOT });
  w.ok({ type: 'addPerpMarket', market: PERP });
  w.ok({ type: 'perpMarkPrice', symbol: 'BTC/USDT', indexPrice: 5_000_000n });
  for (const a of ['u1', 'u2', 'u3', 'u4', 'u5']) w.ok({ type: 'registerUser', account: a, uniqueKeys: [], profile: {} });
  for (const u of ['1', '2', '3', '4', '5']) {
    w.ok({ type: 'deposit', userId: u, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * U, from: '@faucet' });
    w.ok({ type: 'deposit', userId: u, asset: 'BTC', account: 'SPOT', amount: 100n * U, from: '@faucet' });
    w.ok({ type: 'deposit', userId: u, asset: 'USDT', account: 'CONTRACT', amount: 100_000n * U, from: '@faucet' });
  }
  return w;
}

const trading = (over: Partial<ActivityTerms> = {}): ActivityTerms => ({
  kind: 'TRADING',
  startTs: T0 + HOUR,
  endTs: T0 + 2 * HOUR,
  asset: 'USDT',
  scope: 'ALL',
  prizes: [300n * U, 200n * U, 100n * U],
  budget: 600n * U,
  minDeposit: 0n,
  bonus: 0n,
  ...over,
});
const create = (terms: ActivityTerms) => ({
  type: 'activityCreate',
  terms,
  content: { titleEn: 'Cup', titleZh: '杯' },
  operatorId: '1',
  audit: { action: 'activity_create' },
});

describe('activity definitions', () => {
  it('accepts a valid competition and assigns ids 1, 2 ...; carries the audit record', () => {
    const w = world();
    const r = w.ok(create(trading()));
    const ev = r.events.find((e) => e.type === 'activityChanged');
    expect(ev).toMatchObject({ activity: { activityId: '1', state: 'OPEN', participants: 0, paid: 0n }, audit: { action: 'activity_create' } });
    expect(w.ok(create(trading())).events.find((e) => e.type === 'activityChanged')).toMatchObject({ activity: { activityId: '2' } });
    expect(w.e.activities().map((a) => a.activityId)).toEqual(['2', '1']);
  });

  it.each([
    ['end before start', trading({ endTs: T0 + HOUR })],
    ['already over', trading({ startTs: T0 - 2 * HOUR, endTs: T0 })],
    ['prizes above budget', trading({ budget: 599n * U })],
    ['increasing prizes', trading({ prizes: [100n * U, 200n * U] })],
    ['no prizes', trading({ prizes: [] })],
    ['zero prize', trading({ prizes: [1n, 0n] })],
    ['unknown asset', trading({ asset: 'XYZ' })],
    ['bad scope', trading({ scope: 'FX' as never })],
    ['deposit terms on a competition', trading({ minDeposit: 1n })],
    ['deposit without a threshold', trading({ kind: 'DEPOSIT', prizes: [], bonus: 5n * U })],
    ['bonus above budget', trading({ kind: 'DEPOSIT', prizes: [], minDeposit: U, bonus: 601n * U })],
    ['float times', trading({ startTs: T0 + 0.5 })],
  ])('refuses %s (activity_invalid), changing nothing', (_name, terms) => {
    const w = world();
    const before = w.e.stateHash();
    expect(w.run(create(terms)).code).toBe('activity_invalid');
    expect(w.e.stateHash()).toBe(before);
  });
});

describe('joining', () => {
  it('not before the start, not from the end, once; unknown activity or user refused', () => {
    const w = world();
    w.ok(create(trading()));
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '1' }).code).toBe('activity_not_started');
    w.ts = T0 + HOUR - 1;
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '1' }).code).toBe('activity_not_started');
    w.ts = T0 + HOUR;
    expect(w.ok({ type: 'activityJoin', activityId: '1', userId: '1' }).events).toEqual([
      { type: 'activityJoined', ts: T0 + HOUR, activityId: '1', userId: '1' },
    ]);
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '1' }).code).toBe('activity_already_joined');
    expect(w.run({ type: 'activityJoin', activityId: '9', userId: '2' }).code).toBe('activity_not_found');
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '99' }).code).toBe('user_not_found');
    w.ts = T0 + 2 * HOUR - 1;
    w.ok({ type: 'activityJoin', activityId: '1', userId: '2' });
    w.ts = T0 + 2 * HOUR;
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '3' }).code).toBe('activity_ended');
    expect(w.e.activity('1')?.participants).toBe(2);
  });

  it('an operator ends an activity early: joining stops at that moment; ending twice is refused', () => {
    const w = world();
    w.ok(create(trading()));
    w.ts = T0 + HOUR + 10;
    w.ok({ type: 'activityEnd', activityId: '1', operatorId: '1' });
    // The period is [start, the command's millisecond + 1): nothing after the command counts or joins.
    expect(w.e.activity('1')?.endTs).toBe(T0 + HOUR + 11);
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '1' }).code).toBe('activity_ended');
    expect(w.run({ type: 'activityEnd', activityId: '1', operatorId: '1' }).code).toBe('activity_ended');
    w.ts = T0 + HOUR + 11;
    expect(w.run({ type: 'activityJoin', activityId: '1', userId: '1' }).code).toBe('activity_ended');
    expect(w.run({ type: 'activityEnd', activityId: '1', operatorId: '1' }).code).toBe('activity_ended');
  });
});

describe('volume, ranking and payout', () => {
  it('counts spot and perpetual fills of joined users within the period; self-trades and other scopes do not count', () => {
    const w = world();
    w.ok(create(trading()));
    w.ok(create(trading({ scope: 'SPOT' })));
    w.ts = T0 + HOUR - 1;
    w.spot('1', '2', 5_000_000n, 1_000n); // before the start: not counted (and nobody joined)
    w.ts = T0 + HOUR;
    for (const id of ['1', '2']) for (const u of ['1', '2', '3']) w.ok({ type: 'activityJoin', activityId: id, userId: u });
    // 0.001 BTC at 50,000 = 50 USDT each side
    w.spot('1', '2', 5_000_000n, 1_000n);
    expect(w.e.activityEntry('1', '1')?.progress).toBe(50n * U);
    expect(w.e.activityEntry('1', '2')?.progress).toBe(50n * U);
    // user 4 did not join: its side counts for nobody; user 3's side counts
    w.spot('4', '3', 5_000_000n, 2_000n);
    expect(w.e.activityEntry('1', '3')?.progress).toBe(100n * U);
    // a self-trade with STP off counts for nothing
    w.ok({ type: 'placeOrder', userId: '1', symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 5_000_000n, quantity: 1_000n });
    w.ok({
      type: 'placeOrder',
      userId: '1',
      symbol: 'BTC/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: 5_000_000n,
      quantity: 1_000n,
      stp: 'NONE',
    });
    expect(w.e.activityEntry('1', '1')?.progress).toBe(50n * U);
    // a perpetual fill: 2 lots (0.002 BTC at 50,000 = 100 USDT) counts for activity 1 (ALL), not 2 (SPOT)
    w.ok({ type: 'perpPlaceOrder', userId: '2', symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 5_000_000n, quantity: 2n });
    const r = w.ok({ type: 'perpPlaceOrder', userId: '3', symbol: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: 2n });
    const q = (r.events.find((e) => e.type === 'perpTrade') as { quoteAmount: bigint }).quoteAmount;
    expect(q).toBe(100n * U);
    expect(w.e.activityEntry('1', '2')?.progress).toBe(150n * U);
    expect(w.e.activityEntry('1', '3')?.progress).toBe(200n * U);
    expect(w.e.activityEntry('2', '3')?.progress).toBe(100n * U);
    // after the end nothing counts
    w.ts = T0 + 2 * HOUR;
    w.spot('1', '2', 5_000_000n, 10_000n);
    expect(w.e.activityEntry('1', '1')?.progress).toBe(50n * U);
    expect(w.e.activityRanking('1', 10).map((e) => [e.userId, e.progress])).toEqual([
      ['3', 200n * U],
      ['2', 150n * U],
      ['1', 50n * U],
    ]);
  });

  it('equal volumes rank by who reached the volume first, then who joined first; users with no volume are not ranked', () => {
    const w = world();
    w.ok(create(trading({ prizes: [300n * U, 200n * U, 100n * U, 50n * U], budget: 650n * U })));
    w.ts = T0 + HOUR;
    for (const u of ['5', '1', '2', '3', '4']) w.ok({ type: 'activityJoin', activityId: '1', userId: u });
    w.spot('3', '4', 5_000_000n, 1_000n); // 3 and 4: 50 each, in that event order: maker first
    w.spot('1', '2', 5_000_000n, 1_000n); // 1 and 2: 50 each, later
    const ranked = w.e.activityRanking('1', 10).map((e) => e.userId);
    expect(ranked).toEqual(['3', '4', '1', '2']);
    expect(w.e.activityRank('1', '4')).toBe(2);
    expect(w.e.activityRank('1', '5')).toBe(0); // joined, no volume
    // 1 trades more, then 2 catches up with exactly the same volume: 1 reached it first
    w.spot('1', '5', 5_000_000n, 1_000n);
    w.spot('2', '5', 5_000_000n, 1_000n);
    expect(w.e.activityRanking('1', 10).map((e) => e.userId)).toEqual(['1', '2', '5', '3', '4']);
    expect(w.e.activityRanking('1', 2).map((e) => e.userId)).toEqual(['1', '2']);
  });

  it('pays the prize table exactly once from @marketing: a second settle and a settle after restore pay nothing', () => {
    const w = world();
    w.ok(create(trading()));
    w.ts = T0 + HOUR;
    for (const u of ['1', '2', '3', '4']) w.ok({ type: 'activityJoin', activityId: '1', userId: u });
    w.spot('1', '2', 5_000_000n, 3_000n); // 150 each
    w.spot('3', '4', 5_000_000n, 1_000n); // 50 each
    w.spot('1', '3', 5_000_000n, 1_000n); // 1: 200, 3: 100
    expect(w.run({ type: 'activitySettle', activityId: '1' }).code).toBe('activity_not_ended');
    w.ts = T0 + 2 * HOUR;
    const before = ['1', '2', '3', '4'].map((u) => w.assets(u));
    const r = w.ok({ type: 'activitySettle', activityId: '1' });
    const a = w.e.activity('1')!;
    expect(a.state).toBe('SETTLED');
    expect(a.payouts).toEqual([
      { userId: '1', rank: 1, amount: 300n * U },
      { userId: '2', rank: 2, amount: 200n * U },
      { userId: '3', rank: 3, amount: 100n * U },
    ]);
    expect(a.paid).toBe(600n * U);
    expect(['1', '2', '3', '4'].map((u, i) => w.assets(u) - before[i]!)).toEqual([300n * U, 200n * U, 100n * U, 0n]);
    expect(w.e.balance(ACTIVITY_PAYER, 'SYSTEM', 'USDT').available).toBe(-600n * U);
    expect(r.events.filter((e) => e.type === 'balanceChanged').length).toBe(4);
    // run twice: nothing more
    const hash = w.e.stateHash();
    const again = w.run({ type: 'activitySettle', activityId: '1' });
    expect(again).toEqual({ code: 'ok', events: [], duplicate: true });
    expect(w.e.stateHash()).toBe(hash);
    // a restart (snapshot restore) and the job running again: nothing more
    const restored = Engine.restore(JSON.parse(JSON.stringify(w.e.snapshot())));
    expect(restored.stateHash()).toBe(hash);
    expect(restored.execute({ type: 'activitySettle', activityId: '1', ts: w.ts + 1 } as Command)).toEqual({ code: 'ok', events: [], duplicate: true });
    expect(restored.balance('1', 'ASSETS', 'USDT').available).toBe(300n * U);
  });

  it('replaying the same commands gives the same payouts and state (a restart in the middle of the period)', () => {
    const log: Record<string, unknown>[] = [];
    const w = world();
    const rec = (c: Record<string, unknown>) => {
      log.push({ ts: w.ts, ...c });
      return w.ok(c);
    };
    rec(create(trading()));
    w.ts = T0 + HOUR;
    for (const u of ['1', '2', '3']) rec({ type: 'activityJoin', activityId: '1', userId: u });
    const snap = JSON.parse(JSON.stringify(w.e.snapshot()));
    const tail: Record<string, unknown>[] = [];
    const rec2 = (c: Record<string, unknown>) => {
      tail.push({ ts: w.ts, ...c });
      return w.ok(c);
    };
    rec2({ type: 'placeOrder', userId: '1', symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 5_000_000n, quantity: 4_000n });
    rec2({ type: 'placeOrder', userId: '2', symbol: 'BTC/USDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: 5_000_000n, quantity: 4_000n });
    w.ts = T0 + 3 * HOUR;
    rec2({ type: 'activitySettle', activityId: '1' });
    // the restarted engine: the snapshot taken mid-period plus the journal tail
    const r = Engine.restore(snap);
    for (const c of tail) expect(r.execute(c as unknown as Command).code).toBe('ok');
    expect(r.stateHash()).toBe(w.e.stateHash());
    expect(r.activity('1')?.payouts).toEqual([
      { userId: '1', rank: 1, amount: 300n * U },
      { userId: '2', rank: 2, amount: 200n * U },
    ]);
  });

  it('a deposit bonus: joined users whose chain deposits in the period reach the threshold get the bonus once, in order, within the budget', () => {
    const w = world();
    w.ok(create(trading({ kind: 'DEPOSIT', prizes: [], minDeposit: 100n * U, bonus: 10n * U, budget: 25n * U })));
    const credit = (userId: string, amount: bigint, n: number, asset = 'USDT') =>
      w.ok({
        type: 'creditDeposit',
        userId,
        asset,
        amount,
        chain: 'ETH',
        txHash: `0x${n.toString(16).padStart(64, '0')}`,
        logIndex: 0,
        address: `0x${'a'.repeat(40)}`,
        blockNumber: n,
      });
    w.ts = T0 + HOUR;
    for (const u of ['1', '2', '3', '4']) w.ok({ type: 'activityJoin', activityId: '1', userId: u });
    credit('1', 60n * U, 1);
    credit('2', 100n * U, 2); // 2 qualifies first
    credit('1', 40n * U, 3); // 1 qualifies second (60 + 40)
    credit('3', 500n * U, 4); // 3 qualifies third: beyond the budget (25 = 2 bonuses)
    credit('4', 99n * U, 5); // 4 never qualifies
    credit('4', 1n * U, 6, 'BTC'); // another coin does not count
    credit('5', 1000n * U, 7); // not joined
    expect(w.e.activityRanking('1', 10).map((e) => e.userId)).toEqual(['2', '1', '3']);
    w.ts = T0 + 2 * HOUR;
    const before = ['1', '2', '3', '4'].map((u) => w.assets(u));
    w.ok({ type: 'activitySettle', activityId: '1' });
    expect(['1', '2', '3', '4'].map((u, i) => w.assets(u) - before[i]!)).toEqual([10n * U, 10n * U, 0n, 0n]);
    expect(w.e.activity('1')?.paid).toBe(20n * U);
    expect(w.run({ type: 'activitySettle', activityId: '1' }).duplicate).toBe(true);
  });

  it('property: ranking and payouts equal an independent model recomputing volumes from the trade events', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 5 }), { maxLength: 5 }),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 })), {
          maxLength: 25,
        }),
        (joiners, trades) => {
          const w = world();
          w.ok(create(trading()));
          w.ts = T0 + HOUR;
          const joined: string[] = [];
          for (const j of joiners) {
            const u = `${j}`;
            const code = w.run({ type: 'activityJoin', activityId: '1', userId: u }).code;
            expect(code).toBe(joined.includes(u) ? 'activity_already_joined' : 'ok');
            if (!joined.includes(u)) joined.push(u);
          }
          // the model: per joined user, the sum of the quote amounts of the fills it took part in (no self-trades),
          // with the order of its last increase
          const vol = new Map<string, { v: bigint; last: number }>();
          let n = 0;
          for (const [m, t, lots, pxStep] of trades) {
            const events = w.spot(`${m}`, `${t}`, 5_000_000n + BigInt(pxStep) * 100n, BigInt(lots) * 1_000n);
            for (const ev of events) {
              if (ev.type !== 'trade' || ev.makerUserId === ev.takerUserId) continue;
              for (const u of [ev.makerUserId, ev.takerUserId]) {
                if (!joined.includes(u)) continue;
                const cur = vol.get(u) ?? { v: 0n, last: 0 };
                vol.set(u, { v: cur.v + ev.quoteAmount, last: ++n });
              }
            }
          }
          const expected = [...vol.entries()]
            .filter(([, x]) => x.v > 0n)
            .sort((a, b) => (a[1].v !== b[1].v ? (a[1].v > b[1].v ? -1 : 1) : a[1].last - b[1].last))
            .map(([u, x]) => [u, x.v]);
          expect(w.e.activityRanking('1', 100).map((e) => [e.userId, e.progress])).toEqual(expected);
          w.ts = T0 + 2 * HOUR;
          w.ok({ type: 'activitySettle', activityId: '1' });
          const prizes = [300n * U, 200n * U, 100n * U];
          expect(w.e.activity('1')?.payouts).toEqual(expected.slice(0, 3).map(([u], i) => ({ userId: u, rank: i + 1, amount: prizes[i] })));
        },
      ),
      { numRuns: 40 },
    );
  });
});
