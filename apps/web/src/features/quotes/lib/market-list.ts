/**
 * Pure rules of the markets list: search, sorting by name / price / change / volume, and the cycle of
 * a sort header (none -> descending -> ascending -> none). Prices and changes are decimal strings and
 * are compared exactly (compareDecimal), never as floats.
 */
import type { Pair } from '@exchange/api';
import { compareDecimal, isDecimal } from '../../../shared/format';

/** Sortable columns of the list. */
export type SortKey = 'name' | 'price' | 'change' | 'volume';
/** Sort direction; null keeps the server's order. */
export type SortDir = 'asc' | 'desc' | null;
/** Current sort of the list. */
export interface SortState {
  key: SortKey | null;
  dir: SortDir;
}

/** Next sort after tapping the header of `key`: a new column starts descending; then ascending; then off. */
export function nextSort(cur: SortState, key: SortKey): SortState {
  if (cur.key !== key || cur.dir === null) return { key, dir: 'desc' };
  if (cur.dir === 'desc') return { key, dir: 'asc' };
  return { key: null, dir: null };
}

const dec = (s: string) => (isDecimal(s) ? s : '0');

function compareBy(key: SortKey, a: Pair, b: Pair): number {
  switch (key) {
    case 'name':
      return a.pairsName < b.pairsName ? -1 : a.pairsName > b.pairsName ? 1 : 0;
    case 'price':
      return compareDecimal(dec(a.price), dec(b.price));
    case 'change':
      return compareDecimal(dec(a.updown), dec(b.updown));
    case 'volume':
      return compareDecimal(dec(a.quoteVolume || a.volume), dec(b.quoteVolume || b.volume));
  }
}

/** Returns a new array sorted per `sort` (stable; ties keep the server order). */
export function sortPairs(pairs: readonly Pair[], sort: SortState): Pair[] {
  const out = [...pairs];
  if (!sort.key || !sort.dir) return out;
  const key = sort.key;
  const sign = sort.dir === 'asc' ? 1 : -1;
  return out.sort((a, b) => sign * compareBy(key, a, b));
}

/** Pairs whose name contains `query` (case-insensitive, '/' optional: "btcu" matches BTC/USDT). */
export function searchPairs(pairs: readonly Pair[], query: string): Pair[] {
  const q = query.trim().toUpperCase().replace(/\//g, '');
  if (!q) return [...pairs];
  return pairs.filter((p) => p.pairsName.replace('/', '').includes(q) || p.tokenCur.includes(q));
}

/** The route of a pair's detail page: /quotes/quotesDetail?type=bibi|contract&pairsName=... (spec section 2). */
export function detailPath(pairsName: string, type: 'SPOT' | 'CONTRACT'): string {
  return `/quotes/quotesDetail?type=${type === 'SPOT' ? 'bibi' : 'contract'}&pairsName=${encodeURIComponent(pairsName)}`;
}
