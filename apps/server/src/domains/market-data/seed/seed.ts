/**
 * First-start seeding, idempotent on every start: engine assets and markets (through host.submit, like every
 * other state change), coin introductions and listings (banners and notices: domains/content).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { MarketConfig } from '@exchange/core';
import type { EnginePort } from '../../../platform/engine-port/engine-port';
import type { MarketDataRepository } from '../market-data.repository';
import { fromUnits } from '../../../platform/shared/decimal';
import { ASSET_SCALE, CATALOG, FEE_PPM, REAL_DATA_COINS, catalogAssets, type CatalogMarket } from './catalog';
import { COIN_FACTS } from './coins';

/** "BTC/USDT". */
export const symbolOf = (m: Pick<CatalogMarket, 'base' | 'quote'>) => `${m.base}/${m.quote}`;

/** The engine configuration of a catalogue market: tick, step and minimum quantity are one unit each. */
export function marketConfigOf(m: CatalogMarket): MarketConfig {
  return {
    symbol: symbolOf(m),
    base: m.base,
    quote: m.quote,
    priceDecimals: m.priceDecimals,
    qtyDecimals: m.qtyDecimals,
    tickSize: 1n,
    stepSize: 1n,
    minQty: 1n,
    minNotional: m.minNotional,
    makerFeePpm: FEE_PPM,
    takerFeePpm: FEE_PPM,
    status: 'TRADING',
  };
}

/** Submits addAsset/addMarket for every catalogue asset and spot market the engine does not have yet. */
export async function seedEngine(host: EnginePort, log: FastifyBaseLogger): Promise<void> {
  // Submitted together so that one group commit (fsync) serves each stage.
  const assets = catalogAssets().filter((code) => !host.engine.asset(code));
  const assetResults = await Promise.all(assets.map((code) => host.submit({ type: 'addAsset', asset: { code, scale: ASSET_SCALE } })));
  assetResults.forEach((r, i) => {
    if (r.code !== 'ok' && r.code !== 'asset_exists') throw new Error(`seeding asset ${assets[i]} failed: ${r.code}`);
  });
  const missing = CATALOG.filter((m) => !host.engine.market(symbolOf(m)));
  const marketResults = await Promise.all(missing.map((m) => host.submit({ type: 'addMarket', market: marketConfigOf(m) })));
  marketResults.forEach((r, i) => {
    if (r.code !== 'ok' && r.code !== 'market_exists') throw new Error(`seeding market ${symbolOf(missing[i] as CatalogMarket)} failed: ${r.code}`);
  });
  if (missing.length > 0) log.info({ markets: missing.map(symbolOf) }, 'markets added to the engine');
}

/** Trims trailing fraction zeros of a decimal string: "5.00000000" -> "5", "0.0100" -> "0.01". */
function trim(d: string): string {
  return d.includes('.') ? d.replace(/0+$/, '').replace(/\.$/, '') : d;
}

/** Inserts missing coins and listings (banners and notices: domains/content). */
export async function seedContent(repo: MarketDataRepository, now: number): Promise<void> {
  await repo.insertCoins(COIN_FACTS.map((c, i) => ({ ...c, scale: ASSET_SCALE, sort: i })));

  const rows: Parameters<MarketDataRepository['insertMarkets']>[0] = [];
  CATALOG.forEach((m, i) => {
    const common = {
      symbol: symbolOf(m),
      base: m.base,
      quote: m.quote,
      priceDecimals: m.priceDecimals,
      qtyDecimals: m.qtyDecimals,
      tickSize: fromUnits(1n, m.priceDecimals),
      stepSize: fromUnits(1n, m.qtyDecimals),
      minQty: fromUnits(1n, m.qtyDecimals),
      minNotional: trim(fromUnits(m.minNotional, ASSET_SCALE)),
      makerFeePpm: FEE_PPM,
      takerFeePpm: FEE_PPM,
      listedAt: now - m.listedDaysAgo * 86_400_000,
      isNew: m.isNew,
      demoData: !(REAL_DATA_COINS.has(m.base) && (m.quote === 'USDT' || REAL_DATA_COINS.has(m.quote))),
      sort: i,
    };
    rows.push({ ...common, type: 'SPOT' });
    if (m.contract) rows.push({ ...common, type: 'CONTRACT' });
  });
  await repo.insertMarkets(rows);
}
