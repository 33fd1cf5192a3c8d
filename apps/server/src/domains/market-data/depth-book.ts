/**
 * The public order book of one market as market data sees it: price level -> total quantity per side, kept from
 * the engine's depthChanged events, with a sequence number incremented once per batch of changes (one engine
 * command). WebSocket clients get a snapshot at `seq` then deltas whose `prevSeq` is the previous `seq`.
 * Prices and quantities are bigint units of the market (10^-priceDecimals, 10^-qtyDecimals).
 */
import type { DepthLevel, Side } from '@exchange/core';

/** One changed level: new total quantity at `price` (0 = level removed). */
export interface LevelChange {
  side: Side;
  price: bigint;
  quantity: bigint;
}

/** Aggregated levels per side with a change sequence. */
export class DepthBook {
  private readonly bids = new Map<bigint, bigint>();
  private readonly asks = new Map<bigint, bigint>();
  private sortedBids: DepthLevel[] | null = null;
  private sortedAsks: DepthLevel[] | null = null;
  /** Sequence of the last applied batch (0 = initial state). */
  seq = 0;

  /** Replaces the book with `levels` (from the engine at start) without changing seq. */
  load(levels: { bids: DepthLevel[]; asks: DepthLevel[] }): void {
    this.bids.clear();
    this.asks.clear();
    for (const l of levels.bids) if (l.quantity > 0n) this.bids.set(l.price, l.quantity);
    for (const l of levels.asks) if (l.quantity > 0n) this.asks.set(l.price, l.quantity);
    this.sortedBids = this.sortedAsks = null;
  }

  /** Applies one batch of changes and increments seq; returns the new seq. */
  apply(changes: LevelChange[]): number {
    for (const c of changes) {
      const side = c.side === 'BUY' ? this.bids : this.asks;
      if (c.quantity > 0n) side.set(c.price, c.quantity);
      else side.delete(c.price);
      if (c.side === 'BUY') this.sortedBids = null;
      else this.sortedAsks = null;
    }
    this.seq += 1;
    return this.seq;
  }

  /** Best `limit` levels per side: bids highest first, asks lowest first. */
  top(limit: number): { bids: DepthLevel[]; asks: DepthLevel[] } {
    if (this.sortedBids === null) {
      this.sortedBids = [...this.bids].map(([price, quantity]) => ({ price, quantity })).sort((a, b) => (a.price > b.price ? -1 : a.price < b.price ? 1 : 0));
    }
    if (this.sortedAsks === null) {
      this.sortedAsks = [...this.asks].map(([price, quantity]) => ({ price, quantity })).sort((a, b) => (a.price < b.price ? -1 : a.price > b.price ? 1 : 0));
    }
    return { bids: this.sortedBids.slice(0, limit), asks: this.sortedAsks.slice(0, limit) };
  }
}
