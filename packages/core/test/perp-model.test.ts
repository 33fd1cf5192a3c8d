/**
 * The model itself on hand-computed cases (so that a difference with the engine is not the model's own slip): fills at
 * the maker price in price-time priority, cost-based realized PnL with the cost released rounded down, fees, the
 * '@clearing' identity, reduce-only caps and expiry, funding amounts and the risk check.
 */
import { describe, expect, it } from 'vitest';
import { USDT, perpMarket } from './perp-fixture';
import { PerpModel, type MOrder } from './perp-model';

function rest(m: PerpModel, id: string, user: string, side: 'BUY' | 'SELL', price: bigint, qty: bigint, reduceOnly = false): MOrder {
  const o: MOrder = { id, user, side, type: 'LIMIT', price, qty, filled: 0n, reduceOnly, leverage: 10, tradeType: 'OPEN_LONG', takeProfit: null, stopLoss: null, status: 'NEW' };
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
    m.applyFill('a', 'BUY', 3n, 400_001n, 0, 10, true); // cost 3 * 400,001 * 10^4
    m.applyFill('a', 'BUY', 0n + 1n, 400_000n, 0, 10, true);
    const cost = (3n * 400_001n + 400_000n) * 10_000n; // 16,000,030,000
    expect(m.positions.get('a')!.cost).toBe(cost);
    const r = m.applyFill('a', 'SELL', 1n, 410_000n, 0, 10, true);
    const released = cost / 4n; // 4,000,007,500 exactly
    expect(r.pnl).toBe(410_000n * 10_000n - released);
    expect(m.positions.get('a')!.cost).toBe(cost - released);
    // a cost that does not divide: 3 of size 3 with cost 12,000,030,000 -> close 1 releases floor(/3)
    const c2 = m.positions.get('a')!.cost;
    m.applyFill('a', 'SELL', 1n, 400_000n, 0, 10, true);
    expect(m.positions.get('a')!.cost).toBe(c2 - c2 / 3n);
    // flip: sell 4 against 2 left: close 2 (all the cost), open a short of 2 at the price
    m.applyFill('a', 'SELL', 4n, 390_000n, 0, 10, true);
    const p = m.positions.get('a')!;
    expect([p.side, p.size, p.cost]).toEqual(['SHORT', 2n, 2n * 390_000n * 10_000n]);
    expect(m.walletOf('a')).toBe(-m.system.clearing);
  });

  it('reduce-only: capped at the position, expires when the position is gone', () => {
    const m = new PerpModel(perpMarket(), 8);
    m.applyFill('a', 'BUY', 100n, 400_000n, 0, 10, false);
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
    m.applyFill('l', 'BUY', 1n, 400_001n, 0, 10, false);
    m.applyFill('s', 'SELL', 1n, 400_001n, 0, 10, false);
    m.mark = 400_001n;
    m.premiums = [12_300n]; // one sample: F = P + clamp(I - P) = 0.0123% + (-0.0023%) = 0.01%
    const { rate, amounts } = m.settleFunding(1_641_024_000_000);
    expect(rate).toBe(10_000);
    // 0.001 BTC * 40,000.1 = 40.0001 USDT; * 0.01% = 0.00400001 USDT = 400,001 units exactly
    expect(amounts).toEqual(new Map([['l', -400_001n], ['s', 400_001n]]));
    expect(m.system.funding).toBe(0n);
  });

  it('risk: an isolated 10x long of 1 BTC at 10,000 with 1,000 margin is at risk at 9,036.1, not at 9,036.2', () => {
    const m = new PerpModel(perpMarket({ brackets: [{ notionalCap: 50_000n * USDT, maxLeverage: 125, maintMarginPpm: 4_000 }] }), 8);
    m.applyFill('a', 'BUY', 1_000n, 100_000n, 0, 10, false);
    m.positions.get('a')!.marginMode = 'ISOLATED';
    m.mark = 90_362n;
    expect(m.atRisk(() => 1_000n * USDT)).toEqual([]);
    m.mark = 90_361n;
    expect(m.atRisk(() => 1_000n * USDT)).toEqual(['a']);
  });
});
