// Component test of the index price components: the strip's index price opens the sheet, which lists each source of
// the last tick with its price, weight (percent, rounded down) and status in en and zh, says where the index comes
// from, and says when it is stale.
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { ContractMarket, IndexComponents } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { mockApi } from '../../../test/mock-api';
import { MarkStrip } from './MarkStrip';
import { weightPercent } from './IndexComponentsSheet';

const market = {
  symbol: 'BTC/USDT',
  priceDecimals: 2,
  markPrice: '61690.10',
  indexPrice: '61689.07',
  fundingRate: '0.010000',
  nextFundingTime: 0,
} as ContractMarket;

const live: IndexComponents = {
  symbol: 'BTC/USDT',
  mode: 'live',
  time: 1_800_000_000_000,
  price: '61689.07',
  stale: false,
  reason: null,
  components: [
    { source: 'binance', price: '61685.99', weight: '0.6', status: 'used' },
    { source: 'kucoin', price: '74023.1', weight: '0.39999999', status: 'clamped' },
    { source: 'okx', price: '61680', weight: '0', status: 'stale' },
  ],
};

function setup() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MarkStrip market={market} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => void i18n.changeLanguage('en'));

describe('IndexComponentsSheet', () => {
  it('opens from the index price and lists the live sources with price, weight and status', async () => {
    await i18n.changeLanguage('en');
    const calls = mockApi({ 'contract/market/getIndexComponents': live });
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Index price components' }));
    const sheet = await screen.findByRole('dialog', { name: 'Index price components' });
    const rows = await within(sheet).findAllByRole('row');
    expect(rows.map((r) => Array.from(r.querySelectorAll('th,td')).map((c) => c.textContent))).toEqual([
      ['Source', 'Price', 'Weight', 'Status'],
      ['Binance', '61,685.99', '60.00%', 'Used'],
      ['KuCoin', '74,023.10', '39.99%', 'Clamped'],
      ['OKX', '61,680.00', '0.00%', 'Stale'],
    ]);
    expect(within(sheet).getByTestId('index-mode').textContent).toMatch(/^Live index: 2 of 3 outside exchanges/);
    expect(within(sheet).queryByTestId('index-stale')).toBeNull();
    expect(within(sheet).getByTestId('index-total').textContent).toMatch(/^Index price: 61,689\.07 · /);
    expect(calls.find((c) => c.path === 'contract/market/getIndexComponents')?.form).toEqual({ symbol: 'BTC/USDT' });
  });

  it('names the replay sources and a stale index in zh', async () => {
    await i18n.changeLanguage('zh');
    mockApi({
      'contract/market/getIndexComponents': {
        ...live,
        mode: 'replay',
        stale: true,
        reason: 'too_few_sources',
        components: [
          { source: 'reference', price: '61690.00', weight: '0.5', status: 'used' },
          { source: 'lastTrade', price: '61688.00', weight: '0.25', status: 'used' },
          { source: 'mid', price: '61689.50', weight: '0.25', status: 'used' },
        ],
      },
    });
    setup();
    fireEvent.click(screen.getByRole('button', { name: '指数价格成分' }));
    const sheet = await screen.findByRole('dialog', { name: '指数价格成分' });
    await within(sheet).findByTestId('index-source-reference');
    expect(within(sheet).getByTestId('index-source-reference').textContent).toBe('回放市场61,690.0050.00%已采用');
    expect(within(sheet).getByTestId('index-source-lastTrade').textContent).toBe('现货最新成交价61,688.0025.00%已采用');
    expect(within(sheet).getByTestId('index-mode').textContent).toMatch(/^演示指数/);
    expect(within(sheet).getByRole('alert').textContent).toMatch(/指数失效/);
  });

  it('shows a weight as a percent rounded down', () => {
    expect(weightPercent('0.33333333')).toBe('33.33%');
    expect(weightPercent('0.99999999')).toBe('99.99%');
    expect(weightPercent('1')).toBe('100.00%');
    expect(weightPercent('0')).toBe('0.00%');
  });
});
