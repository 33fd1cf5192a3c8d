/**
 * Adversary test of invitation rebates (docs/rebates.md, rebate/types.ts): an inviter, two invitees, an invitee of an
 * invitee and an uninvited friend, all one person's accounts, trade perpetuals and spot with each other to farm
 * rebates: invitee against invitee (both pay, both earn), invitee against the inviter, the uninvited friend in
 * between, fills a millisecond before, at and after 00:00 Asia/Shanghai; the inviter shuffles its USDT between its
 * four accounts and tops it up around the 5,000 USDT threshold; the daily settlement is sent for yesterday, for days
 * long settled, for today (still open) and again.
 *
 * The model is written from the published rules only: every USDT perpetual fee an invitee pays (maker or taker)
 * accrues to its Asia/Shanghai day; the settlement of days up to D (accepted once D is over) pays, per invitee and
 * day, floor(fee x 30 / 100) to the invitee's own inviter (one level only) if that inviter holds at least 5,000 USDT
 * over its four accounts at the settlement, else nothing; a day already settled pays nothing again; spot fees earn
 * nothing. The fees are the ones the fills charged (the trades' maker and taker fees); the value identity below ties
 * them to the money that actually moved.
 *
 * After EVERY step: every asset sums to zero, no balance is negative; the group's positions net to zero (it only trades
 * with itself), so its value is price-free: its USDT over all accounts plus its positions at any one price; that
 * value is at most start + deposits - fees paid + the rebates the rules entitle it to, and equals start + deposits -
 * fees + the rebates paid; each inviter was paid exactly its entitlement, only by its own invitees' fees; BTC only
 * falls by the spot fees; each settlement's code is the model's. A canary run paying every rebate twice is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';
import type { AccountKind, Command, CommandResult, MarketConfig, ResultCode, Side } from '../../src/types';
import { perpMarket, T0, USDT } from '../perp-fixture';
import { adversaryRuns, checkLedger, findLeak, groupHoldings, holdings, invariant, playAdversary, show, Tally } from './harness';

const BTC = 100_000_000n;
/** 1 inviter, 2 and 3 its invitees, 4 invited by 2, 5 uninvited: one person's five accounts. */
const GROUP = ['1', '2', '3', '4', '5'];
const INVITED_BY: Record<string, string> = { '1': '', '2': '1', '3': '1', '4': '2', '5': '' };
const THRESHOLD = 5_000n * USDT;
const MID = 500_000n; // 50,000.0 USDT, perp price units
const SPOT_MID = 5_000_000n; // 50,000.00 USDT, spot price units
const KINDS: AccountKind[] = ['ASSETS', 'SPOT', 'CONTRACT', 'OTC'];
const DAY_MS = 86_400_000;
/** The published rebate day: whole days since 1970-01-01 00:00 in Asia/Shanghai (UTC+8, no daylight saving). */
const rebateDay = (ts: number): number => Math.floor((ts + 8 * 3_600_000) / DAY_MS);
/** Unix ms of 00:00 Asia/Shanghai starting rebate day `day`. */
const rebateDayStart = (day: number): number => day * DAY_MS - 8 * 3_600_000;
const RUNS = adversaryRuns(100, 10_000);

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

type Op =
  /** maker rests a LIMIT at MID + off ticks, taker takes it with a MARKET order of qty (0.001 BTC units) */
  | { k: 'perp'; maker: number; taker: number; side: Side; off: number; qty: bigint }
  /** a user closes part of its position with a reduce-only MARKET order against another's resting LIMIT */
  | { k: 'close'; u: number; maker: number; part: number }
  | { k: 'spot'; maker: number; taker: number; side: Side; qty: bigint }
  | { k: 'move'; u: number; from: number; to: number; raw: bigint }
  /** a deposit into the inviter's contract account (from outside: it raises the start) */
  | { k: 'fund'; amount: bigint }
  /** settle through the day `back` days before today (0: today, still open; -1: tomorrow) */
  | { k: 'settle'; back: number }
  | { k: 'midnight'; d: -1 | 0 | 1 }
  | { k: 'wait'; ms: number };

