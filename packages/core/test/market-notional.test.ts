/**
 * Proves the minimum order value of MARKET orders by quantity (a market sell worth 0.98 USDT
 * once passed the 5 USDT minimum): it is checked at what the order would fill in the book now (Binance's NOTIONAL
 * filter with applyMinToMarket), for SELL and BUY alike; an empty book answers no_liquidity, not the minimum.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../src/engine';
import type { Command, MarketConfig } from '../src/types';

const M: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 5,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 500_000_000n, // 5 USDT (USDT scale 8)
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};
let ts = 0;
const run = (e: Engine, c: Record<string, unknown>) => e.execute({ ts: ++ts, ...c } as Command);
const market = (side: 'BUY' | 'SELL', quantity: bigint) => ({
  type: 'placeOrder',
  userId: 'taker',
  symbol: M.symbol,
  side,
  orderType: 'MARKET',
  timeInForce: 'IOC',
  quantity,
});

function engine(): Engine {
  const e = new Engine();
  run(e, { type: 'addAsset', asset: { code: 'USDT', scale: 8 } });
  run(e, { type: 'addAsset', asset: { code: 'BTC', scale: 8 } });
  run(e, { type: 'addMarket', market: M });
  for (const u of ['maker', 'taker']) {
    run(e, { type: 'deposit', userId: u, asset: 'USDT', account: 'SPOT', amount: 1_000_000n * 100_000_000n, from: '@faucet' });
    run(e, { type: 'deposit', userId: u, asset: 'BTC', account: 'SPOT', amount: 10n * 100_000_000n, from: '@faucet' });
  }
  return e;
}

describe('minimum order value of MARKET orders', () => {
  it('an empty book answers no_liquidity', () => {
    expect(run(engine(), market('SELL', 1n)).code).toBe('no_liquidity');
  });

  it('refuses a market sell worth 0.98 USDT and takes one worth 6 USDT', () => {
    const e = engine();
    // A bid of 1 BTC at 98,000.00 USDT: 0.00001 BTC (1 unit) is worth 0.98 USDT.
    expect(
      run(e, {
        type: 'placeOrder',
        userId: 'maker',
        symbol: M.symbol,
        side: 'BUY',
        orderType: 'LIMIT',
        timeInForce: 'GTC',
        price: 9_800_000n,
        quantity: 100_000n,
      }).code,
    ).toBe('ok');
    const before = e.stateHash();
    expect(run(e, market('SELL', 1n))).toEqual({ code: 'notional_below_minimum', events: [] });
    expect(e.stateHash()).toBe(before);
    expect(run(e, market('SELL', 6n)).order?.status).toBe('FILLED'); // 5.88 USDT
  });

  it('values a market buy at the asks it would take, across levels', () => {
    const e = engine();
    run(e, { type: 'placeOrder', userId: 'maker', symbol: M.symbol, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 100_000n, quantity: 3n }); // 3 units at 1,000.00: 0.03 USDT
    run(e, { type: 'placeOrder', userId: 'maker', symbol: M.symbol, side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 10_000_000n, quantity: 100n });
    expect(run(e, market('BUY', 3n)).code).toBe('notional_below_minimum'); // 0.03 USDT
    expect(run(e, market('BUY', 4n)).code).toBe('notional_below_minimum'); // 0.03 + 1.00 USDT
    expect(run(e, market('BUY', 8n)).order?.status).toBe('FILLED'); // 0.03 + 5.00 USDT
  });
});
