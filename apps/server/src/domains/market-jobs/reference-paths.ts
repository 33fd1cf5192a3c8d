/**
 * Loads the seed price data (apps/server/seed-data, see its NOTICE) and builds the reference path of every coin:
 * BTC, ETH and LTC replay real Coinbase USD bars (USD used as the USDT reference); the demo coins follow a seeded
 * model labelled as demo data; ETH/BTC and LTC/BTC derive from the USDT paths.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ReplaySeries, SyntheticSeries, type BarColumns } from './bar-series';
import { hashString } from './prng';
import type { ReferencePath, ReferencePaths } from '../market-data/price-source';
import { CrossPath, SeriesPath, type FloatPath } from './reference-path';
import { SERVER_ROOT } from '../../platform/config/server-root';

/**
 * Wall-clock ts shows data time ts - REPLAY_OFFSET_MS (then ping-pong at the ends of the data): 728 days = 104
 * weeks, so weekdays, UTC days and 4-hour bars line up between the data and the wall clock.
 */
export const REPLAY_OFFSET_MS = 728 * 86_400_000;

/** Where the seed data lives (apps/server/seed-data). */
export const SEED_DATA_DIR = path.join(SERVER_ROOT, 'seed-data');

/** A repair of a known bad print (PROVENANCE.md of the source folder): these fields are recomputed. */
export interface BadPrintFix {
  ts: number;
  /** open := previous bar's close; close := next bar's open; high := max(open, close); low := min(open, close). */
  fields: Array<'open' | 'close' | 'high' | 'low'>;
  why: string;
}

/** A coin with licensed real price history. */
interface RealCoin {
  code: string;
  file: string;
  barMs: number;
  knotsPerBar: number;
  priceDecimals: number;
  volumeDecimals: number;
  source: string;
  fixes: BadPrintFix[];
}

/** A demo coin: seeded model with hourly bars. */
interface DemoCoin {
  code: string;
  level: number;
  sigmaPerHour: number;
  valuePerHour: number;
  priceDecimals: number;
  volumeDecimals: number;
}

const H4 = 4 * 3_600_000;
const REPLAY_NOTE =
  'USD used as the USDT reference; replayed onto the wall clock 728 days later at 1:1 speed, forwards then backwards at the ends of the data; seeded bridge inside each bar';

/** The real coins, their files in seed-data and the bad prints repaired (see seed-data/NOTICE). */
export const REAL_COINS: readonly RealCoin[] = [
  {
    code: 'BTC',
    file: 'coinbase_btcusd_4h.csv.gz',
    barMs: H4,
    knotsPerBar: 2880,
    priceDecimals: 2,
    volumeDecimals: 5,
    source: `Coinbase BTC-USD 4h candles 2016-05..2025-10 (ta4j/ta4j, MIT); ${REPLAY_NOTE}`,
    fixes: [
      { ts: 1492286400000, fields: ['open', 'low'], why: 'open and low 0.06 against ~1180 (bad print)' },
      { ts: 1522785600000, fields: ['close', 'low'], why: 'low and close 5200 against ~7400 (bad print)' },
    ],
  },
  {
    code: 'ETH',
    file: 'coinbase_ethusd_4h.csv.gz',
    barMs: H4,
    knotsPerBar: 2880,
    priceDecimals: 2,
    volumeDecimals: 4,
    source: `Coinbase ETH-USD 4h candles 2016-05..2025-10 (ta4j/ta4j, MIT); ${REPLAY_NOTE}`,
    fixes: [{ ts: 1492286400000, fields: ['open', 'high'], why: 'open 74.98 against ~48 (bad print)' }],
  },
  {
    code: 'LTC',
    file: 'coinbase_ltcusd_1m_trade.csv.gz',
    barMs: 60_000,
    knotsPerBar: 60,
    priceDecimals: 2,
    volumeDecimals: 3,
    source: `Coinbase LTC-USD 1m trade bars 2018-04-04..06 (QuantConnect/Lean, Apache-2.0), only ~3 days exist so the path ping-pongs through them (6-day cycle); ${REPLAY_NOTE}`,
    fixes: [],
  },
];