const u = fc.nat(4);
const w = <T>(weight: number, arbitrary: fc.Arbitrary<T>) => ({ weight, arbitrary });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  w(
    12,
    fc.record({
      k: fc.constant('perp' as const),
      maker: u,
      taker: u,
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      off: fc.integer({ min: -40, max: 40 }),
      qty: fc.bigInt({ min: 1n, max: 300n }),
    }),
  ),
  w(4, fc.record({ k: fc.constant('close' as const), u, maker: u, part: fc.constantFrom(1, 2, 4) })),
  w(
    3,
    fc.record({ k: fc.constant('spot' as const), maker: u, taker: u, side: fc.constantFrom<Side>('BUY', 'SELL'), qty: fc.bigInt({ min: 1n, max: 200_000n }) }),
  ),
  w(
    3,
    fc.record({
      k: fc.constant('move' as const),
      u: fc.constantFrom(0, 0, 0, 1),
      from: fc.nat(3),
      to: fc.nat(3),
      raw: fc.bigInt({ min: 1n, max: 3_000n * USDT }),
    }),
  ),
  w(1, fc.record({ k: fc.constant('fund' as const), amount: fc.constantFrom(1n, 10n * USDT, 100n * USDT) })),
  w(5, fc.record({ k: fc.constant('settle' as const), back: fc.constantFrom(-1, 0, 1, 1, 1, 2, 5) })),
  w(4, fc.record({ k: fc.constant('midnight' as const), d: fc.constantFrom(-1 as const, 0 as const, 1 as const) })),
  w(2, fc.record({ k: fc.constant('wait' as const), ms: fc.constantFrom(1, 60_000, 3_600_000, 86_400_000, 3 * 86_400_000) })),
);
/** The inviter's starting contract balance: around the threshold. */
const gameArb = fc.tuple(fc.bigInt({ min: -30n * USDT, max: 30n * USDT }), fc.array(opArb, { minLength: 40, maxLength: 160 }));

/** The published rebate rules: accruals per invitee and day, settlements, what each inviter is owed. */
class RebateRules {
  /** `${invitee}|${day}` -> fees of that day not settled yet */
  readonly accrued = new Map<string, bigint>();
  /** inviter -> rebates the rules entitle it to so far */
  readonly entitled = new Map<string, bigint>();
  settledThrough = -1;

  /** A fee paid by `userId` at `ts` on a USDT perpetual fill. */
  fee(userId: string, ts: number, fee: bigint): void {
    const inviter = INVITED_BY[userId] ?? '';
    if (inviter === '' || fee <= 0n) return;
    const key = `${userId}|${rebateDay(ts)}`;
    this.accrued.set(key, (this.accrued.get(key) ?? 0n) + fee);
  }
  code(day: number, ts: number): ResultCode | 'duplicate' {
    if (day >= rebateDay(ts)) return 'rebate_day_open';
    if (day <= this.settledThrough) return 'duplicate';
    return 'ok';
  }
  /** Settles every accrued day up to `day`: each inviter qualifies by its holdings at the settlement. */
  settle(day: number, qualifies: (inviter: string) => boolean): void {
    for (const [key, fee] of [...this.accrued]) {
      const [invitee, d] = key.split('|') as [string, string];
      if (Number(d) > day) continue;
      const inviter = INVITED_BY[invitee] as string;
      if (qualifies(inviter)) this.entitled.set(inviter, (this.entitled.get(inviter) ?? 0n) + (fee * 30n) / 100n);
      this.accrued.delete(key);
    }
    this.settledThrough = day;
  }
  total(): bigint {
    let s = 0n;
    for (const v of this.entitled.values()) s += v;
    return s;
  }
}

/** A deliberate leak injected after a command (canary runs only). */
type Leak = (e: Engine, cmd: Command, r: CommandResult) => void;
const seen = new Tally();

