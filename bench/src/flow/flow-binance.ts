/**
 * Order flow rebuilt from the Binance spot depth capture: the REST snapshot's levels become resting
 * limit orders; each depth diff's per-level quantity change becomes a limit place (increase) or
 * cancels of the newest orders at that level (decrease; an over-cancel is topped up with a place);
 * each `@trade` message becomes a market order of the trade's size on the taker's side.
 * Within one diff, decreases are applied before increases. Prices/sizes are converted exactly.
 */
import { loadBinanceCapture, type BinanceEvent, type RawLevel } from '../data/binance';
import { fractionDigits, toUnits } from '../data/decimal';
import { BUY, FlowBuilder, SELL, type Flow } from './flow';

/** Smallest decimal counts that hold every price and size of the capture exactly. */
function decimalsOf(events: BinanceEvent[]): { priceDecimals: number; qtyDecimals: number } {
  let priceDecimals = 0;
  let qtyDecimals = 0;
  const levels = (ls: RawLevel[]): void => {
    for (const [p, q] of ls) {
      priceDecimals = Math.max(priceDecimals, fractionDigits(p));
      qtyDecimals = Math.max(qtyDecimals, fractionDigits(q));
    }
  };
  for (const e of events) {
    if (e.kind === 'trade') {
      priceDecimals = Math.max(priceDecimals, fractionDigits(e.price));
      qtyDecimals = Math.max(qtyDecimals, fractionDigits(e.qty));
    } else {
      levels(e.bids);
      levels(e.asks);
    }
  }
  return { priceDecimals, qtyDecimals };
}

/** Build the flow from capture files of one symbol (time order; the first holds the REST snapshot). */
export function buildBinanceFlow(name: string, files: string[]): { flow: Flow; loadStats: ReturnType<typeof loadBinanceCapture>['stats'] } {
  const { events, stats } = loadBinanceCapture(files);
  const { priceDecimals, qtyDecimals } = decimalsOf(events);
  const fb = new FlowBuilder(name, 'binance-ws-capture-hftbacktest (MIT)', priceDecimals, qtyDecimals);
  const px = (s: string): bigint => toUnits(s, priceDecimals);
  const qx = (s: string): bigint => toUnits(s, qtyDecimals);

  const reduce = (side: number, price: bigint, by: bigint): void => {
    const ids = fb.liveAt(side, price);
    let left = by;
    for (let i = ids.length - 1; i >= 0 && left > 0n; i--) {
      const before = fb.levelTotal(side, price);
      fb.cancel(ids[i] as number);
      left -= before - fb.levelTotal(side, price);
    }
    if (left < 0n) fb.place(side, price, -left);
  };

  for (const e of events) {
    if (e.kind === 'snapshot') {
      for (const [p, q] of e.bids) if (qx(q) > 0n) fb.place(BUY, px(p), qx(q));
      for (const [p, q] of e.asks) if (qx(q) > 0n) fb.place(SELL, px(p), qx(q));
    } else if (e.kind === 'trade') {
      fb.market(e.takerSide === 'BUY' ? BUY : SELL, qx(e.qty));
    } else {
      const ups: [number, bigint, bigint][] = [];
      for (const [side, ls] of [
        [BUY, e.bids],
        [SELL, e.asks],
      ] as const) {
        for (const [p, q] of ls) {
          const price = px(p);
          const target = qx(q);
          const cur = fb.levelTotal(side, price);
          if (target < cur) reduce(side, price, cur - target);
          else if (target > cur) ups.push([side, price, target]);
        }
      }
      for (const [side, price, target] of ups) {
        const cur = fb.levelTotal(side, price);
        if (target > cur) fb.place(side, price, target - cur);
      }
    }
  }
  return { flow: fb.build(), loadStats: stats };
}