/** Demo coins: level the model reverts around (USDT), hourly volatility and traded value (USDT per hour). */
export const DEMO_COINS: readonly DemoCoin[] = [
  { code: 'BNB', level: 620, sigmaPerHour: 0.006, valuePerHour: 8e6, priceDecimals: 2, volumeDecimals: 3 },
  { code: 'SOL', level: 160, sigmaPerHour: 0.009, valuePerHour: 1.5e7, priceDecimals: 2, volumeDecimals: 3 },
  { code: 'XRP', level: 2.3, sigmaPerHour: 0.008, valuePerHour: 1.2e7, priceDecimals: 4, volumeDecimals: 1 },
  { code: 'DOGE', level: 0.19, sigmaPerHour: 0.01, valuePerHour: 8e6, priceDecimals: 5, volumeDecimals: 0 },
  { code: 'ADA', level: 0.7, sigmaPerHour: 0.009, valuePerHour: 4e6, priceDecimals: 4, volumeDecimals: 1 },
  { code: 'SUI', level: 3.4, sigmaPerHour: 0.011, valuePerHour: 5e6, priceDecimals: 4, volumeDecimals: 1 },
  { code: 'TON', level: 5.2, sigmaPerHour: 0.008, valuePerHour: 3e6, priceDecimals: 3, volumeDecimals: 2 },
];

/** Cross pairs derived from the USDT paths: price decimals as the markets' ticks, volume = 10% of the base leg's. */
export const CROSS_PAIRS: ReadonlyArray<{ base: string; quote: string; priceDecimals: number; volumeDecimals: number }> = [
  { base: 'ETH', quote: 'BTC', priceDecimals: 5, volumeDecimals: 3 },
  { base: 'LTC', quote: 'BTC', priceDecimals: 6, volumeDecimals: 2 },
];

