/**
 * Loader for the Binance spot WebSocket capture (shared/data/binance-ws-capture-hftbacktest, MIT):
 * REST depth snapshot + `@depth@100ms` diffs + `@trade` messages, in exchange order.
 *
 * Binance's book-sync procedure: drop diffs with `u <= lastUpdateId`; the first applied diff must
 * satisfy `U <= lastUpdateId + 1 <= u`; afterwards every diff's `U` must be the previous `u` + 1.
 * Prices and quantities stay decimal strings here; `flow-binance.ts` converts them exactly.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

/** One price level as sent by Binance: [price, new total quantity] (decimal strings; "0" = removed). */
export type RawLevel = [string, string];

/** A market-data event after synchronisation, in exchange order. */
export type BinanceEvent =
  | { kind: 'snapshot'; bids: RawLevel[]; asks: RawLevel[] }
  | { kind: 'depth'; time: number; bids: RawLevel[]; asks: RawLevel[] }
  /** takerSide: SELL when the buyer was the maker (`m` true). */
  | { kind: 'trade'; time: number; price: string; qty: string; takerSide: 'BUY' | 'SELL' };

/** Counters of what the loader read and dropped (printed by the benchmark). */
export interface BinanceLoadStats {
  lines: number;
  diffsApplied: number;
  diffsDropped: number;
  trades: number;
  tradesBeforeSnapshot: number;
  /** Diffs whose U was not the previous u + 1 (a gap in the capture). */
  gaps: number;
}

interface DepthMsg { E: number; U: number; u: number; b: RawLevel[]; a: RawLevel[] }
interface TradeMsg { T: number; p: string; q: string; m: boolean }

/**
 * Read the given capture files (in time order, e.g. the 20240808 then the 20240809 file of one
 * symbol; the first must start with the REST snapshot) and return the synchronised event list.
 * Throws if no snapshot is found or the first diff does not bridge the snapshot.
 */
export function loadBinanceCapture(files: string[]): { events: BinanceEvent[]; stats: BinanceLoadStats } {
  const stats: BinanceLoadStats = { lines: 0, diffsApplied: 0, diffsDropped: 0, trades: 0, tradesBeforeSnapshot: 0, gaps: 0 };
  let snapshot: { lastUpdateId: number; bids: RawLevel[]; asks: RawLevel[] } | undefined;
  const pending: (BinanceEvent & { kind: 'depth' | 'trade' })[] = [];
  const diffs: DepthMsg[] = [];
  let lastU = -1;
  for (const file of files) {
    const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
    for (const line of text.split('\n')) {
      if (line.length === 0) continue;
      stats.lines++;
      const json = line.slice(line.indexOf(' ') + 1);
      const msg = JSON.parse(json) as { stream?: string; data?: unknown; lastUpdateId?: number; bids?: RawLevel[]; asks?: RawLevel[] };
      if (msg.lastUpdateId !== undefined) {
        if (snapshot === undefined) snapshot = { lastUpdateId: msg.lastUpdateId, bids: msg.bids ?? [], asks: msg.asks ?? [] };
        continue;
      }
      const stream = msg.stream ?? '';
      if (stream.endsWith('@trade')) {
        if (snapshot === undefined) {
          stats.tradesBeforeSnapshot++;
          continue;
        }
        const d = msg.data as TradeMsg;
        stats.trades++;
        pending.push({ kind: 'trade', time: d.T, price: d.p, qty: d.q, takerSide: d.m ? 'SELL' : 'BUY' });
      } else if (stream.includes('@depth')) {
        // Diffs are buffered even before the snapshot line: one received earlier may bridge it.
        const d = msg.data as DepthMsg;
        diffs.push(d);
      }
    }
  }
  if (snapshot === undefined) throw new Error('no REST depth snapshot in the capture');
  for (const d of diffs) {
    if (d.u <= snapshot.lastUpdateId) {
      stats.diffsDropped++;
      continue;
    }
    if (lastU < 0) {
      if (!(d.U <= snapshot.lastUpdateId + 1 && snapshot.lastUpdateId + 1 <= d.u)) {
        throw new Error(`first diff [${d.U}, ${d.u}] does not bridge snapshot ${snapshot.lastUpdateId}`);
      }
    } else if (d.U !== lastU + 1) {
      stats.gaps++;
    }
    lastU = d.u;
    stats.diffsApplied++;
    pending.push({ kind: 'depth', time: d.E, bids: d.b, asks: d.a });
  }
  // Exchange order: trades by trade time, diffs by event time (a diff's E closes its 100 ms window,
  // so the trades inside the window come first). Stable sort keeps arrival order for ties.
  pending.sort((x, y) => x.time - y.time);
  const events: BinanceEvent[] = [{ kind: 'snapshot', bids: snapshot.bids, asks: snapshot.asks }, ...pending];
  return { events, stats };
}
