/**
 * The contract listings' one source: the perpetual markets (domains/market-data/perp) hand market data a
 * ContractFeed, and from then on the quotes list and the pair detail of a contract listing (getPairsByMainCur and
 * getCoinInfo type CONTRACT, the ticker push) show the perpetual's own 24 h figures, and its k-lines (getKline type
 * CONTRACT, the kline push) are the perpetual's trade bars: the same numbers as contract/market/getMarket and the
 * contractTicker push, as Binance's futures ticker (last price = last trade of the contract, the mark price before
 * any trade). Market data keeps only the index price of a contract listing.
 *
 * Units: prices bigint price units (10^-priceDecimals quote), volumes qty units, quote volumes quote asset units.
 */
import type { Kline, KlinePeriod } from '@exchange/api';
import type { ReferencePrices } from './reference-prices';

/** The 24 h figures of a perpetual market, in the units of its listing. */
export interface ContractFigures {
  /** Last trade, else the mark price, else the index price, else the window's close; null when none is known. */
  last: bigint | null;
  /** First price of the 24 h window (null: empty window, change 0). */
  open: bigint | null;
  /** Highest and lowest price of the window and `last`; null when `last` is null and the window is empty. */
  high: bigint | null;
  low: bigint | null;
  /** Traded quantity (qty units) and value (quote asset units, 10^-8) of the window. */
  volume: bigint;
  quoteVolume: bigint;
  /** The index price the perpetual uses (the engine's, else the index job's latest), or null. */
  index: bigint | null;
  priceDecimals: number;
  qtyDecimals: number;
}

/** What the perpetual markets give market data for the contract listings of the same symbols. */
export interface ContractFeed {
  /** The perpetual's figures at `ts` (ms), or undefined when it has no market of that symbol. */
  figures(symbol: string, ts: number): ContractFigures | undefined;
  /** Trade bars before endTime (exclusive), oldest first, at most `limit`. */
  klines(symbol: string, period: KlinePeriod, limit: number, endTime?: number): Promise<Kline[]>;
  /** Writes the feed's own reference history; called when the reference paths are attached. */
  backfill(): Promise<void>;
}

/** What market data gives back to the feed. */
export interface ContractFeedSink {
  /** The reference prices (their `paths` set when the feeds job attaches them). */
  reference: ReferencePrices;
  /** The figures of `symbol` changed: the contract listing's ticker is pushed with the next publish. */
  tickerChanged(symbol: string): void;
  /** A trade bar of `symbol` changed: pushed at once as the contract listing's kline. */
  barChanged(symbol: string, period: KlinePeriod, bar: Kline): void;
  /** Detaches the feed (the listings fall back to an earlier feed, else to their index price and bars). */
  detach(): void;
}
