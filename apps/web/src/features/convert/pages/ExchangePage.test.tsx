// Page test of /exchange with a stubbed API: before any quote, the amount shows the least amount the market's order
// takes in the coin paid, from the pairs (USDT -> BTC: "Minimum 5 USDT"; swapped, BTC -> USDT: "Minimum 0.00011 BTC";
// in Chinese "最小兑换数量 5 USDT"); an amount below it asks for no quote, an amount at it does.
import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import type { ConvertPairs } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import ExchangePage from './ExchangePage';

const PAIRS: ConvertPairs = {
  coins: ['USDT', 'BTC'],
  pairs: [{ symbol: 'BTC/USDT', base: 'BTC', quote: 'USDT', feeRate: '0.10', baseStep: '0.00001', minQuote: '5.00000000', minBase: '0.00011000' }],
};
const ASSETS = {
  totalUsdt: '0',
  totalCny: '0',
  usdtCnyRate: '7.1',
  accounts: [
    {
      type: 'SPOT',
      totalUsdt: '0',
      totalCny: '0',
      items: [
        { coin: 'USDT', available: '100.00000000', frozen: '0', current: '100', convertedUsdt: '100', convertedCny: '0' },
        { coin: 'BTC', available: '0.01000000', frozen: '0', current: '0.01', convertedUsdt: '500', convertedCny: '0' },
      ],
    },
  ],
};
const QUOTE = {
  quoteId: 'cv000000000000000000000001',
  from: 'USDT',
  to: 'BTC',
  symbol: 'BTC/USDT',
  amount: '5.00000000',
  spend: '5.00000000',
  receive: '0.00009990',
  fee: '0.00000010',
  feeRate: '0.10',
  price: '0.00002000',
  expiresAt: Date.now() + 10_000,
};

describe('ExchangePage', () => {
  it('shows the minimum of both directions before a quote and asks for none below it', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    const calls = mockApi({ 'exchange/convert/getPairs': PAIRS, 'asset/asset/getAssets': ASSETS, 'exchange/convert/quote': QUOTE });
    renderPage(<ExchangePage />, { path: '/exchange' });
    expect(await screen.findByTestId('minimum')).toHaveTextContent('Minimum 5.00 USDT');
    const amount = screen.getByRole('textbox', { name: 'Amount to convert' });
    fireEvent.change(amount, { target: { value: '1.23456789' } });
    const preview = screen.getByRole('button', { name: 'Preview conversion' });
    expect(preview).toBeDisabled();
    fireEvent.click(preview);
    expect(calls.some((c) => c.path === 'exchange/convert/quote')).toBe(false);
    fireEvent.change(amount, { target: { value: '5' } });
    expect(preview).toBeEnabled();
    fireEvent.click(preview);
    expect(await screen.findByTestId('receive')).toHaveTextContent('0.0000999');
    expect(calls.find((c) => c.path === 'exchange/convert/quote')?.form).toMatchObject({ from: 'USDT', to: 'BTC', amount: '5' });

    fireEvent.click(screen.getByRole('button', { name: 'Swap the coins' }));
    expect(screen.getByTestId('minimum')).toHaveTextContent('Minimum 0.00011 BTC');
  });

  it('says the minimum in Chinese', async () => {
    useAppStore.setState({ token: 't', userId: '7', isLogin: true });
    mockApi({ 'exchange/convert/getPairs': PAIRS, 'asset/asset/getAssets': ASSETS });
    renderPage(<ExchangePage />, { path: '/exchange', lang: 'zh' });
    expect(await screen.findByTestId('minimum')).toHaveTextContent('最小兑换数量 5.00 USDT');
  });
});
