/**
 * The model itself on hand-computed cases (so that a difference with the engine is not the model's own slip): fills at
 * the maker price in price-time priority, cost-based realized PnL with the cost released rounded down, fees, the
 * '@clearing' identity, reduce-only caps and expiry, funding amounts and the risk check.
 */
import { describe, expect, it } from 'vitest';
import { USDT, perpMarket } from './perp-fixture';
import { PerpModel, type MOrder } from './perp-model';

function rest(m: PerpModel, id: string, user: string, side: 'BUY' | 'SELL', price: bigint, qty: bigint, reduceOnly = false): MOrder {
  const o: MOrder = {
    id,
    user,
    side,
    type: 'LIMIT',
    price,
    qty,
    filled: 0n,
    reduceOnly,
    leverage: 10,
    marginMode: 'CROSS',
    hold: 0n,
    tradeType: 'OPEN_LONG',
    takeProfit: null,
    stopLoss: null,
    status: 'NEW',
  };
  m.orders.push(o);
  return o;
}
function clearingIdentity(m: PerpModel): bigint {
  let s = m.system.clearing;
  for (const p of m.positions.values()) s += p.side === 'LONG' ? p.cost : -p.cost;
  return s;
}

describe('perp model', () => {
  it('fills at the maker price, best price first then time; fees maker 0.02% taker 0.05% rounded up', () => {
    const m = new PerpModel(perpMarket(), 8);
    rest(m, '1', 'a', 'SELL', 400_010n, 300n); // 40,001.0 x 0.3
    rest(m, '2', 'b', 'SELL', 400_000n, 200n); // 40,000.0 x 0.2
    rest(m, '3', 'c', 'SELL', 400_000n, 200n);
    const f = m.execute({ user: 't', side: 'BUY', price: 400_010n, qty: 500n, reduceOnly: false, leverage: 10 });
    expect(f.map((x) => [x.makerOrderId, x.price, x.qty])).toEqual([
      ['2', 400_000n, 200n],
      ['3', 400_000n, 200n],
      ['1', 400_010n, 100n],
    ]);
    // 0.2 BTC at 40,000 = 8,000 USDT: maker fee 1.6, taker fee 4
    expect([f[0]!.makerFee, f[0]!.takerFee]).toEqual([160_000_000n, 400_000_000n]);
    const t = m.positions.get('t')!;
    expect([t.side, t.size, t.cost]).toEqual(['LONG', 500n, (400_000n * 400n + 400_010n * 100n) * 10_000n]);
    expect(m.orders.map((o) => [o.id, o.filled])).toEqual([['1', 100n]]);
    expect(m.last).toBe(400_010n);
    expect(clearingIdentity(m)).toBe(0n);
  });

  it('closing releases cost * q / s rounded down; a long realizes close notional - released; flips open the rest', () => {
    const m = new PerpModel(perpMarket({ makerFeePpm: 0, takerFeePpm: 0 }), 8);
    m.addWallet('a', 1_000n * USDT);
    m.applyFill('a', 'BUY', 3n, 400_001n, 0, true); // cost 3 * 400,001 * 10^4
    m.applyFill('a', 'BUY', 0n + 1n, 400_000n, 0, true);
    const cost = (3n * 400_001n + 400_000n) * 10_000n; // 16,000,030,000
    expect(m.positions.get('a')!.cost).toBe(cost);
    const r = m.applyFill('a', 'SELL', 1n, 410_000n, 0, true);
    const released = cost / 4n; // 4,000,007,500 exactly
    expect(r.pnl).toBe(410_000n * 10_000n - released);
    expect(m.positions.get('a')!.cost).toBe(cost - released);
    // a cost that does not divide: 3 of size 3 with cost 12,000,030,000 -> close 1 releases floor(/3)
    const c2 = m.positions.get('a')!.cost;
    m.applyFill('a', 'SELL', 1n, 400_000n, 0, true);
    expect(m.positions.get('a')!.cost).toBe(c2 - c2 / 3n);
    // flip: sell 4 against 2 left: close 2 (all the cost), open a short of 2 at the price
    m.applyFill('a', 'SELL', 4n, 390_000n, 0, true);
    const p = m.positions.get('a')!;
    expect([p.side, p.size, p.cost]).toEqual(['SHORT', 2n, 2n * 390_000n * 10_000n]);
    expect(m.walletOf('a') - 1_000n * USDT).toBe(-m.system.clearing);
    expect(m.system.insurance).toBe(0n);
  });

  it('reduce-only: capped at the position, expires when the position is gone', () => {
    const m = new PerpModel(perpMarket(), 8);
    m.applyFill('a', 'BUY', 100n, 400_000n, 0, false);
    rest(m, '7', 'b', 'BUY', 399_000n, 1_000n);
    const f = m.previewFills({ user: 'a', side: 'SELL', price: null, qty: 500n, reduceOnly: true });
    expect(f.map((x) => x.qty)).toEqual([100n]);
    rest(m, '8', 'a', 'SELL', 401_000n, 50n, true);
    m.execute({ user: 'a', side: 'SELL', price: null, qty: 100n, reduceOnly: true, leverage: 10 });
    expect(m.positions.has('a')).toBe(false);
    expect(m.orders.map((o) => o.id)).toEqual(['7']);
  });

  it('funding: longs pay size * mark * rate rounded up, shorts receive it rounded down; the dust stays in @funding', () => {
    const m = new PerpModel(perpMarket(), 8);
    m.addWallet('l', 1n * USDT); // funding is paid by the payer (never by the fund)
    m.applyFill('l', 'BUY', 1n, 400_001n, 0, false);
    m.applyFill('s', 'SELL', 1n, 400_001n, 0, false);
    m.mark = 400_001n;
    m.premiums = [12_300n]; // one sample: F = P + clamp(I - P) = 0.0123% + (-0.0023%) = 0.01%
    const { rate, amounts } = m.settleFunding(1_641_024_000_000);
    expect(rate).toBe(10_000);
    // 0.001 BTC * 40,000.1 = 40.0001 USDT; * 0.01% = 0.00400001 USDT = 400,001 units exactly
    expect(amounts).toEqual(
      new Map([
        ['l', -400_001n],
        ['s', 400_001n],
      ]),
    );
    expect(m.system.funding).toBe(0n);
  });

  it('risk: an isolated 10x long of 1 BTC at 10,000 with 1,000 margin is at risk at 9,036.1, not at 9,036.2', () => {
    const m = new PerpModel(perpMarket({ brackets: [{ notionalCap: 50_000n * USDT, maxLeverage: 125, maintMarginPpm: 4_000 }] }), 8);
    m.applyFill('a', 'BUY', 1_000n, 100_000n, 0, false);
    m.positions.get('a')!.marginMode = 'ISOLATED';
    m.positions.get('a')!.margin = 1_000n * USDT;
    m.mark = 90_362n;
    expect(m.atRisk()).toEqual([]);
    m.mark = 90_361n;
    expect(m.atRisk()).toEqual(['a']);
  });

  it('margins: an isolated 10x long from its hold, a partial close at a loss from the released margin, funding from the margin, the takeover', () => {
    const m = new PerpModel(perpMarket(), 8);
    m.settings.set('a', { leverage: 10, marginMode: 'ISOLATED' });
    m.addWallet('a', 1_000n * USDT);
    m.addWallet('b', 10_000n * USDT);
    m.addWallet('c', 10_000n * USDT);
    // b's resting sell of 0.1 BTC at 40,000 (4,000 USDT) holds 200 margin (20x) + 2 taker fee
    rest(m, '1', 'b', 'SELL', 400_000n, 100n).hold = 202n * USDT;
    expect(m.availableOf('b')).toBe(9_798n * USDT);
    // a buys it with a hold of 400 margin (10x) + 2 fee: all of it used
    const taker = { user: 'a', side: 'BUY' as const, price: 400_000n, qty: 100n, reduceOnly: false, leverage: 10, hold: 402n * USDT };
    m.execute(taker);
    expect(taker.hold).toBe(0n);
    expect([m.positions.get('a')!.margin, m.walletOf('a'), m.availableOf('a')]).toEqual([400n * USDT, 998n * USDT, 598n * USDT]);
    // b: maker fee 0.8 from the hold, margin 200 from it, the rest (1.2) back: the order is filled
    expect([m.positions.get('b')!.margin, m.walletOf('b'), m.frozenOf('b')]).toEqual([200n * USDT, 9_999n * USDT + 20_000_000n, 200n * USDT]);
    // a sells 0.03 at 39,000 (1,170 USDT): releases 1,200 cost and 120 margin; the 30 loss from the released margin
    rest(m, '2', 'c', 'BUY', 390_000n, 30n).hold = 59n * USDT;
    const [f] = m.execute({ user: 'a', side: 'SELL', price: null, qty: 30n, reduceOnly: true, leverage: 10 });
    expect([f!.takerPnl, f!.takerFee]).toEqual([-30n * USDT, 58_500_000n]); // 0.05% of 1,170 = 0.585
    const a = m.positions.get('a')!;
    // the fee beyond the order's (empty) hold comes out of the available balance before the margin of what stays open
    expect([a.size, a.cost, a.margin, m.walletOf('a')]).toEqual([70n, 2_800n * USDT, 280n * USDT, 968n * USDT - 58_500_000n]);
    // funding at 0.01%: the long of 0.07 at 39,000 (2,730 USDT) pays 0.273 out of its isolated margin
    m.mark = 390_000n;
    m.premiums = [12_300n];
    expect(m.settleFunding(1_641_024_000_000).amounts.get('a')).toBe(-27_300_000n);
    expect([a.margin, m.walletOf('a')]).toEqual([280n * USDT - 27_300_000n, 968n * USDT - 58_500_000n - 27_300_000n]);
    // the takeover: the user realizes -margin, keeps its available balance; the fund takes the cost less the margin
    const avail = m.availableOf('a');
    const t = m.takeover('a');
    const lost = 280n * USDT - 27_300_000n;
    expect([t.pnl, t.fundCost, m.walletOf('a')]).toEqual([-lost, 2_800n * USDT - lost, avail]);
    expect(m.positions.get('@insurance')).toMatchObject({ side: 'LONG', size: 70n, margin: 0n });
  });

  it('margins: an isolated loss beyond the margin and the available balance (and the fee) is paid by the insurance fund', () => {
    const m = new PerpModel(perpMarket({ makerFeePpm: 0 }), 8);
    m.settings.set('a', { leverage: 10, marginMode: 'ISOLATED' });
    m.addWallet('a', 402n * USDT);
    m.addWallet('b', 10_000n * USDT);
    m.addWallet('c', 10_000n * USDT);
    rest(m, '1', 'b', 'SELL', 400_000n, 100n).hold = 202n * USDT;
    m.execute({ user: 'a', side: 'BUY', price: null, qty: 100n, reduceOnly: false, leverage: 10, hold: 402n * USDT });
    expect([m.walletOf('a'), m.availableOf('a')]).toEqual([400n * USDT, 0n]);
    // a closes at 35,000: -500, of which its 400 margin pays 400; the fund 100 and the 1.75 fee
    rest(m, '2', 'c', 'BUY', 350_000n, 100n).hold = 176n * USDT;
    const [f] = m.execute({ user: 'a', side: 'SELL', price: null, qty: 100n, reduceOnly: true, leverage: 10 });
    expect([f!.takerPnl, f!.takerFee]).toEqual([-500n * USDT, 175_000_000n]);
    expect([m.walletOf('a'), m.positions.has('a'), m.system.insurance]).toEqual([0n, false, -101n * USDT - 75_000_000n]);
    expect(m.system.clearing + [...m.positions.values()].reduce((s, p) => s + (p.side === 'LONG' ? p.cost : -p.cost), 0n)).toBe(0n);
  });
});
