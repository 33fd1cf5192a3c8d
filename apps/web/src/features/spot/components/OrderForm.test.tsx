// Component test of the spot order form: labelled inputs shown with thousands separators, tick
// steppers, the percent selector computing the amount exactly from the SPOT balance, the estimated
// total, the messages under the fields before sending (the step "Amount must be a multiple
// of 0.0001 ETH" for a too-fine amount that stays as typed, "Minimum order value is 5 USDT", the
// balance; in en and zh), the body sent to setEntrust with a client order id of the server's pattern, a market
// fill shown at once (filled quantity, average price, total, fee, the rest expired), the price impact warning
// before a market order the book would fill more than 1% away (cancel sends nothing, continue sends), and the
// logged-out form (Log in and Sign up with a way back instead of Buy, no balance).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { Assets, Entrust, Member, Pair } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { OrderForm } from './OrderForm';
import { NO_TRIGGER } from '../lib/conditional-order';

const pair: Pair = {
  pairsName: 'ETH/USDT',
  tokenCur: 'ETH',
  mainCur: 'USDT',
  type: 'SPOT',
  price: '100.00',
  chPrice: '710.00',
  updown: '1.00',
  volume: '0',
  quoteVolume: '0',
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
const item = (coin: string, available: string) => ({ coin, available, frozen: '0', current: available, convertedUsdt: '0', convertedCny: '0' });
const assets: Assets = {
  totalUsdt: '1000',
  totalCny: '7100',
  usdtCnyRate: '7.1',
  accounts: [{ type: 'SPOT', totalUsdt: '1000', totalCny: '7100', items: [item('USDT', '1000.00'), item('ETH', '0.5')] }],
};
const member: Member = { userId: '1', uuid: 'u1', nickName: 'alice', phone: '', mail: 'a@b.c', areaCode: '86', cardNo: '', cardState: '' };

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

/** A book of ETH/USDT: asks 100.00 x 1, 100.50 x 1, 110.00 x 10; bids 99.00 x 1, 90.00 x 10. */
const depth = {
  seq: 1,
  asks: [
    ['100.00', '1.0000'],
    ['100.50', '1.0000'],
    ['110.00', '10.0000'],
  ],
  bids: [
    ['99.00', '1.0000'],
    ['90.00', '10.0000'],
  ],
};

function setup(login: boolean, lang: 'en' | 'zh' = 'en', opts: { side?: 'BUY' | 'SELL'; book?: unknown } = {}) {
  void i18n.changeLanguage(lang);
  useAppStore.setState(
    login ? { token: 'tok', userId: '1', isLogin: true, currentLangue: lang } : { token: '', userId: '', isLogin: false, currentLangue: lang },
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(['asset', '1', 'assets'], assets);
  qc.setQueryData(['member', '1'], member);
  qc.setQueryData(['ws', 'depth', 'SPOT', 'ETH/USDT'], opts.book ?? depth);
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/transaction']}>
          <Routes>
            <Route path="/transaction" element={<OrderForm pair={pair} side={opts.side ?? 'BUY'} onSideChange={() => {}} priceFill={null} />} />
            <Route path="/login" element={<Where />} />
            <Route path="/register" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('OrderForm', () => {
  it('explains a price off the tick, steps by tick and fills the amount from a percent of the balance', async () => {
    setup(true);
    const price = screen.getByLabelText('Price') as HTMLInputElement;
    expect(price.value).toBe('100.00');
    fireEvent.change(price, { target: { value: '100.129' } });
    expect(price.value).toBe('100.129');
    expect(screen.getByRole('alert')).toHaveTextContent('Price must be a multiple of 0.01 USDT');
    expect(price).toHaveAttribute('aria-invalid', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Increase Price' }));
    expect(price.value).toBe('100.13');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.change(price, { target: { value: '100' } });
    await waitFor(() => expect(screen.getByTestId('available').textContent).toBe('1,000.00 USDT'));
    fireEvent.click(screen.getByRole('button', { name: '50%' }));
    expect((screen.getByLabelText('Amount') as HTMLInputElement).value).toBe('5.0000');
    expect(screen.getByText('500.00 USDT')).toBeInTheDocument();
  });

  it('refuses an order above the balance with the insufficient-balance message, without a request', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    setup(true);
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '20' } });
    // Under the amount as soon as it is typed, and again as a toast on Buy.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Insufficient balance'));
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    await waitFor(() => expect(screen.getAllByText('Insufficient balance')).toHaveLength(2));
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['en', 'Amount', 'Buy ETH', 'Amount must be a multiple of 0.0001 ETH', 'Minimum order value is 5 USDT'],
    ['zh', '数量', '买入 ETH', '数量须为 0.0001 ETH 的整数倍', '最小下单金额为 5 USDT'],
  ] as const)(
    'says the step and the minimum order value under the amount before Buy, without a request (%s)',
    async (lang, amountLabel, buy, stepText, minText) => {
      const fetch = vi.fn();
      vi.stubGlobal('fetch', fetch);
      setup(true, lang);
      const amount = screen.getByLabelText(amountLabel) as HTMLInputElement;
      fireEvent.change(amount, { target: { value: '0.000001' } });
      // Kept as typed (not cut to "0.0000"), and explained.
      expect(amount.value).toBe('0.000001');
      expect(screen.getByRole('alert')).toHaveTextContent(stepText);
      fireEvent.change(amount, { target: { value: '0.01' } });
      expect(screen.getByRole('alert')).toHaveTextContent(minText);
      fireEvent.click(screen.getByRole('button', { name: buy }));
      await waitFor(() => expect(screen.getAllByText(minText)).toHaveLength(2));
      fireEvent.change(amount, { target: { value: '0.05' } });
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(fetch).not.toHaveBeenCalled();
    },
  );

  it('shows the price with thousands separators and keeps the caret after the digit typed', () => {
    setup(true);
    const price = screen.getByLabelText('Price') as HTMLInputElement;
    price.focus();
    fireEvent.change(price, { target: { value: '65000.5' } });
    expect(price.value).toBe('65,000.5');
    // A digit typed after "6": the value becomes 665,000.5 and the caret stays after the second 6.
    price.setSelectionRange(1, 1);
    fireEvent.change(price, { target: { value: '665,000.5', selectionStart: 2, selectionEnd: 2 } });
    expect(price.value).toBe('665,000.5');
    expect(price.selectionStart).toBe(2);
    fireEvent.change(price, { target: { value: '6,665,000.5', selectionStart: 2, selectionEnd: 2 } });
    expect(price.value).toBe('6,665,000.5');
  });

  it('sends a valid order with a client order id', async () => {
    const ok = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true);
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '1.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls.find((c) => String(c[0]).includes('setEntrust')) as unknown as [string, RequestInit];
    expect(url).toBe('/api/entrust/entrust/setEntrust');
    const body = new URLSearchParams(String(init.body));
    expect(Object.fromEntries([...body].filter(([k]) => k !== 'clientOrderId'))).toEqual({
      pairsName: 'ETH/USDT',
      side: 'BUY',
      orderType: 'LIMIT',
      price: '100.00',
      amount: '1.5',
      timeInForce: 'GTC',
    });
    expect(body.get('clientOrderId')).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
  });

  it.each([
    ['en', 'Log in', 'Sign up', 'Buy ETH', 'Available'],
    ['zh', '登录', '注册', '买入 ETH', '可用'],
  ] as const)('shows a visitor Log in and Sign up instead of Buy, and no balance (%s)', async (lang, logIn, signUp, buy, available) => {
    setup(false, lang);
    expect(screen.queryByRole('button', { name: buy })).not.toBeInTheDocument();
    expect(screen.queryByText(available)).not.toBeInTheDocument();
    expect(screen.queryByTestId('available')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: signUp })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: logIn }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/login?redirect=%2Ftransaction'));
  });

  it('sends a visitor to sign up with a way back', async () => {
    setup(false);
    fireEvent.click(screen.getByRole('button', { name: 'Sign up' }));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/register?redirect=%2Ftransaction'));
  });

  /** fetch answering setEntrust with `answer` and getAssets with the assets; returns the mock. */
  function stubOrders(answer: Partial<Entrust>) {
    const ok = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok(answer)));
    vi.stubGlobal('fetch', fetch);
    return fetch;
  }
  const marketFill: Entrust = {
    id: '9',
    clientOrderId: 'c',
    pairsName: 'ETH/USDT',
    side: 'BUY',
    orderType: 'MARKET',
    timeInForce: 'IOC',
    price: '',
    amount: '1.5000',
    total: '',
    dealAmount: '1.2000',
    dealTotal: '120.30000000',
    avgPrice: '100.25',
    fee: '0.00120000',
    feeCur: 'ETH',
    status: 'EXPIRED',
    createTime: 1,
    updateTime: 1,
    ...NO_TRIGGER,
  };
  const marketTab = () => fireEvent.click(screen.getByRole('tab', { name: 'Market' }));

  it('shows a market fill at once: filled quantity, average price, total, fee and the rest expired', async () => {
    stubOrders(marketFill);
    setup(true);
    marketTab();
    fireEvent.click(screen.getByRole('tab', { name: 'By amount' }));
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '1.5' } });
    // A toast of an earlier test may still be closing: this order must add none.
    const placedToasts = screen.queryAllByText('Order placed').length;
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    const dialog = await screen.findByRole('dialog', { name: 'Order partially filled' });
    expect(dialog).toHaveTextContent('Market Buy · ETH/USDT');
    const rows = [...dialog.querySelectorAll('.sp-kv-row')].map((r) => [r.querySelector('dt')!.textContent, r.querySelector('dd')!.textContent]);
    expect(rows).toEqual([
      ['Filled', '1.2000 ETH'],
      ['Avg. price', '100.25 USDT'],
      ['Total', '120.30 USDT'],
      ['Fee', '0.0012 ETH'],
      ['Not filled, expired', '0.3000 ETH'],
    ]);
    expect(screen.queryAllByText('Order placed')).toHaveLength(placedToasts);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Order partially filled' })).not.toBeInTheDocument());
  });

  it('shows a filled market order in zh', async () => {
    stubOrders({ ...marketFill, status: 'FILLED', amount: '1.2000' });
    setup(true, 'zh');
    fireEvent.click(screen.getByRole('tab', { name: '市价' }));
    fireEvent.click(screen.getByRole('tab', { name: '按数量' }));
    fireEvent.change(screen.getByLabelText('数量'), { target: { value: '1.2' } });
    fireEvent.click(screen.getByRole('button', { name: '买入 ETH' }));
    const dialog = await screen.findByRole('dialog', { name: '委托已成交' });
    expect(dialog).toHaveTextContent('市价买入 · ETH/USDT');
    expect(dialog).toHaveTextContent('已成交1.2000 ETH');
    expect(dialog).toHaveTextContent('成交均价100.25 USDT');
    expect(dialog).toHaveTextContent('手续费0.0012 ETH');
    expect(dialog).not.toHaveTextContent('过期');
  });

  it('warns before a market order the book would fill more than 1% away; cancel sends nothing, continue sends', async () => {
    const fetch = stubOrders({ ...marketFill, status: 'FILLED', amount: '3.0000' });
    setup(true);
    marketTab();
    fireEvent.click(screen.getByRole('tab', { name: 'By amount' }));
    // 1 @ 100 + 1 @ 100.50 + 1 @ 110 = 310.50 for 3: average 103.50, 3.50% above the best ask.
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    const warn = await screen.findByRole('dialog', { name: 'Price impact warning' });
    expect(warn).toHaveTextContent('This market order may fill about 3.50% away from the best price.');
    expect(warn).toHaveTextContent('Est. average price103.50 USDT');
    expect(warn).toHaveTextContent('Best price100.00 USDT');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Price impact warning' })).not.toBeInTheDocument());
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue' }));
    await screen.findByRole('dialog', { name: 'Order filled' });
    expect(fetch.mock.calls.filter((c) => String(c[0]).includes('setEntrust'))).toHaveLength(1);
  });

  it('sends a market order within 1% of the best price without a warning', async () => {
    const fetch = stubOrders({ ...marketFill, status: 'FILLED', amount: '2.0000' });
    setup(true);
    marketTab();
    fireEvent.click(screen.getByRole('tab', { name: 'By amount' }));
    // 1 @ 100 + 1 @ 100.50: average 100.25, 0.25%.
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    await screen.findByRole('dialog', { name: 'Order filled' });
    expect(screen.queryByRole('dialog', { name: 'Price impact warning' })).not.toBeInTheDocument();
    expect(fetch.mock.calls.filter((c) => String(c[0]).includes('setEntrust'))).toHaveLength(1);
  });

  it('warns in zh when the book cannot fill a market sell, naming what it holds', async () => {
    const fetch = stubOrders({});
    setup(true, 'zh', { side: 'SELL', book: { seq: 1, asks: [], bids: [['99.00', '0.2000']] } });
    fireEvent.click(screen.getByRole('tab', { name: '市价' }));
    fireEvent.change(screen.getByLabelText('数量'), { target: { value: '0.5' } });
    fireEvent.click(screen.getByRole('button', { name: '卖出 ETH' }));
    const warn = await screen.findByRole('dialog', { name: '价格偏离提醒' });
    expect(warn).toHaveTextContent('盘口当前仅有 0.2000 ETH，订单其余部分将无法成交。');
    expect(warn).toHaveTextContent('约 0.00%');
    fireEvent.click(screen.getByRole('button', { name: '取消' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: '价格偏离提醒' })).not.toBeInTheDocument());
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(false);
  });
});

