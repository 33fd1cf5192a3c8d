// Proves the assets view rules: small balances (< 1 USDT or zero) are hidden only when asked, coins
// sort by value exactly, the OTHER tab is an empty account, and masking replaces amounts.
import { describe, expect, it } from 'vitest';
import type { AssetAccount, AssetItem } from '@exchange/api';
import { accountOf, isSmallBalance, masked, visibleItems } from './assets-view';

const item = (coin: string, current: string, convertedUsdt: string): AssetItem => ({
  coin,
  available: current,
  frozen: '0',
  current,
  convertedUsdt,
  convertedCny: '0',
});
const items = [item('USDT', '10000.00', '10000.00'), item('BTC', '0.00001', '0.60'), item('ETH', '0', '0'), item('LTC', '1.5', '120.75')];

describe('assets view', () => {
  it('classifies small balances', () => {
    expect(items.map(isSmallBalance)).toEqual([false, true, true, false]);
    expect(isSmallBalance(item('X', '1', '1.00'))).toBe(false);
    expect(isSmallBalance(item('X', '1', '0.99999999'))).toBe(true);
  });
  it('sorts by value and hides small balances on request', () => {
    expect(visibleItems(items, false).map((i) => i.coin)).toEqual(['USDT', 'LTC', 'BTC', 'ETH']);
    expect(visibleItems(items, true).map((i) => i.coin)).toEqual(['USDT', 'LTC']);
  });
  it('gives an empty OTHER account and finds the others', () => {
    const accounts: AssetAccount[] = [{ type: 'SPOT', totalUsdt: '5', totalCny: '36', items }];
    expect(accountOf(accounts, 'SPOT').totalCny).toBe('36');
    expect(accountOf(accounts, 'OTHER')).toEqual({ type: 'ASSETS', totalUsdt: '0', totalCny: '0', items: [] });
    expect(accountOf(accounts, 'OTC').items).toEqual([]);
  });
  it('masks hidden amounts', () => {
    expect(masked('1.00', true)).toBe('****');
    expect(masked('1.00', false)).toBe('1.00');
  });
});
