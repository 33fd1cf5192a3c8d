// Component test of the order area's tabs (PositionTabs): a pending conditional order, which the engine also lists
// among the open orders, is counted and shown under Conditional only, not again under Current orders as the plain
// MARKET order it becomes.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { ContractConditionalOrder, ContractMarket, ContractOrder } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { PositionTabs } from './PositionTabs';

const market = { symbol: 'BTC/USDT', priceDecimals: 2, markPrice: '50000.00' } as ContractMarket;
const plain = (orderId: string) =>
  ({
    orderId,
    symbol: 'BTC/USDT',
    side: 'SELL',
    orderType: 'MARKET',
    tradeType: 'CLOSE_LONG',
    trigger: '',
    status: 'NEW',
    price: '',
    avgPrice: '',
    lots: 1,
    quantity: '0.020',
    filledQty: '0.000',
    revocableLots: 1,
    leverage: 20,
    entrustValue: '0',
    margin: '0',
    fee: '0',
    realizedPnl: '0',
    profitRate: '0.00',
    takeProfit: '',
    stopLoss: '',
    openTime: 1,
    closeTime: 0,
  }) as unknown as ContractOrder;
const pending = {
  orderId: '11',
  symbol: 'BTC/USDT',
  side: 'SELL',
  type: 'STOP_MARKET',
  orderType: 'MARKET',
  state: 'PENDING',
  stopPrice: '49000.00',
  price: '',
  workingType: 'MARK_PRICE',
  quantity: '0.020',
  reduceOnly: true,
  closePosition: false,
  callbackRate: '',
  activationPrice: '',
  createTime: 1,
  triggerTime: 0,
} as unknown as ContractConditionalOrder;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('PositionTabs', () => {
  it('shows a pending conditional order under Conditional only', async () => {
    mockApi({
      'contract/contract/getPositions': [],
      'contract/contract/getOrders': { records: [plain('12'), plain('11')], total: 2, page: 1, pageSize: 20 },
      'contract/contract/getConditionalOrders': (f: Record<string, string>) => ({
        records: f.tab === 'open' ? [pending] : [],
        total: f.tab === 'open' ? 1 : 0,
        page: 1,
        pageSize: 20,
      }),
    });
    void i18n.changeLanguage('en');
    useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: 'en' });
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={qc}>
        <I18nextProvider i18n={i18n}>
          <MemoryRouter>
            <PositionTabs market={market} markets={[market]} />
          </MemoryRouter>
        </I18nextProvider>
      </QueryClientProvider>,
    );
    const tabs = screen.getByRole('tablist', { name: 'Positions and orders' });
    expect(await within(tabs).findByRole('tab', { name: 'Current orders (1)' })).toBeInTheDocument();
    expect(within(tabs).getByRole('tab', { name: 'Conditional (1)' })).toBeInTheDocument();
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Current orders (1)' }));
    const orders = await screen.findAllByTestId('contract-order');
    expect(orders).toHaveLength(1);
    expect(orders[0]).toHaveTextContent('12');
    expect(orders[0]).not.toHaveTextContent(/\b11\b/);
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Conditional (1)' }));
    expect(await screen.findByTestId('conditional-order')).toHaveTextContent('49,000.00');
  });
});