// Conditional orders: the type selector's stop-limit and trailing stop, the kind derived from the side and the trigger
// against the last price (100.00) said under the trigger field and in the confirmation, the refusals before sending
// (trigger at the last price, trailing delta out of 0.1%..20%), and the bodies sent.
describe('OrderForm conditional orders', () => {
  const ok = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
  const sentBody = (fetch: ReturnType<typeof vi.fn>) => {
    const call = fetch.mock.calls.find((c) => String(c[0]).includes('setEntrust')) as unknown as [string, RequestInit];
    return Object.fromEntries([...new URLSearchParams(String(call[1].body))].filter(([k]) => k !== 'clientOrderId'));
  };

  it('stop-limit SELL below the last price is a stop-loss, confirmed, then sent with stopType and stopPrice', async () => {
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'en', { side: 'SELL' });
    fireEvent.click(screen.getByRole('tab', { name: 'Stop' }));
    // A stop starts as a stop-limit: the "order when triggered" toggle on Limit.
    const exec = within(screen.getByRole('tablist', { name: 'Order when triggered' }));
    expect(exec.getByRole('tab', { name: 'Limit' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '95' } });
    expect(screen.getByTestId('sp-stop-hint')).toHaveTextContent('Stop-loss: last price ≤ 95');
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '94.9' } });
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '0.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sell ETH' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm order' });
    expect(dialog).toHaveTextContent('Stop-loss: sells when the last price falls to 95 USDT or below');
    expect(dialog).toHaveTextContent('Stop-limit · Sell');
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(true));
    expect(sentBody(fetch)).toEqual({
      pairsName: 'ETH/USDT',
      side: 'SELL',
      orderType: 'LIMIT',
      price: '94.9',
      amount: '0.1',
      timeInForce: 'GTC',
      stopType: 'STOP_LOSS',
      stopPrice: '95',
    });
  });

  it('stop-market SELL above the last price is a take-profit; a trigger at the last price is refused before sending', async () => {
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'en', { side: 'SELL' });
    fireEvent.click(screen.getByRole('tab', { name: 'Stop' }));
    fireEvent.click(within(screen.getByRole('tablist', { name: 'Order when triggered' })).getByRole('tab', { name: 'Market' }));
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '100' } });
    expect(screen.getByRole('alert')).toHaveTextContent('The trigger price equals the last price: the order would trigger at once');
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '105' } });
    expect(screen.getByTestId('sp-stop-hint')).toHaveTextContent('Take-profit: last price ≥ 105');
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '0.1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sell ETH' }));
    expect(await screen.findByRole('dialog', { name: 'Confirm order' })).toHaveTextContent('Take-profit: sells when the last price rises to 105 USDT or above');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(true));
    expect(sentBody(fetch)).toEqual({ pairsName: 'ETH/USDT', side: 'SELL', orderType: 'MARKET', amount: '0.1', stopType: 'TAKE_PROFIT', stopPrice: '105' });
  });

  it("shows the server's refusal in the user's language (the lang header), keeping the form", async () => {
    const failed = new Response(
      JSON.stringify({ status: 'FAILED', errorCode: 'would_trigger_immediately', errorMessage: '触发价会使订单立即触发', result: null }),
      { status: 200 },
    );
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : failed));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'zh', { side: 'SELL' });
    fireEvent.click(screen.getByRole('tab', { name: '止盈止损' }));
    fireEvent.click(within(screen.getByRole('tablist', { name: '触发后委托方式' })).getByRole('tab', { name: '市价' }));
    fireEvent.change(screen.getByLabelText('触发价'), { target: { value: '99' } });
    fireEvent.change(screen.getByLabelText('数量'), { target: { value: '0.1' } });
    fireEvent.click(screen.getByRole('button', { name: '卖出 ETH' }));
    expect(await screen.findByRole('dialog', { name: '确认下单' })).toHaveTextContent('止损：最新价跌至 99 USDT 或以下时卖出');
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    expect(await screen.findByText('触发价会使订单立即触发')).toBeInTheDocument();
    const call = fetch.mock.calls.find((c) => String(c[0]).includes('setEntrust')) as unknown as [string, RequestInit];
    expect(new Headers(call[1].headers).get('lang')).toBe('zh');
    expect((screen.getByLabelText('数量') as HTMLInputElement).value).toBe('0.1');
  });

  it('trailing stop BUY at market in zh: delta in percent checked 0.1%..20%, sent as BIPS', async () => {
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'zh', { side: 'BUY' });
    fireEvent.click(screen.getByRole('tab', { name: '跟踪委托' }));
    fireEvent.click(within(screen.getByRole('tablist', { name: '触发后委托方式' })).getByRole('tab', { name: '市价' }));
    fireEvent.change(screen.getByLabelText('回调幅度'), { target: { value: '25' } });
    expect(screen.getByRole('alert')).toHaveTextContent('回调幅度须在 0.1% 至 20% 之间');
    fireEvent.change(screen.getByLabelText('回调幅度'), { target: { value: '1.5' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('交易额'), { target: { value: '50' } });
    fireEvent.click(screen.getByRole('button', { name: '买入 ETH' }));
    expect(await screen.findByRole('dialog', { name: '确认下单' })).toHaveTextContent('跟踪委托：自下单起，最新价从最低点反弹 1.5% 时买入');
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(true));
    expect(sentBody(fetch)).toEqual({ pairsName: 'ETH/USDT', side: 'BUY', orderType: 'MARKET', total: '50', stopType: 'STOP_LOSS', trailingDelta: '150' });
  });
});

