/**
 * Pages of a user's open orders that never cut an order list in two: the two legs of an OCO list (docs/conditional-
 * orders.md) always arrive on the same page, so the screen shows the list as one card with one Cancel.
 */

/**
 * Page `page` (1-based) of `orders` (in display order) cut every `pageSize` orders, except that a cut falling between
 * two orders of the same list (`listOf` answers its id, or undefined for a single order) moves after the list's last
 * order there. Each page but the last holds at least `pageSize` orders, so a client that asks for pages while
 * `page * pageSize < orders.length` sees every order exactly once (a last page it asks for may be empty).
 * Throws RangeError for a page or page size below 1.
 */
export function openOrdersPage<T>(orders: readonly T[], page: number, pageSize: number, listOf: (o: T) => string | undefined): T[] {
  if (!Number.isSafeInteger(page) || page < 1 || !Number.isSafeInteger(pageSize) || pageSize < 1) throw new RangeError('page and pageSize start at 1');
  let start = 0;
  for (let p = 1; start < orders.length; p++) {
    let end = Math.min(start + pageSize, orders.length);
    while (end < orders.length && end > start) {
      const list = listOf(orders[end]!);
      if (list === undefined || listOf(orders[end - 1]!) !== list) break;
      end++;
    }
    if (p === page) return orders.slice(start, end);
    start = end;
  }
  return [];
}
