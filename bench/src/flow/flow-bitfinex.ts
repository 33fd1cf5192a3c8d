/**
 * Order flow rebuilt from the Bitfinex per-order (L3) feed: snapshot rows and upserts of a new id are
 * limit places; an upsert that changes an existing order's price or size is a cancel + place (the
 * order keeps its user); a delete is a cancel. Bitfinex ids are remapped to dense flow ids; a
 * delete or change of an order the simulation already filled (the feed has no trades) is skipped.
 */
import { loadBitfinexL3, type BitfinexEvent } from '../data/bitfinex';
import { fractionDigits, toUnits } from '../data/decimal';
import { BUY, FlowBuilder, SELL, type Flow } from './flow';

function decimalsOf(events: BitfinexEvent[]): { priceDecimals: number; qtyDecimals: number } {
  let priceDecimals = 0;
  let qtyDecimals = 0;
  for (const e of events) {
    if (e.action === 'delete') continue;
    priceDecimals = Math.max(priceDecimals, fractionDigits(e.price));
    qtyDecimals = Math.max(qtyDecimals, fractionDigits(e.amount));
  }
  return { priceDecimals, qtyDecimals };
}

/** Build the flow from the events CSV (gzip). */
export function buildBitfinexFlow(name: string, file: string): { flow: Flow; skipped: number; rows: number } {
  const events = loadBitfinexL3(file);
  const { priceDecimals, qtyDecimals } = decimalsOf(events);
  const fb = new FlowBuilder(name, 'bitfinex-btcusd-raw-book-l3-nautilus (LGPL-3.0, read in place)', priceDecimals, qtyDecimals);
  /** Bitfinex id -> current flow id and the state it was placed with. */
  const byId = new Map<string, { flowId: number; side: number; price: bigint; qty: bigint }>();
  let skipped = 0;
  for (const e of events) {
    const cur = byId.get(e.orderId);
    const live = cur !== undefined && fb.isLive(cur.flowId);
    if (e.action === 'delete') {
      if (live) fb.cancel(cur.flowId);
      else skipped++;
      byId.delete(e.orderId);
      continue;
    }
    const side = e.side === 'BUY' ? BUY : SELL;
    const price = toUnits(e.price, priceDecimals);
    const qty = toUnits(e.amount, qtyDecimals);
    if (qty === 0n) {
      skipped++;
      continue;
    }
    let user: number | undefined;
    if (cur !== undefined) {
      if (live && cur.side === side && cur.price === price && cur.qty === qty) {
        skipped++;
        continue;
      }
      user = fb.ownerOf(cur.flowId);
      if (live) fb.cancel(cur.flowId);
    }
    const flowId = fb.place(side, price, qty, user);
    byId.set(e.orderId, { flowId, side, price, qty });
  }
  return { flow: fb.build(), skipped, rows: events.length };
}
