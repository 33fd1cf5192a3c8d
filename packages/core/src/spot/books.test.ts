// Proves the OrderBook contract (book.ts) on both implementations with exact values: level totals
// returned by add/remove/reduce, price-time priority of best/after, bestPrice, depth with a level
// limit, levels, size and per-user counts; then the fast book's own structure: chunks that split
// and empty as levels come and go deep in the book, and checkInternal naming each kind of corruption.
// Also the paged order index (order-index.ts) and the per-user open-order list (order.ts).
import { describe, expect, it } from 'vitest';
import { isBetterPrice, type OrderBook } from './book';
import { FastOrderBook } from './fast-book';
import { NaiveOrderBook } from './naive-book';
import { Order, UserOrders } from './order';
import { OrderIndex } from './order-index';

function order(seq: number, side: 'BUY' | 'SELL', price: bigint, qty: bigint, userId = 'u'): Order {
  return new Order(seq, `${seq}`, null, userId, 'X/Y', side, 'LIMIT', 'GTC', price, qty, null, 'X', 'EXPIRE_TAKER', 0);
}

const BOOKS: [string, () => OrderBook][] = [
  ['fast', () => new FastOrderBook()],
  ['naive', () => new NaiveOrderBook()],
];

describe.each(BOOKS)('%s book', (_name, make) => {
  it('add, reduce and remove return the level total; an empty side has no best', () => {
    const b = make();
    expect(b.best('BUY')).toBeUndefined();
    expect(b.bestPrice('SELL')).toBeNull();
    const o1 = order(1, 'BUY', 100n, 5n, 'a');
    const o2 = order(2, 'BUY', 100n, 7n, 'b');
    const o3 = order(3, 'BUY', 99n, 2n, 'a');
    expect(b.add(o1)).toBe(5n);
    expect(b.add(o2)).toBe(12n);
    expect(b.add(o3)).toBe(2n);
    expect(b.size()).toBe(3);
    expect(b.userOrderCount('a')).toBe(2);
    expect(b.userOrderCount('b')).toBe(1);
    expect(b.userOrderCount('c')).toBe(0);
    expect(b.reduce(o1, 3n)).toBe(9n);
    expect(o1.remaining).toBe(2n);
    expect(b.remove(o2)).toBe(2n);
    expect(b.userOrderCount('b')).toBe(0);
    expect(b.remove(o1)).toBe(0n);
    expect(b.bestPrice('BUY')).toBe(99n);
    expect(b.best('BUY')).toBe(o3);
    expect(b.size()).toBe(1);
    expect(b.remove(o3)).toBe(0n);
    expect(b.size()).toBe(0);
    expect(b.userOrderCount('a')).toBe(0);
    expect(b.best('BUY')).toBeUndefined();
  });

  it('priority: best price first on each side, then arrival; depth and levels best first', () => {
    const b = make();
    const asks = [order(1, 'SELL', 105n, 1n), order(2, 'SELL', 103n, 2n), order(3, 'SELL', 105n, 3n), order(4, 'SELL', 104n, 4n)];
    const bids = [order(5, 'BUY', 101n, 1n), order(6, 'BUY', 102n, 2n), order(7, 'BUY', 101n, 3n)];
    for (const o of [...asks, ...bids]) b.add(o);
    const walk = (side: 'BUY' | 'SELL'): number[] => {
      const out: number[] = [];
      for (let o = b.best(side); o !== undefined; o = b.after(o)) out.push(o.seq);
      return out;
    };
    expect(walk('SELL')).toEqual([2, 4, 1, 3]);
    expect(walk('BUY')).toEqual([6, 5, 7]);
    expect(b.bestPrice('SELL')).toBe(103n);
    expect(b.bestPrice('BUY')).toBe(102n);
    expect(b.depth('SELL', 2)).toEqual([
      { price: 103n, quantity: 2n },
      { price: 104n, quantity: 4n },
    ]);
    expect(b.depth('SELL', 10)).toEqual([
      { price: 103n, quantity: 2n },
      { price: 104n, quantity: 4n },
      { price: 105n, quantity: 4n },
    ]);
    expect(b.depth('BUY', 0)).toEqual([]);
    expect(b.depth('BUY', 5)).toEqual([
      { price: 102n, quantity: 2n },
      { price: 101n, quantity: 4n },
    ]);
    expect(b.levels('BUY').map((l) => [l.price, l.orders.map((o) => o.seq)])).toEqual([
      [102n, [6]],
      [101n, [5, 7]],
    ]);
    expect(b.levels('SELL').map((l) => [l.price, l.orders.map((o) => o.seq)])).toEqual([
      [103n, [2]],
      [104n, [4]],
      [105n, [1, 3]],
    ]);
    // removing the head of a level keeps the rest in order
    b.remove(asks[0]!);
    expect(walk('SELL')).toEqual([2, 4, 3]);
    b.remove(asks[1]!);
    expect(b.bestPrice('SELL')).toBe(104n);
  });
});