describe('OrderForm OCO', () => {
  const ok = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }), { status: 200 });
  const ocoBody = (fetch: ReturnType<typeof vi.fn>) => {
    const call = fetch.mock.calls.find((c) => String(c[0]).includes('setOcoEntrust')) as unknown as [string, RequestInit];
    return Object.fromEntries([...new URLSearchParams(String(call[1].body))].filter(([k]) => k !== 'clientOrderId'));
  };

  it('a sell OCO: limit above and trigger below the last price, both legs confirmed, sent as one list', async () => {
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'en', { side: 'SELL' });
    fireEvent.click(screen.getByRole('tab', { name: 'OCO' }));
    fireEvent.change(screen.getByLabelText('Limit price'), { target: { value: '110' } });
    // A trigger above the last price (100) is on the wrong side for a sell.
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '101' } });
    fireEvent.change(screen.getByLabelText('Stop-limit price'), { target: { value: '94' } });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'For a sell OCO, the limit price must be above the last price (100.00 USDT) and the trigger price below it',
    );
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '95' } });
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '0.2' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Sell ETH' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm order' });
    expect(within(dialog).getByTestId('oco-take-profit')).toHaveTextContent('Take profit: sells at 110 USDT');
    expect(within(dialog).getByTestId('oco-stop-loss')).toHaveTextContent('Stop loss: when the last price falls to 95 USDT or below, sells at 94 USDT');
    expect(dialog).toHaveTextContent('OCO · Sell');
    expect(dialog).toHaveTextContent('0.2 ETH');
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setOcoEntrust'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(fetch.mock.calls.some((c) => String(c[0]).includes('setOcoEntrust'))).toBe(true));
    expect(ocoBody(fetch)).toEqual({ pairsName: 'ETH/USDT', side: 'SELL', amount: '0.2', price: '110', stopPrice: '95', stopLimitPrice: '94' });
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setEntrust'))).toBe(false);
  });

  it('a buy OCO in zh: the wrong side is explained, the balance checked at the larger leg, nothing sent', async () => {
    const fetch = vi.fn(async (url: string) => (String(url).includes('getAssets') ? ok(assets) : ok({})));
    vi.stubGlobal('fetch', fetch);
    setup(true, 'zh', { side: 'BUY' });
    fireEvent.click(screen.getByRole('tab', { name: 'OCO' }));
    fireEvent.change(screen.getByLabelText('限价'), { target: { value: '101' } });
    fireEvent.change(screen.getByLabelText('触发价'), { target: { value: '105' } });
    fireEvent.change(screen.getByLabelText('止损限价'), { target: { value: '106' } });
    expect(screen.getByRole('alert')).toHaveTextContent('买入OCO的限价须低于最新价（100.00 USDT），触发价须高于最新价');
    fireEvent.change(screen.getByLabelText('限价'), { target: { value: '90' } });
    // 9.5 x 106 = 1007 USDT > 1000 available, though 9.5 x 90 would fit: the list holds its larger leg.
    fireEvent.change(screen.getByLabelText('数量'), { target: { value: '9.5' } });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('余额不足'));
    fireEvent.click(screen.getByRole('button', { name: '买入 ETH' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('setOcoEntrust'))).toBe(false);
  });
});
