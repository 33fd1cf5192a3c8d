/**
 * The agreed coin and market list (notes/markets.md): ten coins quoted in USDT, ETH/BTC and LTC/BTC, and USDT
 * perpetual contract listings for seven of them. Ticks and steps follow Binance's filters where they fit the
 * engine's rule priceDecimals + qtyDecimals <= 8 (USDT and BTC have scale 8). Fees 0.1% maker and taker
 * (1000 ppm). Minimum notional 5 USDT, 0.0001 BTC on BTC-quoted pairs.
 */

/** All assets: scale 8 (smallest unit 10^-8). */
export const ASSET_SCALE = 8;
/** Quote currencies (getMainCurs order). */
export const QUOTE_ASSETS = ['USDT', 'BTC'] as const;

/** One listing of the catalogue. tick = 1 price unit, step = 1 qty unit, minQty = one step. */
export interface CatalogMarket {
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  /** Minimum order value in quote units (10^-8). */
  minNotional: bigint;
  /** Also listed as a USDT perpetual contract (pair and index price only for now). */
  contract: boolean;
  /** New listing (PROJECT ranking). */
  isNew: boolean;
  /** Listed this many days before the first start (rankings of new listings sort by listing time). */
  listedDaysAgo: number;
}

const FIVE_USDT = 500_000_000n;
const TEN_THOUSAND_SATS = 10_000n; // 0.0001 BTC

/** Spot markets in display order; `contract` marks the seven with contract listings. */
export const CATALOG: readonly CatalogMarket[] = [
  { base: 'BTC', quote: 'USDT', priceDecimals: 2, qtyDecimals: 5, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 900 },
  { base: 'ETH', quote: 'USDT', priceDecimals: 2, qtyDecimals: 4, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 900 },
  { base: 'LTC', quote: 'USDT', priceDecimals: 2, qtyDecimals: 3, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 900 },
  { base: 'BNB', quote: 'USDT', priceDecimals: 2, qtyDecimals: 3, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 800 },
  { base: 'SOL', quote: 'USDT', priceDecimals: 2, qtyDecimals: 3, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 600 },
  { base: 'XRP', quote: 'USDT', priceDecimals: 4, qtyDecimals: 1, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 700 },
  { base: 'DOGE', quote: 'USDT', priceDecimals: 5, qtyDecimals: 0, minNotional: FIVE_USDT, contract: true, isNew: false, listedDaysAgo: 650 },
  { base: 'ADA', quote: 'USDT', priceDecimals: 4, qtyDecimals: 1, minNotional: FIVE_USDT, contract: false, isNew: false, listedDaysAgo: 700 },
  { base: 'SUI', quote: 'USDT', priceDecimals: 4, qtyDecimals: 1, minNotional: FIVE_USDT, contract: false, isNew: true, listedDaysAgo: 3 },
  { base: 'TON', quote: 'USDT', priceDecimals: 3, qtyDecimals: 2, minNotional: FIVE_USDT, contract: false, isNew: true, listedDaysAgo: 1 },
  // Cross pairs: Binance's ETH/BTC (tick 0.00001, step 0.0001) and LTC/BTC (tick 0.000001, step 0.001) exceed
  // 8 decimals together, so the step is one digit coarser here.
  { base: 'ETH', quote: 'BTC', priceDecimals: 5, qtyDecimals: 3, minNotional: TEN_THOUSAND_SATS, contract: false, isNew: false, listedDaysAgo: 900 },
  { base: 'LTC', quote: 'BTC', priceDecimals: 6, qtyDecimals: 2, minNotional: TEN_THOUSAND_SATS, contract: false, isNew: false, listedDaysAgo: 900 },
];

/** Coins with licensed real price history (replayed); every other coin's path is a seeded model (demo data). */
export const REAL_DATA_COINS: ReadonlySet<string> = new Set(['BTC', 'ETH', 'LTC']);

/** Maker and taker fee: 0.1% = 1000 ppm. */
export const FEE_PPM = 1000;

/** The headline pairs of the TOP ranking (spec section 2: up to four top pairs). */
export const TOP_PAIRS: readonly string[] = ['BTC/USDT', 'ETH/USDT', 'LTC/USDT', 'BNB/USDT'];

/** Every asset code of the catalogue, quotes first. */
export function catalogAssets(): string[] {
  const out: string[] = [...QUOTE_ASSETS];
  for (const m of CATALOG) if (!out.includes(m.base)) out.push(m.base);
  return out;
}