describe('FastOrderBook structure', () => {
  it('keeps thousands of levels in order while adding and removing at the best, deep inside, and the worst end', () => {
    const b = new FastOrderBook();
    const live: Order[] = [];
    let seq = 0;
    // asks at 1000..1999 (interleaved so that inserts land inside chunks), bids below
    for (let i = 0; i < 1000; i++) {
      const px = 1000n + BigInt((i * 7) % 1000);
      const o = order(++seq, 'SELL', px, 1n + BigInt(i % 3));
      b.add(o);
      live.push(o);
      const bid = order(++seq, 'BUY', 999n - BigInt((i * 13) % 1000), 1n);
      b.add(bid);
      live.push(bid);
    }
    expect(b.checkInternal()).toBeNull();
    expect(b.bestPrice('SELL')).toBe(1000n);
    expect(b.bestPrice('BUY')).toBe(999n);
    expect(b.levels('SELL')).toHaveLength(1000);
    // every third level goes, from the middle outwards
    for (let i = 0; i < live.length; i += 3) b.remove(live[i]!);
    expect(b.checkInternal()).toBeNull();
    const asks = b.levels('SELL').map((l) => l.price);
    expect(asks).toEqual([...asks].sort((x, y) => (x < y ? -1 : 1)));
    const bids = b.levels('BUY').map((l) => l.price);
    expect(bids).toEqual([...bids].sort((x, y) => (x > y ? -1 : 1)));
    // a level at an existing price is reused, a new one between two is inserted in place
    const again = order(++seq, 'SELL', asks[10]!, 5n);
    expect(b.add(again)).toBe(b.depth('SELL', 11)[10]!.quantity);
    expect(b.levels('SELL')).toHaveLength(asks.length);
    // drain everything, worst first on asks, best first on bids
    const rest = [...b.levels('SELL')]
      .reverse()
      .flatMap((l) => l.orders)
      .concat(b.levels('BUY').flatMap((l) => l.orders));
    for (const o of rest) {
      b.remove(o);
      if (o.seq % 97 === 0) expect(b.checkInternal()).toBeNull();
    }
    expect(b.size()).toBe(0);
    expect(b.checkInternal()).toBeNull();
    expect(b.levels('SELL')).toEqual([]);
  });

  it('after() crosses chunk boundaries to the next worse level', () => {
    const b = new FastOrderBook();
    for (let i = 0; i < 300; i++) b.add(order(i + 1, 'SELL', 1000n - BigInt(i), 1n)); // every add is a new best
    const seen: bigint[] = [];
    for (let o = b.best('SELL'); o !== undefined; o = b.after(o)) seen.push(o.price as bigint);
    expect(seen).toHaveLength(300);
    expect(seen[0]).toBe(701n);
    expect(seen[299]).toBe(1000n);
    expect(seen.every((p, i) => i === 0 || p === (seen[i - 1] as bigint) + 1n)).toBe(true);
  });

  it('checkInternal names a corrupted total, order links, tail, level order and count', () => {
    const fresh = (): { b: FastOrderBook; o: Order[] } => {
      const b = new FastOrderBook();
      const o = [order(1, 'SELL', 10n, 1n, 'a'), order(2, 'SELL', 10n, 2n, 'b'), order(3, 'SELL', 11n, 3n, 'a')];
      for (const x of o) b.add(x);
      return { b, o };
    };
    let t = fresh();
    t.o[0]!.remaining = 5n; // level total no longer matches
    expect(t.b.checkInternal()).toBe('level total mismatch');
    t = fresh();
    t.o[1]!.prev = null; // broken back link
    expect(t.b.checkInternal()).toBe('broken links');
    t = fresh();
    (t.o[1]!.level as { tail: Order }).tail = t.o[0]!; // the tail is not the last order
    expect(t.b.checkInternal()).toBe('tail mismatch');
    type Inside = { asks: { chunks: { price: bigint; chunk: unknown }[][]; count: number }; bids: { chunks: unknown[][] } };
    const inside = (b: FastOrderBook): Inside => b as unknown as Inside;
    t = fresh();
    inside(t.b).asks.chunks[0]!.reverse(); // asks must run worst (highest) to best (lowest)
    expect(t.b.checkInternal()).toBe('levels not sorted');
    t = fresh();
    const lone = inside(t.b).asks.chunks[0]!.pop()!; // the best level moved into a chunk of its own
    inside(t.b).asks.chunks.push([lone]);
    expect(t.b.checkInternal()).toBe('level does not know its chunk');
    lone.chunk = inside(t.b).asks.chunks[1];
    expect(t.b.checkInternal()).toBeNull(); // two chunks are fine once the level knows its own
    inside(t.b).asks.chunks.push([]);
    expect(t.b.checkInternal()).toBe('bad chunk size');
    t = fresh();
    inside(t.b).bids.chunks.push([]);
    expect(t.b.checkInternal()).toBe('bad chunk size');
    t = fresh();
    const c0 = inside(t.b).asks.chunks[0]!;
    c0.splice(1, 0, ...Array.from({ length: 64 }, (_, i) => ({ ...c0[1]!, price: 10n + BigInt(i + 1) })));
    expect(t.b.checkInternal()).toBe('bad chunk size'); // 66 levels in a chunk of at most 64
    t = fresh();
    t.o[2]!.level = t.o[0]!.level; // an order that names another level
    expect(t.b.checkInternal()).toBe('broken links');
    t = fresh();
    t.o[2]!.remaining = 0n; // an empty order keeps its level alive
    (t.o[2]!.level as { total: bigint }).total = 0n;
    expect(t.b.checkInternal()).toBe('level total mismatch');
    t = fresh();
    inside(t.b).asks.chunks[0]!.reverse();
    inside(t.b).asks.chunks[0]!.reverse();
    expect(t.b.checkInternal()).toBeNull();
    // bids run worst (lowest) to best (highest); two levels may never share a price on either side
    const withBids = (): FastOrderBook => {
      const b = new FastOrderBook();
      b.add(order(1, 'BUY', 10n, 1n));
      b.add(order(2, 'BUY', 11n, 1n));
      return b;
    };
    let b = withBids();
    (inside(b).bids.chunks[0] as unknown[]).reverse();
    expect(b.checkInternal()).toBe('levels not sorted');
    b = withBids();
    const bidLevels = inside(b).bids.chunks[0] as { price: bigint }[];
    bidLevels[0]!.price = 11n;
    expect(b.checkInternal()).toBe('levels not sorted');
    t = fresh();
    inside(t.b).asks.chunks[0]![0]!.price = 10n;
    expect(t.b.checkInternal()).toBe('levels not sorted');
    t = fresh();
    inside(t.b).asks.count = 2;
    expect(t.b.checkInternal()).toBe('count mismatch');
  });
});

