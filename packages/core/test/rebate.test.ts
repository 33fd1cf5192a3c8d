/**
 * The daily rebate settlement over a day of contract trades (spec section 9; rules in src/rebate/types.ts).
 * Proves, on the real engine: the invitees' USDT contract fees of one Asia/Shanghai day (maker and taker, both
 * invitees of one fill counted) earn the inviter floor(fee x 30%) per invitee, exact to the unit (literal figures);
 * spot fees, the uninvited and the next day's fees earn nothing now; an inviter below the 5,000 USDT threshold is not
 * paid; the payout leaves the fee account; settling the same day again pays nothing (duplicate, same state hash); a
 * day not over is refused; and a restart anywhere (snapshot + replay of the rest, the settlement repeated by the job
 * after the restart) ends in the same state and pays once.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { EngineSnapshot } from '../src/engine-api';
import { rebateDay, rebateDayStart } from '../src/rebate/types';
import type { Command, CommandResult, EngineEvent, MarketConfig } from '../src/types';
import { perpMarket, T0, USDT } from './perp-fixture';

const DAY = rebateDay(T0); // 2022-01-01 in Asia/Shanghai (T0 is 08:00 there)
const NEXT = rebateDayStart(DAY + 1); // 2022-01-02 00:00 Asia/Shanghai

const spot: MarketConfig = {
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

/** Users: 1 inviter (rich), 2 and 3 invited by 1, 4 uninvited, 5 inviter below the threshold, 6 invited by 5. */
function setup(): Command[] {
  const c: Command[] = [];
  let ts = T0;
  c.push({ type: 'addAsset', ts, asset: { code: 'USDT', scale: 8 } });
  c.push({ type: 'addAsset', ts, asset: { code: 'BTC', scale: 8 } });
  c.push({ type: 'addPerpMarket', ts, market: perpMarket() });
  c.push({ type: 'addMarket', ts, market: spot });
  const invitedBy: Record<string, string> = { '1': '', '2': '1', '3': '1', '4': '', '5': '', '6': '5' };
  for (const id of ['1', '2', '3', '4', '5', '6'])
    c.push({ type: 'registerUser', ts, account: `mail:u${id}@x.y`, uniqueKeys: [], profile: { invitedBy: invitedBy[id]! } });
  for (const id of ['1', '2', '3', '4', '6']) {
    c.push({ type: 'deposit', ts, userId: id, asset: 'USDT', account: 'SPOT', amount: 20_000n * USDT, from: '@faucet' });
    c.push({ type: 'transfer', ts, userId: id, asset: 'USDT', from: 'SPOT', to: 'CONTRACT', amount: 10_000n * USDT });
  }
  c.push({ type: 'deposit', ts, userId: '5', asset: 'USDT', account: 'CONTRACT', amount: 4_999n * USDT, from: '@faucet' });
  c.push({ type: 'deposit', ts, userId: '4', asset: 'BTC', account: 'SPOT', amount: 10n * USDT, from: '@faucet' });
  c.push({ type: 'perpMarkPrice', ts, symbol: 'BTC/USDT', indexPrice: 500_000n });
  const perp = (userId: string, side: 'BUY' | 'SELL', price: bigint | null, quantity: bigint): Command =>
    ({
      type: 'perpPlaceOrder',
      ts: ++ts,
      userId,
      symbol: 'BTC/USDT',
      side,
      orderType: price === null ? 'MARKET' : 'LIMIT',
      timeInForce: price === null ? 'IOC' : 'GTC',
      ...(price === null ? {} : { price }),
      quantity,
    }) as Command;
  // 2 rests a bid of 0.007 BTC at 50,000.3; 4 (uninvited) sells into it: 2 pays the maker fee.
  c.push(perp('2', 'BUY', 500_003n, 7n), perp('4', 'SELL', null, 7n));
  // 3 rests an ask, 4 takes it: 3 pays the maker fee.
  c.push(perp('3', 'SELL', 500_100n, 13n), perp('4', 'BUY', null, 13n));
  // 3 rests a bid, 2 sells into it: both invitees pay (3 maker, 2 taker).
  c.push(perp('3', 'BUY', 499_900n, 5n), perp('2', 'SELL', null, 5n));
  // 6 (invited by 5, who holds less than 5,000 USDT) trades with 4.
  c.push(perp('6', 'BUY', 500_000n, 20n), perp('4', 'SELL', null, 20n));
  // A spot trade of 2 earns nothing (only contract fees count).
  c.push({
    type: 'placeOrder',
    ts: ++ts,
    userId: '4',
    symbol: 'BTC/USDT',
    side: 'SELL',
    orderType: 'LIMIT',
    timeInForce: 'GTC',
    price: 5_000_000n,
    quantity: 100_000n,
  });
  c.push({ type: 'placeOrder', ts: ++ts, userId: '2', symbol: 'BTC/USDT', side: 'BUY', orderType: 'MARKET', timeInForce: 'IOC', quantity: 100_000n });
  // Just before midnight, 2 sells at 1 ms to 00:00: still the day.
  ts = NEXT - 3;
  c.push(perp('4', 'BUY', 500_000n, 3n), perp('2', 'SELL', null, 3n));
  // After midnight: the next day's fee (not settled with DAY).
  ts = NEXT + 1000;
  c.push(perp('4', 'SELL', 500_000n, 4n), perp('2', 'BUY', null, 4n));
  return c;
}

