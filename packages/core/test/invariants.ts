/**
 * Invariant checks run after every command in the model-based tests (ARCHITECTURE.md, convention 5,
 * exchange-core's validateInternalState): book never crossed, FIFO and sorted levels, fast book
 * internals, every trade at the maker's price within the taker's limit, no negative user
 * bucket, every asset summing to 0n, every user's frozen SPOT balance equal to what its
 * open orders need (so a finished order holds exactly zero), and the engine's per-user count of
 * resting orders (the open-order cap) equal to the user's orders in the book and in its list.
 */
import type { Engine } from '../src/engine';
import { FastOrderBook } from '../src/spot/fast-book';
import type { CommandResult, OrderView, Side } from '../src/types';

/** Throws with a description of the first broken invariant. */
export function checkInvariants(e: Engine, result: CommandResult): void {
  for (const m of e.markets()) {
    const book = e.bookOf(m.symbol);
    if (book === undefined) throw new Error('missing book');
    const bid = book.bestPrice('BUY');
    const ask = book.bestPrice('SELL');
    if (bid !== null && ask !== null && !(bid < ask)) throw new Error(`${m.symbol} crossed: ${bid} >= ${ask}`);
    for (const side of ['BUY', 'SELL'] as Side[]) {
      const levels = book.levels(side);
      for (let i = 0; i < levels.length; i++) {
        const l = levels[i]!;
        if (l.orders.length === 0) throw new Error('empty level');
        const prev = levels[i - 1];
        if (prev !== undefined && (side === 'BUY' ? !(prev.price > l.price) : !(prev.price < l.price))) throw new Error('levels out of order');
        for (let j = 0; j < l.orders.length; j++) {
          const o = l.orders[j]!;
          if (o.price !== l.price || o.side !== side || !o.isOpen || o.remaining <= 0n) throw new Error(`bad resting order ${o.orderId}`);
          if (j > 0 && !(l.orders[j - 1]!.seq < o.seq)) throw new Error('FIFO broken');
        }
      }
      const d = book.depth(side, 1_000_000);
      if (d.length !== levels.length) throw new Error('depth/levels mismatch');
    }
    if (book instanceof FastOrderBook) {
      const err = book.checkInternal();
      if (err !== null) throw new Error(`fast book: ${err}`);
    }
  }
  // Order views carried by this command's events (latest wins): independent of how many ended
  // orders the engine retains.
  const seen = new Map<string, OrderView>();
  for (const ev of result.events) if (ev.type === 'orderAccepted' || ev.type === 'orderUpdated') seen.set(ev.order.orderId, ev.order);
  for (const ev of result.events) {
    if (ev.type !== 'trade') continue;
    const maker = seen.get(ev.makerOrderId);
    const taker = seen.get(ev.takerOrderId);
    if (maker === undefined || taker === undefined) throw new Error('trade with unknown order');
    if (maker.price !== ev.price) throw new Error(`trade ${ev.tradeId} not at the maker price`);
    if (taker.price !== null && (ev.takerSide === 'BUY' ? ev.price > taker.price : ev.price < taker.price)) throw new Error('trade beyond taker limit');
    if (ev.quantity <= 0n) throw new Error('empty trade');
  }
  const needed = new Map<string, bigint>(); // owner|asset -> frozen needed
  const users = new Set<string>();
  for (const a of e.ledger.accounts()) {
    if (a.kind !== 'SYSTEM') {
      users.add(a.owner);
      if (a.available < 0n || a.frozen < 0n) throw new Error(`negative bucket ${a.owner}/${a.kind}/${a.asset}`);
      if (a.kind !== 'SPOT' && a.frozen !== 0n) throw new Error('frozen outside SPOT');
    }
  }
  for (const [asset, total] of e.assetTotals()) if (total !== 0n) throw new Error(`${asset} sums to ${total}`);
  for (const u of users) {
    // The count behind the open-order cap matches the orders in each book and in the user's list.
    for (const m of e.markets()) {
      const n = e.openOrderCount(u, m.symbol);
      if (n !== e.bookOf(m.symbol)!.userOrderCount(u) || n !== e.openOrders(u, m.symbol).length) {
        throw new Error(`${u} ${m.symbol}: open-order count ${n}, book ${e.bookOf(m.symbol)!.userOrderCount(u)}, list ${e.openOrders(u, m.symbol).length}`);
      }
    }
    for (const o of e.openOrders(u)) {
      const m = e.market(o.symbol)!;
      const quote = e.asset(m.quote)!;
      const base = e.asset(m.base)!;
      const rem = (o.quantity as bigint) - o.filledQty;
      const need =
        o.side === 'BUY'
          ? (o.price as bigint) * rem * 10n ** BigInt(quote.scale - m.priceDecimals - m.qtyDecimals)
          : rem * 10n ** BigInt(base.scale - m.qtyDecimals);
      const key = `${u}|${o.side === 'BUY' ? m.quote : m.base}`;
      needed.set(key, (needed.get(key) ?? 0n) + need);
    }
  }
  for (const a of e.ledger.accounts()) {
    if (a.kind !== 'SPOT') continue;
    const need = needed.get(`${a.owner}|${a.asset}`) ?? 0n;
    if (a.frozen !== need) throw new Error(`${a.owner} ${a.asset} frozen ${a.frozen} but open orders need ${need}`);
  }
}
