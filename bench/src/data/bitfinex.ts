/**
 * Loader for the Bitfinex tBTCUSD raw (per-order, R0) book feed
 * (shared/data/bitfinex-btcusd-raw-book-l3-nautilus, flattened CSV `bitfinex_tBTCUSD_R0_book_events.csv.gz`).
 * Columns: msg_seq,action,order_id,price,amount_base,side with action snapshot|upsert|delete and
 * side bid|ask. Prices and sizes stay decimal strings here; `flow-bitfinex.ts` converts them exactly.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

/** One row of the feed, in file order. `price`/`amount` are '' for deletes. */
export interface BitfinexEvent {
  action: 'snapshot' | 'upsert' | 'delete';
  /** Bitfinex order id (decimal string, remapped to dense ids by the flow builder). */
  orderId: string;
  price: string;
  amount: string;
  side: 'BUY' | 'SELL';
}

/** Read the CSV (gzip) and return its rows in order. Throws on a malformed row. */
export function loadBitfinexL3(file: string): BitfinexEvent[] {
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
  const lines = text.split('\n');
  const header = lines[0]?.trim();
  if (header !== 'msg_seq,action,order_id,price,amount_base,side') throw new Error(`unexpected header: ${header}`);
  const out: BitfinexEvent[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] as string).trim();
    if (line.length === 0) continue;
    const [, action, orderId, price, amount, side] = line.split(',');
    if ((action !== 'snapshot' && action !== 'upsert' && action !== 'delete') || orderId === undefined || (side !== 'bid' && side !== 'ask')) {
      throw new Error(`bad row ${i}: ${line}`);
    }
    out.push({ action, orderId, price: price ?? '', amount: amount ?? '', side: side === 'bid' ? 'BUY' : 'SELL' });
  }
  return out;
}
