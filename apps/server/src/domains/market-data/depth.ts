/**
 * Public depth of the spot listings: one DepthBook per market, loaded from the engine's book when first asked for
 * and then kept by the engine's depthChanged events, with a sequence number that moves once per engine command.
 * Contract listings have no book here (empty, seq 0). Prices and quantities are bigint units of the listing in
 * the book, decimal strings at the listing's decimals on the way out.
 */
import type { MarketType } from '@exchange/api';
import type { EnginePort } from '../../platform/engine-port/engine-port';
import type { Catalogue } from './catalogue';
import { fromUnits } from '../../platform/shared/decimal';
import { DepthBook, type LevelChange } from './depth-book';
import type { MarketUpdate } from './updates';

/** A depth snapshot as decimal strings with its sequence. */
export interface DepthSnapshot {
  seq: number;
  bids: Array<[string, string]>;
  asks: Array<[string, string]>;
}

/** The books of the spot markets. */
export interface DepthBooks {
  /** Best `limit` levels per side and the depth sequence (contract or unknown listings: empty book, seq 0). */
  snapshot(symbol: string, type: MarketType, limit: number): DepthSnapshot;
  /** Loads the book of `symbol` from the engine now (the service does it for every spot listing at start). */
  load(symbol: string): void;
  /**
   * Applies the level changes of one engine command to the book of `symbol`: the delta to publish (the final
   * quantity of each changed level, last change wins), or undefined when `symbol` is not a spot listing.
   */
  apply(symbol: string, changes: LevelChange[]): Extract<MarketUpdate, { kind: 'depth' }> | undefined;
}

/** Depth books over the engine's state and events. */
export function createDepthBooks(host: EnginePort, catalogue: Catalogue): DepthBooks {
  const books = new Map<string, DepthBook>(); // spot symbol -> book

  const bookOf = (symbol: string): DepthBook => {
    let b = books.get(symbol);
    if (!b) {
      b = new DepthBook();
      if (host.engine.market(symbol)) b.load(host.engine.depth(symbol, 1_000_000));
      books.set(symbol, b);
    }
    return b;
  };

  return {
    snapshot(symbol, type, limit) {
      const l = catalogue.listing(symbol, type);
      if (!l || type === 'CONTRACT') return { seq: 0, bids: [], asks: [] };
      const book = bookOf(symbol);
      const top = book.top(limit);
      const row = (d: { price: bigint; quantity: bigint }): [string, string] => [fromUnits(d.price, l.priceDecimals), fromUnits(d.quantity, l.qtyDecimals)];
      return { seq: book.seq, bids: top.bids.map(row), asks: top.asks.map(row) };
    },
    load(symbol) {
      bookOf(symbol);
    },
    apply(symbol, changes) {
      const book = bookOf(symbol);
      const prevSeq = book.seq;
      const seq = book.apply(changes);
      const l = catalogue.listing(symbol, 'SPOT');
      if (!l) return undefined;
      // The delta carries the final quantity of each changed level (last change of a level wins).
      const last = new Map<string, LevelChange>();
      for (const c of changes) last.set(`${c.side}|${c.price}`, c);
      const bids: Array<[string, string]> = [];
      const asks: Array<[string, string]> = [];
      for (const c of last.values()) {
        const row: [string, string] = [fromUnits(c.price, l.priceDecimals), fromUnits(c.quantity, l.qtyDecimals)];
        (c.side === 'BUY' ? bids : asks).push(row);
      }
      return { kind: 'depth', symbol, seq, prevSeq, bids, asks };
    },
  };
}