function play([offset, ops]: [bigint, Op[]], leak?: Leak): void {
  const e = new Engine();
  let ts = T0;
  const must = (cmd: Command) => {
    const r = e.execute(cmd);
    if (r.code !== 'ok') throw new Error(`setup ${cmd.type}: ${r.code}`);
    return r;
  };
  must({ type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
  must({ type: 'addAsset', ts, asset: { code: 'BTC', scale: 8 } });
  must({ type: 'addPerpMarket', ts, market: perpMarket() });
  must({ type: 'addMarket', ts, market: SPOT });
  let deposits = 0n;
  const credit = (userId: string, asset: string, account: AccountKind, amount: bigint) => {
    must({ type: 'deposit', ts, userId, asset, account, amount, from: '@faucet' });
    if (asset === 'USDT') deposits += amount;
  };
  for (const id of GROUP) {
    expect(must({ type: 'registerUser', ts, account: `mail:r${id}@x.io`, uniqueKeys: [], profile: { invitedBy: INVITED_BY[id] as string } }).userId).toBe(id);
    credit(id, 'USDT', 'CONTRACT', id === '1' ? THRESHOLD + offset : 40_000n * USDT);
    if (id !== '1') credit(id, 'USDT', 'SPOT', 20_000n * USDT);
    must({ type: 'deposit', ts, userId: id, asset: 'BTC', account: 'SPOT', amount: BTC, from: '@faucet' });
  }
  must({ type: 'perpMarkPrice', ts, symbol: 'BTC/USDT', indexPrice: MID });
  const startBtc = BigInt(GROUP.length) * BTC;
  const rules = new RebateRules();
  let perpFees = 0n;
  let spotFees = { USDT: 0n, BTC: 0n } as Record<string, bigint>;
  const paid = new Map<string, bigint>();
  let where = () => 'setup';

  /** Executes a group command; records the fees its fills charged and the rebates it paid. */
  const run = (cmd: Command): CommandResult => {
    const r = e.execute(cmd);
    if (leak !== undefined) leak(e, cmd, r);
    for (const ev of r.events) {
      if (ev.type === 'perpTrade') {
        invariant(ev.kind === 'BOOK', () => `${where()}: a ${ev.kind} fill in a game without mark moves`);
        perpFees += ev.makerFee + ev.takerFee;
        rules.fee(ev.makerUserId, ev.ts, ev.makerFee);
        rules.fee(ev.takerUserId, ev.ts, ev.takerFee);
        seen.add(`perp fill:${INVITED_BY[ev.makerUserId] === '' ? 'u' : 'i'}${INVITED_BY[ev.takerUserId] === '' ? 'u' : 'i'}`);
      } else if (ev.type === 'trade') {
        spotFees = { ...spotFees, [ev.makerFeeAsset]: (spotFees[ev.makerFeeAsset] as bigint) + ev.makerFee };
        spotFees = { ...spotFees, [ev.takerFeeAsset]: (spotFees[ev.takerFeeAsset] as bigint) + ev.takerFee };
        seen.add('spot fill');
      } else if (ev.type === 'rebatePaid') {
        invariant(ev.inviterId === INVITED_BY[ev.inviteeId], () => `${where()}: rebate of ${ev.inviteeId}'s fees paid to ${ev.inviterId}`);
        paid.set(ev.inviterId, (paid.get(ev.inviterId) ?? 0n) + ev.paid);
        seen.add(ev.paid > 0n ? 'rebate paid' : 'rebate withheld');
      }
    }
    return r;
  };

  const check = () => {
    checkLedger(e, where);
    let longs = 0n;
    let shorts = 0n;
    let positionValue = 0n; // the positions valued at price 0: with net size zero, the same at every price
    for (const id of GROUP) {
      for (const p of e.positions(id)) {
        if (p.side === 'LONG') {
          longs += p.size;
          positionValue -= p.cost;
        } else {
          shorts += p.size;
          positionValue += p.cost;
        }
      }
    }
    invariant(longs === shorts, () => `${where()}: the group's positions do not net: long ${longs}, short ${shorts}`);
    const value = groupHoldings(e, GROUP, 'USDT') + positionValue;
    const base = deposits - perpFees - (spotFees.USDT as bigint);
    const bound = base + rules.total();
    invariant(
      value <= bound,
      () => `${where()}: the group is worth ${value} USDT units, above start + deposits - fees + entitled rebates ${bound} (by ${value - bound})`,
    );
    let paidTotal = 0n;
    for (const v of paid.values()) paidTotal += v;
    invariant(
      value === base + paidTotal,
      () => `${where()}: the group is worth ${value}, not start + deposits - fees + rebates paid ${base + paidTotal}: fees charged differ from the fills' fees`,
    );
    for (const inviter of ['1', '2']) {
      invariant(
        (paid.get(inviter) ?? 0n) === (rules.entitled.get(inviter) ?? 0n),
        () => `${where()}: inviter ${inviter} was paid ${paid.get(inviter) ?? 0n}, entitled to ${rules.entitled.get(inviter) ?? 0n}`,
      );
    }
    const btc = groupHoldings(e, GROUP, 'BTC');
    invariant(
      btc === startBtc - (spotFees.BTC as bigint),
      () => `${where()}: the group holds ${btc} BTC units, not start - spot fees ${startBtc - (spotFees.BTC as bigint)}`,
    );
  };

  const perp = (userId: string, side: Side, price: bigint | null, quantity: bigint, reduceOnly = false): Command =>
    ({
      type: 'perpPlaceOrder',
      ts,
      userId,
      symbol: 'BTC/USDT',
      side,
      orderType: price === null ? 'MARKET' : 'LIMIT',
      timeInForce: price === null ? 'IOC' : 'GTC',
      ...(price === null ? {} : { price }),
      quantity,
      ...(reduceOnly ? { reduceOnly: true } : {}),
    }) as Command;
  /** Cancels what a user left resting (a maker's order the taker did not fill). */
  const clear = (userId: string) => {
    for (const o of e.perpOpenOrders(userId)) run({ type: 'perpCancelOrder', ts, userId, orderId: o.orderId });
    for (const o of e.openOrders(userId)) run({ type: 'cancelOrder', ts, userId, orderId: o.orderId });
  };

  ops.forEach((op, i) => {
    seen.add('steps');
    where = () => `step ${i} ${show(op)} at ${new Date(ts + 8 * 3_600_000).toISOString().replace('Z', '+08:00')}`;
    switch (op.k) {
      case 'wait':
        ts += op.ms;
        break;
      case 'midnight': {
        const next = rebateDayStart(rebateDay(ts) + 1);
        ts = next + op.d > ts ? next + op.d : ts + 1;
        break;
      }
      case 'perp': {
        const maker = GROUP[op.maker] as string;
        const taker = GROUP[op.taker] as string;
        run(perp(maker, op.side, MID + BigInt(op.off), op.qty));
        run(perp(taker, op.side === 'BUY' ? 'SELL' : 'BUY', null, op.qty));
        clear(maker);
        break;
      }
      case 'close': {
        const userId = GROUP[op.u] as string;
        const maker = GROUP[op.maker] as string;
        const pos = e.positions(userId)[0];
        if (pos === undefined || maker === userId) break;
        const qty = pos.size / BigInt(op.part) > 0n ? pos.size / BigInt(op.part) : pos.size;
        const side: Side = pos.side === 'LONG' ? 'SELL' : 'BUY';
        run(perp(maker, side === 'SELL' ? 'BUY' : 'SELL', MID, qty));
        run(perp(userId, side, null, qty, true));
        clear(maker);
        break;
      }
      case 'spot': {
        const maker = GROUP[op.maker] as string;
        const taker = GROUP[op.taker] as string;
        run({
          type: 'placeOrder',
          ts,
          userId: maker,
          symbol: 'BTC/USDT',
          side: op.side,
          orderType: 'LIMIT',
          timeInForce: 'GTC',
          price: SPOT_MID,
          quantity: op.qty,
        });
        run({
          type: 'placeOrder',
          ts,
          userId: taker,
          symbol: 'BTC/USDT',
          side: op.side === 'BUY' ? 'SELL' : 'BUY',
          orderType: 'MARKET',
          timeInForce: 'IOC',
          quantity: op.qty,
        });
        clear(maker);
        break;
      }
      case 'move': {
        const userId = GROUP[op.u] as string;
        const from = KINDS[op.from] as AccountKind;
        const to = KINDS[op.to] as AccountKind;
        const have = e.balance(userId, from, 'USDT').available;
        const amount = op.raw < have ? op.raw : have;
        if (from !== to && amount > 0n) run({ type: 'transfer', ts, userId, asset: 'USDT', from, to, amount });
        break;
      }
      case 'fund':
        run({ type: 'deposit', ts, userId: '1', asset: 'USDT', account: 'CONTRACT', amount: op.amount, from: '@faucet' });
        deposits += op.amount;
        break;
      case 'settle': {
        const day = rebateDay(ts) - op.back;
        const expected = rules.code(day, ts);
        // The threshold is judged on each inviter's holdings before the settlement pays anything.
        const qualified = new Map(['1', '2'].map((id) => [id, holdings(e, id, 'USDT') >= THRESHOLD]));
        const r = run({ type: 'settleRebates', ts, day });
        const got = r.code === 'ok' && r.events.length === 0 ? 'duplicate' : r.code;
        seen.add(`settle:${got}`);
        invariant(got === expected, () => `${where()}: settleRebates(${day}) answered ${got}, the rules say ${expected}`);
        if (expected === 'ok') rules.settle(day, (id) => qualified.get(id) === true);
        break;
      }
    }
    check();
  });
}

describe('adversary: rebates are 30% of the fees invitees actually paid, to their own inviter, once', () => {
  it(`an inviter, invitees and a friend trading with each other around midnight and the threshold (${RUNS} plays)`, () => {
    seen.clear();
    playAdversary('rebate', gameArb, RUNS, (g) => play(g));
    seen.report('rebate');
    if (RUNS >= 50)
      for (const k of [
        'perp fill:ii',
        'perp fill:iu',
        'perp fill:ui',
        'spot fill',
        'rebate paid',
        'rebate withheld',
        'settle:ok',
        'settle:duplicate',
        'settle:rebate_day_open',
      ])
        expect(seen.get(k), k).toBeGreaterThan(0);
  }, 120_000);

  it('canary: an engine paying every rebate twice is caught', () => {
    const leak: Leak = (e, cmd, r) => {
      for (const ev of r.events)
        if (ev.type === 'rebatePaid' && ev.paid > 0n)
          e.execute({ type: 'deposit', ts: cmd.ts, userId: ev.inviterId, asset: 'USDT', account: 'CONTRACT', amount: ev.paid, from: '@faucet' });
    };
    expect(findLeak(gameArb, 200, 17, (g) => play(g, leak))).toMatch(/above start \+ deposits - fees \+ entitled rebates/);
  });
});