describe('isBetterPrice', () => {
  it('is a higher bid or a lower ask, never an equal price', () => {
    expect([isBetterPrice('BUY', 2n, 1n), isBetterPrice('BUY', 1n, 2n), isBetterPrice('BUY', 1n, 1n)]).toEqual([true, false, false]);
    expect([isBetterPrice('SELL', 1n, 2n), isBetterPrice('SELL', 2n, 1n), isBetterPrice('SELL', 1n, 1n)]).toEqual([true, false, false]);
  });
});

describe('OrderIndex', () => {
  it('finds orders by sequence number, forgets them, frees empty pages, and lists in id order', () => {
    const idx = new OrderIndex();
    const at = (seq: number): Order => order(seq, 'BUY', 1n, 1n);
    const a = at(1);
    const b = at(4095);
    const c = at(4096); // first slot of the second page
    const d = at(2 ** 32 + 5); // beyond 32 bits
    for (const o of [c, a, d, b]) idx.set(o);
    expect(idx.size()).toBe(4);
    expect([idx.get(1), idx.get(4095), idx.get(4096), idx.get(2 ** 32 + 5)]).toEqual([a, b, c, d]);
    expect([idx.get(2), idx.get(-1), idx.get(5 + 2 ** 20), idx.get(5)]).toEqual([undefined, undefined, undefined, undefined]);
    expect([...idx.values()].map((o) => o.seq)).toEqual([1, 4095, 4096, 2 ** 32 + 5]);
    idx.set(a); // setting the same slot again does not count twice
    expect(idx.size()).toBe(4);
    idx.delete(4096);
    idx.delete(4096);
    idx.delete(77_777);
    expect(idx.size()).toBe(3);
    expect(idx.get(4096)).toBeUndefined();
    expect((idx as unknown as { pages: unknown[] }).pages[1]).toBeUndefined(); // its page was freed
    idx.delete(1);
    idx.delete(1); // a second delete of a slot in a live page changes nothing
    expect(idx.size()).toBe(2);
    expect((idx as unknown as { pages: unknown[] }).pages[0]).toBeDefined(); // 4095 still lives there
    expect([...idx.values()].map((o) => o.seq)).toEqual([4095, 2 ** 32 + 5]);
    idx.set(c);
    expect(idx.get(4096)).toBe(c);
    expect(idx.size()).toBe(3);
  });
});

