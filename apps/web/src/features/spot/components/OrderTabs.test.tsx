// Component test of the trading screen's order tabs: Open orders with their count, Order
// history and Trade history of the pair, each from its endpoint (getEntrustList current/history, getTradeList with
// the pair), the fills shown with side, role, price, amount, total and fee at their precision; logged out, a login
// prompt and no count. In en and zh. The two legs of an OCO list are one card with one Cancel, which cancels the list
// (cancelOcoEntrust with its id).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { Entrust, UserTrade } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { OrderTabs } from './OrderTabs';
import { NO_TRIGGER } from '../lib/conditional-order';
import { stubPendingFetch } from '../../../test/pending-fetch';

const open: Entrust = {
  id: '7',
  clientOrderId: '',
  pairsName: 'BTC/USDT',
  side: 'SELL',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '120000.00',
  amount: '0.00500',
  total: '',
  dealAmount: '0.00000',
  dealTotal: '0.00000000',
  avgPrice: '',
  fee: '0.00000000',
  feeCur: 'USDT',
  status: 'NEW',
  createTime: 1,
  updateTime: 1,
  ...NO_TRIGGER,
};
const ended: Entrust = {
  ...open,
  id: '6',
  side: 'BUY',
  orderType: 'MARKET',
  price: '',
  amount: '',
  total: '1000.00000000',
  dealAmount: '0.01012',
  dealTotal: '999.99148000',
  avgPrice: '98813.39',
  fee: '0.00001012',
  feeCur: 'BTC',
  status: 'FILLED',
};
const fill: UserTrade = {
  tradeId: '55',
  orderId: '6',
  pairsName: 'BTC/USDT',
  side: 'BUY',
  price: '98813.39',
  amount: '0.01012',
  total: '999.99150680',
  fee: '0.00001012',
  feeCur: 'BTC',
  role: 'TAKER',
  time: 1,
};

