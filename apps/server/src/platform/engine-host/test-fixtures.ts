/**
 * Fixtures for engine-host and trading tests: the USDT, BTC assets and the BTC/USDT market with known
 * scales (USDT and BTC 8 decimals; price 2 decimals, quantity 6 decimals; fees 0.1%), added through
 * `host.submit` only when the engine does not have them yet (the market-data seed may have added them).
 */
import type { MarketConfig } from '@exchange/core';
import type { EngineHost } from './engine-host';

/** BTC/USDT as the tests expect it: tick 0.01 USDT, step 0.000001 BTC, min notional 1 USDT, fees 1000 ppm. */
export const TEST_BTC_USDT: MarketConfig = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 6,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  minNotional: 100_000_000n,
  makerFeePpm: 1000,
  takerFeePpm: 1000,
  status: 'TRADING',
};

/** Adds USDT (scale 8), BTC (scale 8) and `market` when missing; returns the market the engine has. */
export async function ensureMarket(host: Pick<EngineHost, 'engine' | 'submit'>, market: MarketConfig = TEST_BTC_USDT): Promise<MarketConfig> {
  for (const code of [market.base, market.quote]) {
    if (!host.engine.asset(code)) {
      const r = await host.submit({ type: 'addAsset', asset: { code, scale: 8 } });
      if (r.code !== 'ok') throw new Error(`addAsset ${code}: ${r.code}`);
    }
  }
  if (!host.engine.market(market.symbol)) {
    const r = await host.submit({ type: 'addMarket', market });
    if (r.code !== 'ok') throw new Error(`addMarket ${market.symbol}: ${r.code}`);
  }
  return host.engine.market(market.symbol)!;
}
