/**
 * Which outside markets make each coin's index (spec section 9: "weighted average of top 10 exchanges"), and how
 * strict the protections are. INDEX_SOURCE=replay (the default) keeps the replayed historical path; INDEX_SOURCE=live
 * reads the sources below through CCXT Pro (ccxt-source.ts). INDEX_SOURCES (JSON) replaces the defaults per coin:
 *
 *   {"BTC": {"sources": [{"exchange": "binance", "symbol": "BTC/USDT"}, ...], "maxAgeMs": 10000, "jumpBps": 2500, "minSources": 4}}
 *
 * A coin named there takes only the fields it gives over the defaults; a coin not named keeps the defaults.
 */
import type { SourceSpec } from './ccxt-source';

/** The index of one coin: its sources (each weighted by its 24 h quote volume) and the rule's limits. */
export interface CoinIndexConfig {
  sources: SourceSpec[];
  /** A source whose last price is older than this is dropped (ms). */
  maxAgeMs: number;
  /** A source further than this from the median is dropped as a jump (basis points); within it, it is clamped to +/-3%. */
  jumpBps: number;
  /** Fewer live sources than this and the index is stale: the mark price holds. */
  minSources: number;
}

/**
 * The ten spot exchanges of the default index, in CCXT Pro ids (gate = Gate.io, htx = Huobi), each read by its ticker
 * channel (last price and 24 h quote volume in one message).
 */
export const DEFAULT_INDEX_EXCHANGES: readonly SourceSpec['exchange'][] = [
  'binance',
  'okx',
  'bybit',
  'coinbase',
  'kraken',
  'kucoin',
  'gate',
  'bitget',
  'mexc',
  'htx',
];

/** Defaults of every coin: 10 s without a price drops a source, a 25% deviation is a jump, at least 4 live sources. */
export const DEFAULT_INDEX_LIMITS = { maxAgeMs: 10_000, jumpBps: 2500, minSources: 4 } as const;

/**
 * Exchanges of the default index read without their socket: MEXC's spot ticker channel (publicAggreBookTicker, the one
 * CCXT's watchTicker reads) is protobuf, which CCXT decodes only with the optional protobufjs package, and carries best
 * bid and ask, no last price; its REST 24 h ticker has both (CCXT throttles it to one call per 1.25 s).
 */
export const DEFAULT_REST_ONLY: ReadonlySet<string> = new Set(['mexc']);

/** The default config of a coin quoted in `quote`: the ten exchanges' `<coin>/<quote>` spot markets. */
export function defaultCoinIndex(coin: string, quote = 'USDT'): CoinIndexConfig {
  return {
    sources: DEFAULT_INDEX_EXCHANGES.map((exchange) => ({
      exchange,
      symbol: `${coin}/${quote}`,
      ...(DEFAULT_REST_ONLY.has(exchange) ? { watch: 'rest' as const } : {}),
    })),
    ...DEFAULT_INDEX_LIMITS,
  };
}

const posInt = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min;

/**
 * Parses INDEX_SOURCES (JSON, may be undefined or empty) into per-coin overrides. Throws an Error naming the coin and
 * field on anything malformed, so a bad deployment stops at start instead of pricing from the wrong sources.
 */
export function parseIndexSources(json: string | undefined): Record<string, Partial<CoinIndexConfig>> {
  if (json === undefined || json.trim() === '') return {};
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('INDEX_SOURCES is not valid JSON');
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('INDEX_SOURCES must be a JSON object keyed by coin');
  const out: Record<string, Partial<CoinIndexConfig>> = {};
  for (const [coin, v] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof v !== 'object' || v === null) throw new Error(`INDEX_SOURCES.${coin} must be an object`);
    const c = v as Record<string, unknown>;
    const o: Partial<CoinIndexConfig> = {};
    if (c.sources !== undefined) {
      if (!Array.isArray(c.sources) || c.sources.length === 0) throw new Error(`INDEX_SOURCES.${coin}.sources must be a non-empty array`);
      o.sources = c.sources.map((s: unknown, i) => {
        const x = s as Record<string, unknown> | null;
        if (!x || typeof x.exchange !== 'string' || typeof x.symbol !== 'string' || !x.symbol.includes('/')) {
          throw new Error(`INDEX_SOURCES.${coin}.sources[${i}] needs exchange and a unified symbol such as "BTC/USDT"`);
        }
        if (x.watch !== undefined && x.watch !== 'ticker' && x.watch !== 'trades' && x.watch !== 'rest')
          throw new Error(`INDEX_SOURCES.${coin}.sources[${i}].watch must be ticker, trades or rest`);
        return { exchange: x.exchange, symbol: x.symbol, ...(x.watch ? { watch: x.watch } : {}) };
      });
    }
    for (const [key, min] of [
      ['maxAgeMs', 1],
      ['jumpBps', 0],
      ['minSources', 1],
    ] as const) {
      if (c[key] === undefined) continue;
      if (!posInt(c[key], min)) throw new Error(`INDEX_SOURCES.${coin}.${key} must be an integer >= ${min}`);
      o[key] = c[key];
    }
    out[coin] = o;
  }
  return out;
}

/** The config of `coin`: its defaults with the INDEX_SOURCES overrides over them. */
export function coinIndexConfig(coin: string, overrides: Record<string, Partial<CoinIndexConfig>>, quote = 'USDT'): CoinIndexConfig {
  return { ...defaultCoinIndex(coin, quote), ...overrides[coin] };
}
