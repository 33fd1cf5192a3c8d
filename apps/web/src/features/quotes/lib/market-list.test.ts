// Proves the markets list rules: the sort header cycle, exact decimal sorting (no float rounding:
// "0.30" vs "0.3" equal, "10" > "9.99"), search with or without the slash, and the detail route.
import { describe, expect, it } from 'vitest';
import type { Pair } from '@exchange/api';
import { detailPath, nextSort, searchPairs, sortPairs } from './market-list';

const pair = (pairsName: string, price: string, updown: string, quoteVolume = '0'): Pair => {
  const [tokenCur = '', mainCur = ''] = pairsName.split('/');
  return {
    pairsName,
    tokenCur,
    mainCur,
    type: 'SPOT',
    price,
    chPrice: '0',
    updown,
    volume: '0',
    quoteVolume,
    high: '0',
    low: '0',
    priceDecimals: 2,
    qtyDecimals: 4,
    tickSize: '0.01',
    stepSize: '0.0001',
    minQty: '0.0001',
    minNotional: '5',
    isNew: false,
    demoData: false,
  };
};

const list = [pair('ETH/USDT', '9.99', '-1.20', '500'), pair('BTC/USDT', '10', '0.30', '900'), pair('ADA/USDT', '0.35', '12.5', '100')];

describe('nextSort', () => {
  it('cycles desc -> asc -> none for one column and restarts on another', () => {
    const a = nextSort({ key: null, dir: null }, 'price');
    expect(a).toEqual({ key: 'price', dir: 'desc' });
    const b = nextSort(a, 'price');
    expect(b).toEqual({ key: 'price', dir: 'asc' });
    expect(nextSort(b, 'price')).toEqual({ key: null, dir: null });
    expect(nextSort(b, 'change')).toEqual({ key: 'change', dir: 'desc' });
  });
});

describe('sortPairs', () => {
  it('sorts prices exactly as decimals', () => {
    expect(sortPairs(list, { key: 'price', dir: 'desc' }).map((p) => p.pairsName)).toEqual(['BTC/USDT', 'ETH/USDT', 'ADA/USDT']);
    expect(sortPairs(list, { key: 'price', dir: 'asc' }).map((p) => p.price)).toEqual(['0.35', '9.99', '10']);
  });
  it('sorts by signed change, by name and by volume, and keeps the order without a sort', () => {
    expect(sortPairs(list, { key: 'change', dir: 'desc' }).map((p) => p.updown)).toEqual(['12.5', '0.30', '-1.20']);
    expect(sortPairs(list, { key: 'name', dir: 'asc' }).map((p) => p.tokenCur)).toEqual(['ADA', 'BTC', 'ETH']);
    expect(sortPairs(list, { key: 'volume', dir: 'desc' }).map((p) => p.tokenCur)).toEqual(['BTC', 'ETH', 'ADA']);
    expect(sortPairs(list, { key: null, dir: null })).toEqual(list);
  });
});

describe('searchPairs', () => {
  it('matches case-insensitively with or without the slash', () => {
    expect(searchPairs(list, 'btc').map((p) => p.pairsName)).toEqual(['BTC/USDT']);
    expect(searchPairs(list, 'ethu').map((p) => p.pairsName)).toEqual(['ETH/USDT']);
    expect(searchPairs(list, 'ada/usdt').map((p) => p.pairsName)).toEqual(['ADA/USDT']);
    expect(searchPairs(list, '  ')).toHaveLength(3);
    expect(searchPairs(list, 'xyz')).toEqual([]);
  });
});

describe('detailPath', () => {
  it('uses bibi for spot and contract for contracts', () => {
    expect(detailPath('BTC/USDT', 'SPOT')).toBe('/quotes/quotesDetail?type=bibi&pairsName=BTC%2FUSDT');
    expect(detailPath('ETH/USDT', 'CONTRACT')).toBe('/quotes/quotesDetail?type=contract&pairsName=ETH%2FUSDT');
  });
});