interface Row {
  ts: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

/**
 * Parses a normalised CSV (open_time_ms,open,high,low,close,volume_base, header first, ascending), repairs the
 * listed bad prints, makes every bar's high/low contain its open/close, drops duplicate times and fills missing
 * bars with bars from the previous close to the next open (linear steps, zero volume).
 * Throws when a listed fix does not match a row (the data changed) or a time is off the bar grid.
 */
export function parseBars(csv: string, barMs: number, fixes: readonly BadPrintFix[] = []): BarColumns {
  const rows: Row[] = [];
  for (const line of csv.split('\n')) {
    const t = line.trim();
    if (t === '' || !/^[0-9]/.test(t)) continue;
    const [ts, o, h, l, c, v] = t.split(',').map((x) => Number(x));
    if ([ts, o, h, l, c, v].some((x) => x === undefined || !Number.isFinite(x))) throw new Error(`bad CSV line: ${t}`);
    const row = { ts: ts as number, open: o as number, high: h as number, low: l as number, close: c as number, volume: v as number };
    const last = rows[rows.length - 1];
    if (last && row.ts <= last.ts) continue; // duplicate or out of order
    rows.push(row);
  }
  if (rows.length === 0) throw new Error('no bars');
  for (const fix of fixes) {
    const i = rows.findIndex((r) => r.ts === fix.ts);
    const r = rows[i];
    if (!r) throw new Error(`bad print fix for ${fix.ts} matches no bar`);
    if (fix.fields.includes('open')) r.open = (rows[i - 1] ?? r).close;
    if (fix.fields.includes('close')) r.close = (rows[i + 1] ?? r).open;
    if (fix.fields.includes('high')) r.high = Math.max(r.open, r.close);
    if (fix.fields.includes('low')) r.low = Math.min(r.open, r.close);
  }
  const first = rows[0] as Row;
  const lastRow = rows[rows.length - 1] as Row;
  if ((lastRow.ts - first.ts) % barMs !== 0) throw new Error('bar times are off the grid');
  const n = (lastRow.ts - first.ts) / barMs + 1;
  const cols: BarColumns = {
    startTs: first.ts,
    barMs,
    open: new Float64Array(n),
    high: new Float64Array(n),
    low: new Float64Array(n),
    close: new Float64Array(n),
    volume: new Float64Array(n),
  };
  let prev: Row | null = null;
  for (const r of rows) {
    if ((r.ts - first.ts) % barMs !== 0) throw new Error(`bar ${r.ts} is off the grid`);
    const i = (r.ts - first.ts) / barMs;
    if (prev) {
      const j0 = (prev.ts - first.ts) / barMs;
      const m = i - j0 - 1; // missing bars between prev and r
      for (let j = 1; j <= m; j++) {
        const o = prev.close + ((r.open - prev.close) * (j - 1)) / m;
        const c = prev.close + ((r.open - prev.close) * j) / m;
        cols.open[j0 + j] = o;
        cols.close[j0 + j] = c;
        cols.high[j0 + j] = Math.max(o, c);
        cols.low[j0 + j] = Math.min(o, c);
        cols.volume[j0 + j] = 0;
      }
    }
    cols.open[i] = r.open;
    cols.close[i] = r.close;
    cols.high[i] = Math.max(r.high, r.open, r.close);
    cols.low[i] = Math.min(r.low, r.open, r.close);
    cols.volume[i] = r.volume;
    prev = r;
  }
  return cols;
}

/** Options of createReferencePaths (tests use other offsets or directories). */
export interface ReferencePathsOptions {
  seedDir?: string;
  offsetMs?: number;
}

/** Registry implementation: USDT paths by base, cross pairs by base/quote. */
class PathRegistry implements ReferencePaths {
  constructor(
    private readonly usdt: Map<string, FloatPath>,
    private readonly cross: Map<string, FloatPath>,
  ) {}
  get(base: string): ReferencePath | undefined {
    return this.usdt.get(base);
  }
  all(): ReferencePath[] {
    return [...this.usdt.values()];
  }
  pair(base: string, quote: string): ReferencePath | undefined {
    return quote === 'USDT' ? this.usdt.get(base) : this.cross.get(`${base}/${quote}`);
  }
}

/**
 * Builds every reference path: reads and gunzips the seed data synchronously (about 1 MB, well under a second).
 * Throws when a seed file is missing or malformed.
 */
export function createReferencePaths(opts: ReferencePathsOptions = {}): ReferencePaths {
  const dir = opts.seedDir ?? SEED_DATA_DIR;
  const offsetMs = opts.offsetMs ?? REPLAY_OFFSET_MS;
  const usdt = new Map<string, FloatPath>();
  for (const coin of REAL_COINS) {
    const raw = fs.readFileSync(path.join(dir, coin.file));
    const csv = (coin.file.endsWith('.gz') ? zlib.gunzipSync(raw) : raw).toString('utf8');
    const series = new ReplaySeries(parseBars(csv, coin.barMs, coin.fixes), offsetMs);
    usdt.set(
      coin.code,
      new SeriesPath({
        base: coin.code,
        quote: 'USDT',
        provenance: { demoData: false, source: coin.source },
        series,
        seed: hashString(coin.code),
        knotsPerBar: coin.knotsPerBar,
        priceDecimals: coin.priceDecimals,
        volumeDecimals: coin.volumeDecimals,
      }),
    );
  }
  for (const coin of DEMO_COINS) {
    const seed = hashString(coin.code);
    const series = new SyntheticSeries(3_600_000, { seed, level: coin.level, sigmaPerBar: coin.sigmaPerHour, valuePerBar: coin.valuePerHour });
    usdt.set(
      coin.code,
      new SeriesPath({
        base: coin.code,
        quote: 'USDT',
        provenance: {
          demoData: true,
          source: `demo data: seeded model (mean-reverting log random walk around ${coin.level} USDT, ${coin.sigmaPerHour * 100}% per hour), no licensed real data for ${coin.code}`,
        },
        series,
        seed,
        knotsPerBar: 720,
        priceDecimals: coin.priceDecimals,
        volumeDecimals: coin.volumeDecimals,
      }),
    );
  }
  const cross = new Map<string, FloatPath>();
  for (const c of CROSS_PAIRS) {
    const a = usdt.get(c.base);
    const b = usdt.get(c.quote);
    if (a && b) cross.set(`${c.base}/${c.quote}`, new CrossPath(a, b, c.priceDecimals, c.volumeDecimals, 0.1));
  }
  return new PathRegistry(usdt, cross);
}