function run(e: Engine, cmds: Command[]): CommandResult[] {
  return cmds.map((cmd) => {
    const r = e.execute(cmd);
    expect(r.code, `${cmd.type} at ${cmd.ts}`).toBe('ok');
    return r;
  });
}

/** Fees per invitee of the perpTrade events of DAY (independent of the engine's accrual). */
function feesOfDay(results: CommandResult[], day: number): Map<string, bigint> {
  const fees = new Map<string, bigint>();
  const add = (u: string, f: bigint) => fees.set(u, (fees.get(u) ?? 0n) + f);
  for (const r of results)
    for (const ev of r.events as EngineEvent[])
      if (ev.type === 'perpTrade' && rebateDay(ev.ts) === day) {
        add(ev.makerUserId, ev.makerFee);
        add(ev.takerUserId, ev.takerFee);
      }
  return fees;
}

const settle = (day: number, ts: number): Command => ({ type: 'settleRebates', ts, day });
const contractUsdt = (e: Engine, id: string) => e.balance(id, 'CONTRACT', 'USDT').available;
const fee = (e: Engine) => e.balance('@fee', 'SYSTEM', 'USDT').available;

describe('daily rebate settlement', () => {
  it("pays 30% of the invitees' contract fees of the day, rounded down, once", () => {
    const e = new Engine();
    const results = run(e, setup());
    const fees = feesOfDay(results, DAY);
    // The figures by hand: 0.007 BTC at 50,000.3 = 350.0021 USDT, maker fee 0.02% = 0.07000042 (ceil).
    expect(fees.get('2')! > 0n && fees.get('3')! > 0n).toBe(true);
    const f2 = 7_000_042n + /* taker 0.05% of 0.005 x 49,990 = 249.95 */ 12_497_500n + /* taker 0.05% of 0.003 x 50,000 */ 7_500_000n;
    expect(fees.get('2')).toBe(f2);
    const f3 = /* maker 0.02% of 0.013 x 50,010 = 650.13 */ 13_002_600n + /* maker 0.02% of 249.95 */ 4_999_000n;
    expect(fees.get('3')).toBe(f3);
    expect(e.rebateAccrued('2')).toEqual([
      { day: DAY, inviterId: '1', fee: f2, rebate: 8_099_262n },
      { day: DAY + 1, inviterId: '1', fee: 10_000_000n, rebate: 3_000_000n },
    ]);
    expect(e.rebateAccrued('4')).toEqual([]); // uninvited
    const before1 = contractUsdt(e, '1');
    const before5 = contractUsdt(e, '5');
    const feeBefore = fee(e);

    // Not before the day is over.
    expect(e.execute(settle(DAY, NEXT - 1)).code).toBe('rebate_day_open');
    expect(e.execute(settle(DAY + 1, NEXT + 5000)).code).toBe('rebate_day_open');

    const r = e.execute(settle(DAY, NEXT + 2000));
    expect(r.code).toBe('ok');
    // floor(26,997,542 x 0.3) = 8,099,262 (8,099,262.6 rounded down); floor(18,001,600 x 0.3) = 5,400,480.
    const paidTo1 = 8_099_262n + 5_400_480n;
    expect(contractUsdt(e, '1') - before1).toBe(paidTo1);
    expect(contractUsdt(e, '5')).toBe(before5); // below the threshold: not paid
    expect(feeBefore - fee(e)).toBe(paidTo1);
    const paid = r.events.filter((x) => x.type === 'rebatePaid');
    expect(paid.map((x) => [x.inviteeId, x.inviterId, x.fee, x.rebate, x.paid])).toEqual([
      ['2', '1', f2, 8_099_262n, 8_099_262n],
      ['3', '1', f3, 5_400_480n, 5_400_480n],
      ['6', '5', fees.get('6'), (fees.get('6')! * 3n) / 10n, 0n],
    ]);
    expect(r.events.find((x) => x.type === 'rebatesSettled')).toMatchObject({ fromDay: 0, day: DAY, payouts: 3, paid: paidTo1 });
    expect(e.rebateSettledThrough()).toBe(DAY);
    // The day's accruals are dropped; the next day's stay.
    expect(e.rebateAccrued('2')).toEqual([{ day: DAY + 1, inviterId: '1', fee: 10_000_000n, rebate: 3_000_000n }]);

    // Run twice: pays once.
    const hash = e.stateHash();
    const again = e.execute(settle(DAY, NEXT + 60_000));
    expect(again).toMatchObject({ code: 'ok', duplicate: true, events: [] });
    expect(e.stateHash()).toBe(hash);
    expect(contractUsdt(e, '1') - before1).toBe(paidTo1);
    for (const [asset, total] of e.assetTotals()) expect(total, asset).toBe(0n);
  });

  it('a restart anywhere (snapshot + replay, the job repeating the settlement) pays once, same state', () => {
    const cmds = [...setup(), settle(DAY, NEXT + 2000), settle(DAY, NEXT + 3000)];
    const ref = new Engine();
    for (const c of cmds) ref.execute(c);
    const want = ref.stateHash();
    const paid = contractUsdt(ref, '1');
    for (let k = 0; k <= cmds.length; k += 3) {
      const e = new Engine();
      for (const c of cmds.slice(0, k)) e.execute(c);
      const snap = JSON.parse(JSON.stringify(e.snapshot())) as EngineSnapshot;
      const back = Engine.restore(snap);
      expect(back.stateHash(), `restore at ${k}`).toBe(e.stateHash());
      for (const c of cmds.slice(k)) back.execute(c);
      // The job after the restart does not know whether its run landed: it settles again.
      back.execute(settle(DAY, NEXT + 4000));
      expect(contractUsdt(back, '1'), `restart at ${k}`).toBe(paid);
    }
    // The hash includes the rebate state: an engine that has not settled differs.
    const unsettled = new Engine();
    for (const c of cmds.slice(0, -2)) unsettled.execute(c);
    expect(unsettled.stateHash()).not.toBe(want);
  });

  it('refuses a malformed day and changes nothing', () => {
    const e = new Engine();
    run(e, setup());
    const h = e.stateHash();
    for (const day of [-1, 1.5, Number.NaN, 10_000_001, '5' as unknown as number]) expect(e.execute(settle(day, NEXT + 10)).code).toBe('invalid_config');
    expect(e.stateHash()).toBe(h);
  });
});
