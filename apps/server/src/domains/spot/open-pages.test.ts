/**
 * openOrdersPage: pages of open orders that keep an order list's legs together, checked against every page size on
 * lists at every position (each order seen exactly once over the pages a client asks for, legs never split).
 */
import { describe, expect, it } from 'vitest';
import { openOrdersPage } from './open-pages';

type O = { id: string; list?: string };
const listOf = (o: O) => o.list;

/** The pages a client reads: page 1, 2, ... while page * pageSize < total (as the app's load-more does). */
function readAll(orders: O[], pageSize: number): O[][] {
  const pages: O[][] = [openOrdersPage(orders, 1, pageSize, listOf)];
  for (let p = 1; p * pageSize < orders.length; p++) pages.push(openOrdersPage(orders, p + 1, pageSize, listOf));
  return pages;
}

describe('openOrdersPage', () => {
  it('cuts every pageSize orders, moving a cut that falls between two legs after the second', () => {
    const orders: O[] = [{ id: 'a' }, { id: 'b', list: 'L1' }, { id: 'c', list: 'L1' }, { id: 'd' }, { id: 'e' }];
    expect(openOrdersPage(orders, 1, 2, listOf).map((o) => o.id)).toEqual(['a', 'b', 'c']);
    expect(openOrdersPage(orders, 2, 2, listOf).map((o) => o.id)).toEqual(['d', 'e']);
    expect(openOrdersPage(orders, 3, 2, listOf)).toEqual([]);
    expect(openOrdersPage(orders, 1, 20, listOf)).toHaveLength(5);
    expect(() => openOrdersPage(orders, 0, 2, listOf)).toThrow(RangeError);
    expect(() => openOrdersPage(orders, 1, 0, listOf)).toThrow(RangeError);
  });
  it('every order once and no list split, for every page size and list position', () => {
    for (let n = 0; n <= 12; n++) {
      for (let at = 0; at < n - 1; at++) {
        for (let at2 = at + 2; at2 <= n; at2++) {
          // a list at `at` and, when it fits, another at `at2`
          const orders: O[] = Array.from({ length: n }, (_, i) => ({ id: String(i) }));
          orders[at] = { id: String(at), list: 'L1' };
          orders[at + 1] = { id: String(at + 1), list: 'L1' };
          if (at2 + 1 < n) {
            orders[at2] = { id: String(at2), list: 'L2' };
            orders[at2 + 1] = { id: String(at2 + 1), list: 'L2' };
          }
          for (let size = 1; size <= n + 1; size++) {
            const pages = readAll(orders, size);
            expect(pages.flat().map((o) => o.id)).toEqual(orders.map((o) => o.id));
            for (const page of pages) {
              for (const list of ['L1', 'L2']) {
                const legs = page.filter((o) => o.list === list).length;
                expect([n, at, at2, size, list, legs === 0 || legs === 2]).toEqual([n, at, at2, size, list, true]);
              }
            }
          }
        }
      }
    }
  });
});
