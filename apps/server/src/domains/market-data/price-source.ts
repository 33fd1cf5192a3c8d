/**
 * Agreed interface between the reference price feed (jobs/reference-feed*, built by the feeds engineer) and
 * market data (domains/market-data, built by the market-data engineer).
 * Prices are decimal strings in the quote currency (USDT), never floats on the wire.
 */

/** One OHLCV bar; time = bar open (Unix ms). volume in base units, decimal string. */
export interface PriceBar {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
}

/** Where a coin's reference path comes from. */
export interface PathProvenance {
  /** true when the path is a seeded model (no licensed real data for this coin): label it as demo data. */
  demoData: boolean;
  /** Human-readable source, e.g. "Coinbase BTC-USD 4h candles (ta4j, MIT), replayed onto the wall clock". */
  source: string;
}

/** A coin's reference price path mapped onto the wall clock: deterministic for a given ts. */
export interface ReferencePath {
  readonly base: string; // "BTC"
  readonly quote: string; // "USDT"
  readonly provenance: PathProvenance;
  /** Reference price at wall-clock `ts` (ms), as a decimal string with `priceDecimals` decimals. */
  priceAt(ts: number): string;
  /**
   * Historical bars of `periodMs` (60_000 ... 604_800_000) covering [fromTs, toTs), aligned to the period
   * (weeks aligned to Monday 00:00 UTC), built from the same real data (and the seeded bridge inside each real bar)
   * so k-line history matches the live replay.
   */
  bars(periodMs: number, fromTs: number, toTs: number): PriceBar[];
}

/** Registry of reference paths by base coin (BTC, ETH, LTC, and the demo coins). */
export interface ReferencePaths {
  get(base: string): ReferencePath | undefined;
  all(): ReferencePath[];
  /**
   * Path of a pair by base and quote: <BASE>/USDT gives the coin's path; a cross pair such as ETH/BTC or
   * LTC/BTC is derived from the two USDT paths (price = base / quote). undefined when a leg is unknown.
   */
  pair?(base: string, quote: string): ReferencePath | undefined;
}
