/**
 * The USDT perpetual contract listings: one perpetual market for every USDT spot pair of the catalogue
 * that has an index price (`contract: true`), in its own namespace with the same symbol ("BTC/USDT"). Prices and
 * quantities use the spot pair's decimals (tick and step one unit), which keeps priceDecimals + qtyDecimals <= 8,
 * the settle asset's (USDT) scale. The parameters follow Binance USDT-M futures:
 * - fees: maker 0.02% (200 ppm), taker 0.05% (500 ppm), Binance's regular (VIP 0) USDT-M rates;
 * - a LIMIT price more than 50% from the mark price is refused (spec section 9);
 * - funding every 8 hours (00:00, 08:00, 16:00 UTC), interest 0.01% per interval, rate capped at +-0.3% (BTCUSDT);
 * - mark price: 300 one-per-second basis samples (Binance's 5-minute moving average);
 * - brackets: Binance's BTCUSDT table for BTC (125x up to 50,000 USDT ... 1x up to 500M), a 75x table shaped on
 *   Binance's mid-cap USDT-M brackets for the others;
 * - impact notional: one lot (1,000 USDT). Binance walks 200 USDT / the initial margin rate at the maximum leverage
 *   (25,000 USDT for BTCUSDT); the demo's contract books are far thinner than Binance's, and a premium sample needs
 *   the impact notional to be fillable on both sides, so one lot, the smallest order a user can place, is walked.
 * - one lot is a face value of 1,000 USDT at the order's price (spec section 9, perp/math.ts lotsToQty).
 */
import type { EnginePort } from '../../../platform/engine-port/engine-port';
import type { LeverageBracket, PerpMarketConfig } from '@exchange/core';
import type { FastifyBaseLogger } from 'fastify';
import { ASSET_SCALE, CATALOG, type CatalogMarket } from './catalog';

/** One USDT in quote units (scale 8). */
const USDT = 10n ** BigInt(ASSET_SCALE);
/** Face value of one lot: 1,000 USDT. */
export const PERP_LOT_NOTIONAL = 1000n * USDT;
/** Binance USDT-M regular fees, ppm. */
export const PERP_MAKER_FEE_PPM = 200;
export const PERP_TAKER_FEE_PPM = 500;
/** Spec section 9: a limit price more than 50% from the mark price is refused. */
export const PERP_PRICE_BAND_PPM = 500_000;
/** 8 hours. */
export const PERP_FUNDING_INTERVAL_MS = 28_800_000;
/** 0.01% per interval, E8. */
export const PERP_INTEREST_E8 = 10_000;
/** +-0.3%, E8. */
export const PERP_FUNDING_CAP_E8 = 300_000;
/** Walked for the impact bid and ask of the premium index (see the file comment): one lot. */
export const PERP_IMPACT_NOTIONAL = PERP_LOT_NOTIONAL;
/** Basis samples of the mark price's moving average (one per second: 5 minutes). */
export const PERP_MARK_BASIS_SAMPLES = 300;
/** The insurance fund's seed in the demo (USDT quote units): 1,000,000 USDT. */
export const INSURANCE_SEED = 1_000_000n * USDT;

/** A tier from whole USDT, leverage and a maintenance rate in basis points of a percent (0.4% = 40). */
const tier = (capUsdt: number, maxLeverage: number, mmrBp: number): LeverageBracket => ({
  notionalCap: BigInt(capUsdt) * USDT,
  maxLeverage,
  maintMarginPpm: mmrBp * 100,
});

/**
 * Binance's BTCUSDT leverage brackets (notional caps in USDT, maximum leverage, maintenance margin rate):
 * 50k 125x 0.4%, 250k 100x 0.5%, 1M 50x 1%, 10M 20x 2.5%, 20M 10x 5%, 50M 5x 10%, 100M 4x 12.5%, 200M 3x 15%,
 * 300M 2x 25%, 500M 1x 50%.
 */
export const BTC_BRACKETS: readonly LeverageBracket[] = [
  tier(50_000, 125, 40),
  tier(250_000, 100, 50),
  tier(1_000_000, 50, 100),
  tier(10_000_000, 20, 250),
  tier(20_000_000, 10, 500),
  tier(50_000_000, 5, 1000),
  tier(100_000_000, 4, 1250),
  tier(200_000_000, 3, 1500),
  tier(300_000_000, 2, 2500),
  tier(500_000_000, 1, 5000),
];

