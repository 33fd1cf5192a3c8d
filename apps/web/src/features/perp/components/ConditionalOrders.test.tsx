// Component test of the conditional orders list (ConditionalOrders): the skeleton while the first answer is awaited,
// the open list with trigger, working price, size and Cancel (which sends cancelConditionalOrder with the order
// number), the history with each state (Triggered with the order it became, Cancelled, Expired with its reason) in en
// and zh, and the empty texts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { ContractConditionalOrder, ContractConditionalPage, ContractMarket } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { ConditionalOrders } from './ConditionalOrders';

const market = { symbol: 'BTC/USDT', priceDecimals: 2 } as ContractMarket;
const order = (o: Partial<ContractConditionalOrder>): ContractConditionalOrder => ({
  orderId: '11',
  clientOrderId: '',
  symbol: 'BTC/USDT',
  side: 'SELL',
  type: 'STOP_MARKET',
  orderType: 'MARKET',
  state: 'PENDING',
  stopPrice: '49000.00',
  price: '',
  workingType: 'MARK_PRICE',
  quantity: '0.040',
  lots: 0,
  reduceOnly: true,
  closePosition: false,
  priceProtect: false,
  callbackRate: '',
  activationPrice: '',
  trailingRef: '',
  orderStatus: 'NEW',
  filledQty: '0.000',
  avgPrice: '',
  expireReason: '',
  expireMessage: '',
  createTime: 1_700_000_000_000,
  triggerTime: 0,
  updateTime: 1_700_000_000_000,
  ...o,
});
const page = (records: ContractConditionalOrder[]): ContractConditionalPage => ({ records, total: records.length, page: 1, pageSize: 20 });

function setup(lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: lang });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <ConditionalOrders market={market} />
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const history = page([
  order({ orderId: '13', state: 'EXPIRED', orderStatus: 'EXPIRED', triggerTime: 1_700_000_100_000, expireReason: 'no_position', expireMessage: 'No position' }),
  order({ orderId: '12', state: 'TRIGGERED', orderStatus: 'FILLED', triggerTime: 1_700_000_050_000, avgPrice: '48900.00', filledQty: '0.040' }),
  order({ orderId: '11', state: 'CANCELLED', orderStatus: 'CANCELED', workingType: 'CONTRACT_PRICE' }),
]);

describe('ConditionalOrders', () => {
  it('lists open orders with trigger, working price and size, and cancels one by its number', async () => {
    const calls = mockApi({
      'contract/contract/getConditionalOrders': (f: Record<string, string>) => (f.tab === 'open' ? page([order({})]) : history),
      'contract/contract/cancelConditionalOrder': order({ state: 'CANCELLED' }),
    });
    setup();
    expect(screen.getByRole('status')).toBeInTheDocument();
    const card = await screen.findByTestId('conditional-order');
    expect(within(card).getByTestId('cond-type')).toHaveTextContent('Stop-market');
    expect(card).toHaveTextContent('49,000.00');
    expect(card).toHaveTextContent('Mark');
    expect(card).toHaveTextContent('0.040');
    fireEvent.click(within(card).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'contract/contract/cancelConditionalOrder')?.form).toEqual({ orderId: '11' }));
    expect(calls.find((c) => c.path === 'contract/contract/getConditionalOrders')?.form).toMatchObject({ tab: 'open', symbol: 'BTC/USDT' });
  });

  it.each([
    ['en', 'History', ['Expired', 'Triggered', 'Cancelled'], 'Reason: No position', 'Last'],
    ['zh', '历史', ['已失效', '已触发', '已撤销'], '原因: 暂无持仓', '最新'],
  ] as const)('shows the history with each state and the reason of an expired one (%s)', async (lang, tab, states, reason, last) => {
    mockApi({
      'contract/contract/getConditionalOrders': (f: Record<string, string>) =>
        f.tab === 'open' ? page([]) : lang === 'zh' ? page(history.records.map((r) => (r.expireReason ? { ...r, expireMessage: '暂无持仓' } : r))) : history,
    });
    setup(lang);
    await screen.findByText(lang === 'en' ? 'No open conditional orders' : '暂无条件单');
    fireEvent.click(screen.getByRole('tab', { name: tab }));
    await waitFor(() => expect(screen.getAllByTestId('cond-state').map((s) => s.textContent)).toEqual([...states]));
    expect(screen.getByTestId('cond-reason')).toHaveTextContent(reason);
    const cards = screen.getAllByTestId('conditional-order');
    expect(cards[1]).toHaveTextContent('48,900.00');
    expect(cards[1]).toHaveTextContent('12');
    expect(cards[2]).toHaveTextContent(last);
    expect(screen.queryByRole('button', { name: lang === 'en' ? 'Cancel' : '撤单' })).not.toBeInTheDocument();
  });
});
