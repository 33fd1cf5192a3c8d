// Page test of the order entry (/transactionDetail?adId=) against mocked API answers: a SELL ad at 7.30 CNY (min
// 100.00, max 1000.00, 500 USDT left): 100 CNY shows 13.69863013 USDT (floor(fiat * 1e8 / price)), switching to USDT
// carries the quantity over and 13.7 USDT shows 100.01 CNY (rounded up to a cent) and 13.70000000; 99.99 CNY is
// refused under the field with the ad's minimum and nothing is sent; taking sends the fiat amount and a client id,
// then opens the order. A BUY ad (the user sells) without an enabled accepted method links to /payment. en and zh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { OTC_PATHS, API_PATHS, type OtcAd } from '@exchange/api';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { renderPage } from '../../../test/render-page';
import TransactionDetailPage from './TransactionDetailPage';

const ad = (p: Partial<OtcAd> = {}): OtcAd => ({
  adId: '7',
  side: 'SELL',
  coin: 'USDT',
  fiat: 'CNY',
  priceType: 'FIXED',
  price: '7.30',
  floatPercent: '',
  remaining: '500.00000000',
  total: '500.00000000',
  minFiat: '100.00',
  maxFiat: '1000.00',
  paymentWindowMinutes: 15,
  payTypes: ['BANK', 'ALIPAY'],
  remarks: 'Real-name accounts only.',
  status: 'ONLINE',
  merchant: { userId: '2', nickName: 'merchantZ', orders30d: 12, completionRate30d: '98.50', avgReleaseSeconds: 120 },
  createdAt: 1,
  updatedAt: 1,
  ...p,
});
const member = { uuid: 'u1', nickName: 'buyerB', phone: '', mail: 'b@example.com', areaCode: '86', cardNo: '1101', cardState: 'PASS' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('order entry', () => {
  it('converts CNY and USDT live by the engine rule and takes the ad', async () => {
    useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: 'en' });
    const calls = mockApi({
      [OTC_PATHS.getAd]: ad(),
      [API_PATHS.getMember]: member,
      [API_PATHS.getSecurity]: { phone: '', areaCode: '86', mail: 'b', googleBound: false, transPasswordSet: true, withdrawLock: null, lastLogin: null },
      [OTC_PATHS.takeAd]: { orderId: '900001' },
    });
    renderPage(<TransactionDetailPage />, { path: '/transactionDetail', url: '/transactionDetail?adId=7' });
    const input = await screen.findByRole('textbox', { name: 'Amount (CNY)' });
    expect(screen.getByTestId('take-price')).toHaveTextContent('¥7.30');
    expect(screen.getByText(/rounded down to 0.00000001 USDT/)).toBeInTheDocument();
    fireEvent.change(input, { target: { value: '100' } });
    expect(screen.getByTestId('take-fiat')).toHaveTextContent('¥100.00');
    expect(screen.getByTestId('take-quantity')).toHaveTextContent('13.69863013 USDT');

    fireEvent.click(screen.getByRole('tab', { name: 'By USDT' }));
    const qty = screen.getByRole('textbox', { name: 'Quantity (USDT)' });
    expect(qty).toHaveValue('13.69863013');
    fireEvent.change(qty, { target: { value: '13.7' } });
    expect(screen.getByTestId('take-fiat')).toHaveTextContent('¥100.01');
    expect(screen.getByTestId('take-quantity')).toHaveTextContent('13.70 USDT');

    fireEvent.click(screen.getByRole('tab', { name: 'By CNY' }));
    const fiat = screen.getByRole('textbox', { name: 'Amount (CNY)' });
    expect(fiat).toHaveValue('100.01');
    fireEvent.change(fiat, { target: { value: '99.99' } });
    expect(screen.getByRole('alert')).toHaveTextContent('The minimum of this ad is ¥100.00');
    expect(screen.getByRole('button', { name: 'Buy USDT' })).toBeDisabled();

    fireEvent.change(fiat, { target: { value: '730' } });
    expect(screen.getByTestId('take-quantity')).toHaveTextContent('100.00 USDT');
    await waitFor(() => expect(calls.some((c) => c.path === API_PATHS.getMember)).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    fireEvent.click(screen.getByRole('button', { name: 'Buy USDT' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/transaction/orderDetail?orderId=900001'));
    const take = calls.find((c) => c.path === OTC_PATHS.takeAd)!;
    expect(take.form).toMatchObject({ adId: '7', fiatAmount: '730.00' });
    expect(take.form.clientId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(take.form.transPassword).toBeUndefined();
  });

  it('selling without an accepted enabled payment method links to /payment (zh)', async () => {
    useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: 'zh' });
    mockApi({
      [OTC_PATHS.getAd]: ad({ side: 'BUY', payTypes: ['WECHAT'] }),
      [API_PATHS.getMember]: member,
      [API_PATHS.getPayments]: [
        { id: '3', payType: 'BANK', realName: '李四', bankName: 'ICBC', branch: '', cardNo: '6222000011112222', account: '', enabled: true, createdAt: 1 },
      ],
    });
    renderPage(<TransactionDetailPage />, { path: '/transactionDetail', url: '/transactionDetail?adId=7', lang: 'zh' });
    expect(await screen.findByRole('heading', { name: '出售 USDT' })).toBeInTheDocument();
    expect(await screen.findByText('出售前请添加并启用该广告接受的收款方式')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '收款方式' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/payment'));
  });
});