/** fetch answering each list endpoint with one record; returns the mock to read the requests. */
function stubApi() {
  const page = (records: unknown[]) => ({ records, total: records.length, page: 1, pageSize: 20 });
  const fetch = vi.fn(async (url: string) => {
    const u = String(url);
    const result = u.includes('getTradeList') ? page([fill]) : u.includes('type=history') ? page([ended]) : page([open]);
    return new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function setup(login: boolean, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState(
    login ? { token: 'tok', userId: '1', isLogin: true, currentLangue: lang } : { token: '', userId: '', isLogin: false, currentLangue: lang },
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <OrderTabs pairsName="BTC/USDT" />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OrderTabs', () => {
  it('shows open orders with their count, the order history and the trade history of the pair', async () => {
    const fetch = stubApi();
    setup(true);
    const tabs = screen.getByRole('tablist', { name: 'Orders' });
    expect(await within(tabs).findByRole('tab', { name: 'Open orders (1)' })).toHaveAttribute('aria-selected', 'true');
    const openList = await screen.findByRole('list', { name: 'Open orders' });
    expect(within(openList).getByRole('listitem', { name: 'BTC/USDT Sell' })).toHaveTextContent('120,000.00');

    fireEvent.click(within(tabs).getByRole('tab', { name: 'Order history' }));
    const history = await screen.findByRole('list', { name: 'Order history' });
    expect(within(history).getByRole('listitem', { name: 'BTC/USDT Buy' })).toHaveTextContent('98,813.39');

    fireEvent.click(within(tabs).getByRole('tab', { name: 'Trade history' }));
    const trades = await screen.findByRole('list', { name: 'Trade history' });
    const row = within(trades).getByRole('listitem', { name: 'BTC/USDT Buy' });
    const cells = [...row.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]);
    expect(cells).toEqual([
      ['Price (USDT)', '98,813.39'],
      ['Amount (BTC)', '0.01012'],
      ['Total (USDT)', '999.9915068'],
      ['Fee', '0.00001012 BTC'],
    ]);
    expect(row).toHaveTextContent('Taker');
    const tradeCall = fetch.mock.calls.map((c) => String(c[0])).find((u) => u.includes('getTradeList'));
    expect(tradeCall).toContain('pairsName=BTC%2FUSDT');
    expect(screen.getByRole('link', { name: 'All orders' })).toHaveAttribute('href', '/transaction/allTransaction');
  });

  it('shows the skeleton, never "No orders", until the first answer; a failure shows the load-failure block, not the empty text', async () => {
    stubPendingFetch();
    setup(true);
    expect(await screen.findByRole('status', { name: 'Loading' })).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('No orders')).toBeNull();
    vi.unstubAllGlobals();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () => new Response(JSON.stringify({ status: 'FAILED', errorCode: 'system_error', errorMessage: 'Server busy', result: null }), { status: 200 }),
      ),
    );
    setup(true);
    expect((await screen.findAllByRole('alert')).length).toBeGreaterThan(0);
    expect(screen.queryByText('No orders')).toBeNull();
  });

  it('names the tabs in zh', async () => {
    stubApi();
    setup(true, 'zh');
    const tabs = screen.getByRole('tablist', { name: '委托' });
    expect(await within(tabs).findByRole('tab', { name: '当前委托 (1)' })).toBeInTheDocument();
    fireEvent.click(within(tabs).getByRole('tab', { name: '历史成交' }));
    const row = within(await screen.findByRole('list', { name: '历史成交' })).getByRole('listitem', { name: 'BTC/USDT 买入' });
    expect(row).toHaveTextContent('吃单');
    expect(row).toHaveTextContent('手续费0.00001012 BTC');
  });

  it('shows the two legs of an OCO list as one card beside a plain order; its one Cancel cancels the list', async () => {
    const leg = { ...open, timeInForce: 'POST_ONLY', orderListId: '20', listLeg: 'TAKE_PROFIT' as const };
    const legs = [
      {
        ...leg,
        id: '22',
        price: '90000.00',
        stopType: 'STOP_LOSS' as const,
        stopPrice: '91000.00',
        triggerState: 'PENDING' as const,
        listLeg: 'STOP_LOSS' as const,
      },
      { ...leg, id: '21' },
      open,
    ];
    const ok = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
    const fetch = vi.fn(async (url: string) =>
      String(url).includes('cancelOcoEntrust') ? ok({}) : ok({ records: legs, total: legs.length, page: 1, pageSize: 20 }),
    );
    vi.stubGlobal('fetch', fetch);
    setup(true);
    const openList = await screen.findByRole('list', { name: 'Open orders' });
    const cards = [...openList.children];
    expect(cards).toHaveLength(2);
    const oco = within(openList).getByRole('listitem', { name: 'BTC/USDT Sell OCO' });
    expect(
      within(oco)
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Limit', 'Stop-limit']);
    expect(within(oco).getByRole('listitem', { name: 'Stop-limit' })).toHaveTextContent('≤ 91,000.00');
    const cancels = within(oco).getAllByRole('button', { name: 'Cancel' });
    expect(cancels).toHaveLength(1);
    fireEvent.click(cancels[0]!);
    await vi.waitFor(() => expect(fetch.mock.calls.some((c) => String(c[0]).includes('cancelOcoEntrust'))).toBe(true));
    const call = fetch.mock.calls.find((c) => String(c[0]).includes('cancelOcoEntrust')) as unknown as [string, RequestInit];
    expect(Object.fromEntries(new URLSearchParams(String(call[1].body)))).toEqual({ orderListId: '20' });
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('/cancelEntrust'))).toBe(false);
  });

  it('asks a visitor to log in, without a count or a request', () => {
    const fetch = stubApi();
    setup(false);
    expect(screen.getByRole('tab', { name: 'Open orders' })).toBeInTheDocument();
    expect(screen.getByText('Log in to see your orders')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    expect(screen.getByText('Log in to see your orders')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });
});
