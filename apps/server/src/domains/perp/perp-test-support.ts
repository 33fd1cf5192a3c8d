/**
 * Test support of the contract API tests: a perpetual test market TSTP/USDT (price 2 decimals, quantity 3, fees
 * 0.02% / 0.05%, 1,000 USDT lots, Binance-like brackets), listing it once, funding a user's CONTRACT account, and
 * moving the index price.
 */
import { expect } from 'vitest';
import type { PerpMarketConfig } from '@exchange/core';
import type { EnginePort } from '../../platform/engine-port/engine-port';

/** 1 USDT in engine units (scale 8). */
export const U = 100_000_000n;

/** The test perpetual market (not the seeded ones: its own symbol). */
export const PERP: PerpMarketConfig = {
  symbol: 'TSTP/USDT',
  base: 'TSTP',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  tickSize: 1n,
  stepSize: 1n,
  minQty: 1n,
  makerFeePpm: 200,
  takerFeePpm: 500,
  lotNotional: 1000n * U,
  brackets: [
    { notionalCap: 50_000n * U, maxLeverage: 125, maintMarginPpm: 4_000 },
    { notionalCap: 250_000n * U, maxLeverage: 100, maintMarginPpm: 5_000 },
    { notionalCap: 1_000_000n * U, maxLeverage: 50, maintMarginPpm: 10_000 },
  ],
  priceBandPpm: 500_000,
  fundingIntervalMs: 28_800_000,
  interestRateE8: 10_000,
  fundingCapE8: 300_000,
  impactNotional: 1000n * U,
  markBasisSamples: 300,
  status: 'TRADING',
};

/** Lists the test market once (and USDT when the engine has none). */
export async function ensurePerpMarket(host: EnginePort, market: PerpMarketConfig = PERP): Promise<void> {
  if (!host.engine.asset('USDT')) expect((await host.submit({ type: 'addAsset', asset: { code: 'USDT', scale: 8 } })).code).toBe('ok');
  if (!host.engine.perpMarket(market.symbol)) expect((await host.submit({ type: 'addPerpMarket', market })).code).toBe('ok');
}

/** Credits `usdt` whole USDT to the user's CONTRACT account from the demo faucet. */
export async function fundContract(host: EnginePort, userId: string, usdt: bigint): Promise<void> {
  const r = await host.submit({ type: 'deposit', userId, asset: 'USDT', account: 'CONTRACT', amount: usdt * U, from: '@faucet' });
  expect(r.code).toBe('ok');
}

/** A mark price tick at index `price` (price units); returns the mark price after it. */
export async function tick(host: EnginePort, price: bigint, symbol = PERP.symbol): Promise<bigint> {
  const r = await host.submit({ type: 'perpMarkPrice', symbol, indexPrice: price });
  expect(r.code).toBe('ok');
  return host.engine.perpMarkState(symbol)!.markPrice!;
}