/**
 * The other coins' brackets, shaped on Binance's mid-cap USDT-M tables: 10k 75x 0.5%, 50k 50x 1%, 250k 25x 2%,
 * 1M 10x 5%, 5M 5x 10%, 10M 4x 12.5%, 20M 3x 15%, 50M 2x 25%, 100M 1x 50% (each tier's initial margin rate
 * 1/leverage stays above its maintenance rate).
 */
export const ALT_BRACKETS: readonly LeverageBracket[] = [
  tier(10_000, 75, 50),
  tier(50_000, 50, 100),
  tier(250_000, 25, 200),
  tier(1_000_000, 10, 500),
  tier(5_000_000, 5, 1000),
  tier(10_000_000, 4, 1250),
  tier(20_000_000, 3, 1500),
  tier(50_000_000, 2, 2500),
  tier(100_000_000, 1, 5000),
];

/** The catalogue markets listed as perpetual contracts: USDT pairs with an index price (`contract`). */
export function perpCatalog(): CatalogMarket[] {
  return CATALOG.filter((m) => m.contract && m.quote === 'USDT');
}

/** The engine configuration of the perpetual contract of a catalogue market (see the file comment). */
export function perpMarketConfigOf(m: CatalogMarket): PerpMarketConfig {
  if (m.priceDecimals + m.qtyDecimals > ASSET_SCALE) throw new RangeError(`${m.base}/${m.quote}: priceDecimals + qtyDecimals exceed the settle scale`);
  return {
    symbol: `${m.base}/${m.quote}`,
    base: m.base,
    quote: m.quote,
    priceDecimals: m.priceDecimals,
    qtyDecimals: m.qtyDecimals,
    tickSize: 1n,
    stepSize: 1n,
    minQty: 1n,
    makerFeePpm: PERP_MAKER_FEE_PPM,
    takerFeePpm: PERP_TAKER_FEE_PPM,
    lotNotional: PERP_LOT_NOTIONAL,
    brackets: (m.base === 'BTC' ? BTC_BRACKETS : ALT_BRACKETS).map((b) => ({ ...b })),
    priceBandPpm: PERP_PRICE_BAND_PPM,
    fundingIntervalMs: PERP_FUNDING_INTERVAL_MS,
    interestRateE8: PERP_INTEREST_E8,
    fundingCapE8: PERP_FUNDING_CAP_E8,
    impactNotional: PERP_IMPACT_NOTIONAL,
    markBasisSamples: PERP_MARK_BASIS_SAMPLES,
    status: 'TRADING',
  };
}

/**
 * Submits addPerpMarket for every perpetual market the engine does not have yet and, when `insurance` (the demo),
 * brings the insurance fund up to INSURANCE_SEED from '@faucet' once, when this call listed the first markets (a
 * restart seeds nothing: what the fund paid in liquidations stays visible). A refusal is logged, never thrown: the
 * server runs its spot markets without contracts.
 */
export async function seedPerpMarkets(host: EnginePort, log: FastifyBaseLogger, opts: { insurance: boolean }): Promise<void> {
  const missing = perpCatalog().filter((m) => !host.engine.perpMarket(`${m.base}/${m.quote}`));
  const results = await Promise.all(missing.map((m) => host.submit({ type: 'addPerpMarket', market: perpMarketConfigOf(m) })));
  const added: string[] = [];
  results.forEach((r, i) => {
    const m = missing[i] as CatalogMarket;
    if (r.code === 'ok') added.push(`${m.base}/${m.quote}`);
    else if (r.code !== 'market_exists') log.warn({ symbol: `${m.base}/${m.quote}`, code: r.code }, 'perpetual market refused by the engine');
  });
  if (added.length > 0) log.info({ markets: added }, 'perpetual markets added to the engine');
  // Seeded once, with the first listing: a fund drawn down by liquidations stays drawn down across restarts (a
  // refill at every start would hide what it paid).
  if (!opts.insurance || added.length === 0 || added.length !== host.engine.perpMarkets().length) return;
  const fund = host.engine.balance('@insurance', 'SYSTEM', 'USDT');
  const shortfall = INSURANCE_SEED - (fund.available + fund.frozen);
  if (shortfall <= 0n) return;
  const r = await host.submit({ type: 'fundInsurance', asset: 'USDT', amount: shortfall, from: '@faucet' });
  if (r.code === 'ok') log.info({ amount: shortfall.toString() }, 'insurance fund seeded');
  else log.warn({ code: r.code }, 'insurance fund seed refused');
}