describe('Order and UserOrders', () => {
  it('a view copies the public fields; open means NEW or PARTIALLY_FILLED', () => {
    const o = new Order(7, '7', 'cid', 'u', 'BTC/USDT', 'SELL', 'LIMIT', 'IOC', 5n, 9n, null, 'USDT', 'NONE', 123);
    expect(o.toView()).toEqual({
      orderId: '7',
      clientOrderId: 'cid',
      userId: 'u',
      symbol: 'BTC/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      timeInForce: 'IOC',
      price: 5n,
      quantity: 9n,
      quoteAmount: null,
      filledQty: 0n,
      filledQuote: 0n,
      fee: 0n,
      feeAsset: 'USDT',
      status: 'NEW',
      createdTs: 123,
      updatedTs: 123,
    });
    expect([o.remaining, o.hold, o.holdAccount, o.mu]).toEqual([9n, 0n, null, null]);
    const byQuote = new Order(8, '8', null, 'u', 'BTC/USDT', 'BUY', 'MARKET', 'IOC', null, null, 50n, 'BTC', 'EXPIRE_TAKER', 1);
    expect(byQuote.remaining).toBe(0n);
    const open = (s: Order['status']): boolean => {
      o.status = s;
      return o.isOpen;
    };
    expect([open('NEW'), open('PARTIALLY_FILLED'), open('FILLED'), open('CANCELED'), open('EXPIRED')]).toEqual([true, true, false, false, false]);
  });

  it('the per-user list keeps arrival order through unlinks at the head, middle and tail', () => {
    const list = new UserOrders();
    const os = [1, 2, 3, 4].map((i) => order(i, 'BUY', 1n, 1n));
    for (const o of os) list.push(o);
    const ids = (): number[] => {
      const out: number[] = [];
      for (let o = list.head; o !== null; o = o.userNext) out.push(o.seq);
      return out;
    };
    const back = (): number[] => {
      const out: number[] = [];
      for (let o = list.tail; o !== null; o = o.userPrev) out.push(o.seq);
      return out;
    };
    expect(ids()).toEqual([1, 2, 3, 4]);
    expect(os[2]!.userList).toBe(list);
    list.unlink(os[1]!);
    expect([ids(), back()]).toEqual([
      [1, 3, 4],
      [4, 3, 1],
    ]);
    expect([os[1]!.userPrev, os[1]!.userNext, os[1]!.userList]).toEqual([null, null, null]);
    list.unlink(os[0]!);
    list.unlink(os[3]!);
    expect([ids(), back()]).toEqual([[3], [3]]);
    list.unlink(os[2]!);
    expect([list.head, list.tail]).toEqual([null, null]);
    list.push(os[0]!);
    expect([ids(), back()]).toEqual([[1], [1]]);
  });
});
