/**
 * The catalogue of market data: the listings (spot and contract markets, one row of `markets` each, in display
 * order), the quote currencies of the spot markets, and the coin introductions. Loaded once from the database
 * after the seed; nothing here changes while the server runs.
 */
import type { CoinIntro, Lang, MarketType } from '@exchange/api';
import type { CoinRow, MarketDataRepository } from './market-data.repository';

/** A listing as the service holds it (one row of `markets`). */
export interface Listing {
  symbol: string;
  type: MarketType;
  base: string;
  quote: string;
  priceDecimals: number;
  qtyDecimals: number;
  tickSize: string;
  stepSize: string;
  minQty: string;
  minNotional: string;
  listedAt: number;
  isNew: boolean;
  demoData: boolean;
  sort: number;
}

/** The listings and coins, read-only. */
export interface Catalogue {
  /** Every listing, display order. */
  readonly all: readonly Listing[];
  /** Listings of a type (or all), display order; a new array each call. */
  listings(type?: MarketType): Listing[];
  /** The listing of `symbol` ("BTC/USDT") and `type`, or undefined. */
  listing(symbol: string, type: MarketType): Listing | undefined;
  /** Quote currencies of the spot markets, display order (spec: getMainCurs). */
  mainCurs(): string[];
  /** Coin introduction in `lang`; undefined when unknown. */
  coinIntro(code: string, lang: Lang): CoinIntro | undefined;
}

/** Key of a listing in maps keyed by market: `type|symbol`. */
export const listingKey = (type: MarketType, symbol: string): string => `${type}|${symbol}`;

/** Reads the listings and coins from the database (after the seed wrote them). */
export async function loadCatalogue(repo: MarketDataRepository): Promise<Catalogue> {
  const all: Listing[] = (await repo.markets()).map((r) => ({
    symbol: r.symbol,
    type: r.type as MarketType,
    base: r.base,
    quote: r.quote,
    priceDecimals: r.priceDecimals,
    qtyDecimals: r.qtyDecimals,
    tickSize: r.tickSize,
    stepSize: r.stepSize,
    minQty: r.minQty,
    minNotional: r.minNotional,
    listedAt: r.listedAt,
    isNew: r.isNew,
    demoData: r.demoData,
    sort: r.sort,
  }));
  const coinRows = new Map<string, CoinRow>((await repo.coins()).map((c) => [c.code, c]));
  const byKey = new Map(all.map((l) => [listingKey(l.type, l.symbol), l]));
  return {
    all,
    listings(type) {
      return all.filter((l) => type === undefined || l.type === type);
    },
    listing(symbol, type) {
      return byKey.get(listingKey(type, symbol));
    },
    mainCurs() {
      const out: string[] = [];
      for (const l of all) if (l.type === 'SPOT' && !out.includes(l.quote)) out.push(l.quote);
      return out;
    },
    coinIntro(code, lang) {
      const c = coinRows.get(code);
      if (!c) return undefined;
      return {
        tokenCur: c.code,
        fullName: c.fullName,
        issueTime: c.issueTime,
        totalSupply: c.totalSupply,
        circulatingSupply: c.circulatingSupply,
        crowdfundingPrice: c.crowdfundingPrice,
        whitePaper: c.whitePaper,
        website: c.website,
        blockExplorer: c.blockExplorer,
        introduction: lang === 'zh' ? c.introZh : c.introEn,
      };
    },
  };
}
