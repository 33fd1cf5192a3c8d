/** Link of a pair's detail page (quotes feature): /quotes/quotesDetail?type=bibi|contract&pairsName=.. */
import type { MarketType } from '@exchange/api';

/** Detail URL of `pairsName` of market `type`. */
export function pairDetailPath(pairsName: string, type: MarketType = 'SPOT'): string {
  return `/quotes/quotesDetail?type=${type === 'CONTRACT' ? 'contract' : 'bibi'}&pairsName=${encodeURIComponent(pairsName)}`;
}
