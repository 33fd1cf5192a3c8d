// Proves the fast book's chunked level array against a plain sorted model under many random
// level inserts and removals (deep in the book, so chunks split and empty), and that priority
// iteration (best, after) visits levels best first and orders FIFO.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FastOrderBook } from './fast-book';
import { Order } from './order';

// The core's tsconfig has no Node types (src must not use them); the test reads its env this way.
const { process } = globalThis as unknown as { process: { env: Record<string, string | undefined> } };
/** Random books to check: env FAST_BOOK_RUNS (the mutation run uses fewer), else 40. */
const RUNS = process.env.FAST_BOOK_RUNS !== undefined ? parseInt(process.env.FAST_BOOK_RUNS, 10) : 40;

function order(seq: number, side: 'BUY' | 'SELL', price: bigint, qty: bigint): Order {
  return new Order(seq, `${seq}`, null, 'u', 'X/Y', side, 'LIMIT', 'GTC', price, qty, null, 'X', 'EXPIRE_TAKER', 0);
}

describe('FastOrderBook', () => {
  it('matches a sorted model under random adds and removes (property)', () => {
    fc.assert(
      fc.property(
        // 3 adds for 1 removal and hundreds of prices, so chunks fill, split and empty
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 3 }).map((k) => k > 0),
            fc.constantFrom<'BUY' | 'SELL'>('BUY', 'SELL'),
            fc.integer({ min: 1, max: 400 }),
            fc.nat(),
          ),
          { minLength: 300, maxLength: 800, size: 'max' },
        ),
        (ops) => {
          const book = new FastOrderBook();
          const live: Order[] = [];
          let seq = 0;
          for (const [isAdd, side, px, pick] of ops) {
            if (isAdd || live.length === 0) {
              const o = order(++seq, side, BigInt(px), 1n + BigInt(pick % 5));
              book.add(o);
              live.push(o);
            } else {
              const o = live.splice(pick % live.length, 1)[0] as Order;
              book.remove(o);
            }
            expect(book.checkInternal()).toBeNull();
          }
          for (const side of ['BUY', 'SELL'] as const) {
            const mine = live.filter((o) => o.side === side);
            const prices = [...new Set(mine.map((o) => o.price as bigint))].sort((a, b) => (a === b ? 0 : (side === 'BUY' ? a > b : a < b) ? -1 : 1));
            expect(book.levels(side).map((l) => l.price)).toEqual(prices);
            // walking with best/after visits every order: best price first, FIFO within a price
            const walked: number[] = [];
            for (let o = book.best(side); o !== undefined; o = book.after(o)) walked.push(o.seq);
            const expected = prices.flatMap((p) =>
              mine
                .filter((o) => o.price === p)
                .map((o) => o.seq)
                .sort((a, b) => a - b),
            );
            expect(walked).toEqual(expected);
          }
          // Drain by ascending price: empties bid chunks worst first (not at the best end) and asks best first.
          for (const o of [...live].sort((a, b) =>
            (a.price as bigint) < (b.price as bigint) ? -1 : (a.price as bigint) > (b.price as bigint) ? 1 : a.seq - b.seq,
          )) {
            book.remove(o);
            expect(book.checkInternal()).toBeNull();
          }
          expect(book.size()).toBe(0);
        },
      ),
      { numRuns: RUNS },
    );
  });
});
