// The margin balance on the contract screen is wallet balance + unrealized PnL at the live mark prices (Binance's
// definition), on exact decimal strings: a long of 0.020 TSTP at 50,000 whose mark moved to 51,000 adds 20 USDT to a
// wallet of 1,000; a short elsewhere at its own mark subtracts its loss; without positions the server's figure stays.
import { describe, expect, it } from 'vitest';
import type { ContractPosition } from '@exchange/api';
import { liveMarginBalance, marksOf } from './margin-balance';

const longTstp0p02At50k = {
  symbol: 'TSTP/USDT',
  side: 'LONG',
  quantity: '0.020',
  markPrice: '50000.00',
  unrealizedPnl: '0.00000000',
  margin: '25.00000000',
  positionValue: '1000.00000000',
  yieldRate: '0.00',
} as ContractPosition;
const shortEth1At3000 = {
  ...longTstp0p02At50k,
  symbol: 'ETH/USDT',
  side: 'SHORT',
  quantity: '1.000',
  markPrice: '3000.00',
  unrealizedPnl: '-5.00000000',
} as ContractPosition;
const wallet1000 = { walletBalance: '1000.00000000', marginBalance: '1000.00000000' };

describe('liveMarginBalance', () => {
  it('adds the unrealized PnL at the live mark to the wallet balance', () => {
    expect(liveMarginBalance(wallet1000, [longTstp0p02At50k], marksOf([{ symbol: 'TSTP/USDT', markPrice: '51000.00' }]))).toBe('1020.00000000');
  });

  it('sums every position, each at its market mark (a short loses as its mark rises)', () => {
    const marks = marksOf([
      { symbol: 'TSTP/USDT', markPrice: '49000.00' },
      { symbol: 'ETH/USDT', markPrice: '3010.00' },
    ]);
    // long: -20; short: -5 already, then -10 more
    expect(liveMarginBalance(wallet1000, [longTstp0p02At50k, shortEth1At3000], marks)).toBe('965.00000000');
  });

  it("keeps a position's own PnL without a mark, and the server's figure while positions are unknown", () => {
    expect(liveMarginBalance(wallet1000, [shortEth1At3000], new Map())).toBe('995.00000000');
    expect(liveMarginBalance({ walletBalance: '1000', marginBalance: '1012.5' }, undefined, new Map())).toBe('1012.5');
  });
});
