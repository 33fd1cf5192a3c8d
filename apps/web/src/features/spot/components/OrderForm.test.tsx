// Component test of the spot order form: labelled inputs shown with thousands separators, tick
// steppers, the percent selector computing the amount exactly from the SPOT balance, the estimated
// total, the messages under the fields before sending (issue 8: the step "Amount must be a multiple
// of 0.0001 ETH" for a too-fine amount that stays as typed, "Minimum order value is 5 USDT", the
// balance; in en and zh), the login guard, and the body sent to setEntrust with a client order id of
// the server's pattern.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { Assets, Member, Pair } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { OrderForm } from './OrderForm';

const pair: Pair = {
  pairsName: 'ETH/USDT', tokenCur: 'ETH', mainCur: 'USDT', type: 'SPOT', price: '100.00', chPrice: '710.00', updown: '1.00', volume: '0', quoteVolume: '0',
  high: '0', low: '0', priceDecimals: 2, qtyDecimals: 4, tickSize: '0.01', stepSize: '0.0001', minQty: '0.0001', minNotional: '5', isNew: false, demoData: false,
};
const item = (coin: string, available: string) => ({ coin, available, frozen: '0', current: available, convertedUsdt: '0', convertedCny: '0' });
const assets: Assets = {
  totalUsdt: '1000', totalCny: '7100', usdtCnyRate: '7.1',
  accounts: [{ type: 'SPOT', totalUsdt: '1000', totalCny: '7100', items: [item('USDT', '1000.00'), item('ETH', '0.5')] }],
};
const member: Member = { userId: '1', uuid: 'u1', nickName: 'alice', phone: '', mail: 'a@b.c', areaCode: '86', cardNo: '', cardState: '' };

function setup(login: boolean, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState(login ? { token: 'tok', userId: '1', isLogin: true, currentLangue: lang } : { token: '', userId: '', isLogin: false, currentLangue: lang });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  qc.setQueryData(['asset', '1', 'assets'], assets);
  qc.setQueryData(['member', '1'], member);
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter>
          <OrderForm pair={pair} side="BUY" onSideChange={() => {}} priceFill={null} />
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
  ] as const)('says the step and the minimum order value under the amount before Buy, without a request (%s)', async (lang, amountLabel, buy, stepText, minText) => {
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
  });

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
      pairsName: 'ETH/USDT', side: 'BUY', orderType: 'LIMIT', price: '100.00', amount: '1.5', timeInForce: 'GTC',
    });
    expect(body.get('clientOrderId')).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
    expect(await screen.findByText('Order placed')).toBeInTheDocument();
  });

  it('asks a logged-out visitor to log in', async () => {
    setup(false);
    fireEvent.click(screen.getByRole('button', { name: 'Buy ETH' }));
    expect(await screen.findByText('You are not logged in, log in?')).toBeInTheDocument();
  });
});
