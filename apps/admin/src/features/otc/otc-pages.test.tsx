/**
 * Proves the console's OTC pages against a stubbed API (fetch, answers shaped like packages/api otc.ts):
 * - merchants: the review queue is asked with state=PENDING; the drawer shows the real name, deposit and 30-day stats;
 *   compliance (user_freeze) approves (reviewMerchant with approve true), rejects only with a reason (nothing sent
 *   before), suspends an active merchant (setMerchantStatus SUSPENDED); support sees no decision button;
 * - appeals: the queue is asked with state=APPEAL; the order drawer shows both sides with real names, what was paid
 *   with, the appeal, the evidence and proof images fetched with the operator's token, and the chat; resolving needs a
 *   reason, finance (wallet_decide) resolves, compliance only views; the dialog states exactly what moves ("Release
 *   100.00000000 USDT to buyer Bob (10000002)") and sends resolveAppeal; an order id opens that order, a non-numeric one is refused;
 * - ads: listed by status ONLINE; an ad is closed with a reason (closeAd); finance has no Close button;
 * - the formatting rules (resolution sentence in en and zh, durations, API image paths).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from 'i18next';
import { MemoryRouter } from 'react-router';
import type { OperatorRole } from '@exchange/api';
import { setLang } from '../../shared/i18n';
import { setSession } from '../../shared/session';
import MerchantsPage from './MerchantsPage';
import AppealsPage from './AppealsPage';
import AdsPage from './AdsPage';
import { apiPathOf } from './api/image';
import type { AdminOtcMerchant, AdminOtcOrderDetail, OtcAd } from './api/types';
import { formatSeconds, resolutionText } from './otc-format';

const OK = (result: unknown) => new Response(JSON.stringify({ status: 'SUCCEED', errorCode: '0', errorMessage: '', result }));
const page = <T,>(records: T[]) => ({ records, total: records.length, page: 1, pageSize: 20 });

const stats = { userId: '10000001', nickName: 'AliceOTC', orders30d: 42, completionRate30d: '98.50', avgReleaseSeconds: 125 };
const merchantAlicePending: AdminOtcMerchant = {
  userId: '10000001',
  account: 'alice@example.com',
  nickName: 'AliceOTC',
  realName: '王小丽',
  state: 'PENDING',
  deposit: '1000.00000000',
  reason: '',
  stats,
  appliedAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

const orderBob100Appeal: AdminOtcOrderDetail = {
  orderId: '77',
  adId: '5',
  coin: 'USDT',
  fiat: 'CNY',
  price: '7.20',
  quantity: '100.00000000',
  fiatAmount: '720.00',
  state: 'APPEAL',
  endReason: '',
  createdAt: 1_700_000_000_000,
  deadline: 1_700_000_900_000,
  paidAt: 1_700_000_100_000,
  appealableAt: 1_700_000_700_000,
  updatedAt: 1_700_000_800_000,
  buyerNickName: 'Bob',
  sellerNickName: 'AliceOTC',
  sellerRealName: '王小丽',
  sellerPhone: '138****0001',
  buyerRealName: '李大伟',
  paymentMethods: [
    { id: '31', payType: 'BANK', realName: '王小丽', bankName: 'ICBC', branch: 'Shanghai', cardNo: '6222020000001234', account: '', qrImageUrl: '' },
    { id: '32', payType: 'ALIPAY', realName: '王小丽', bankName: '', branch: '', cardNo: '', account: 'alice@alipay', qrImageUrl: '/api/otc/otc/image?id=q1' },
  ],
  paidWith: '31',
  proofImageUrl: '/api/otc/otc/image?id=proof1',
  remarks: 'Bank transfer only, no notes',
  appeal: {
    by: 'BUYER',
    reason: 'PAID_NOT_RELEASED',
    description: 'I paid 720 CNY 20 minutes ago',
    images: ['/api/otc/otc/image?id=ev1'],
    createdAt: 1_700_000_750_000,
    outcome: '',
    resolution: '',
    resolvedAt: 0,
  },
  buyerId: '10000002',
  sellerId: '10000001',
  makerId: '10000001',
  messages: [
    { id: '1', orderId: '77', from: 'SYSTEM', mine: false, text: 'Order created', imageUrl: '', createdAt: 1_700_000_000_000 },
    { id: '2', orderId: '77', from: 'BUYER', mine: false, text: 'Paid, please release', imageUrl: '', createdAt: 1_700_000_100_000 },
    { id: '3', orderId: '77', from: 'SELLER', mine: false, text: 'Nothing arrived yet', imageUrl: '', createdAt: 1_700_000_200_000 },
  ],
};

const adAliceSell: OtcAd = {
  adId: '5',
  side: 'SELL',
  coin: 'USDT',
  fiat: 'CNY',
  priceType: 'FIXED',
  price: '7.20',
  floatPercent: '',
  remaining: '2500.00000000',
  total: '3000.00000000',
  minFiat: '100.00',
  maxFiat: '20000.00',
  paymentWindowMinutes: 15,
  payTypes: ['BANK', 'ALIPAY'],
  remarks: '',
  status: 'ONLINE',
  merchant: stats,
  createdAt: 1_700_000_000_000,
  updatedAt: 1_700_000_000_000,
};

/** A fetch stub answering by path (images as PNG blobs); records the calls and the operator token sent. */
function stubApi(routes: Record<string, unknown>) {
  const calls: Array<{ url: string; body: unknown; token: string | undefined }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        body: init?.body ? JSON.parse(init.body as string) : undefined,
        token: (init?.headers as Record<string, string> | undefined)?.['x-admin-token'],
      });
      if (url.startsWith('/api/otc/otc/image'))
        return new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), { headers: { 'content-type': 'image/png' } });
      const path = Object.keys(routes).find((p) => url.startsWith(`/api/${p}?`) || url === `/api/${p}`);
      return OK(path === undefined ? null : routes[path]);
    }),
  );
  return calls;
}

function renderAs(role: OperatorRole, ui: React.ReactNode) {
  setLang('en');
  setSession({ token: 'op-token', operator: { id: '9', email: `${role}@ops.test`, name: 'Op', role, disabled: false, createdAt: 0 } });
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <MemoryRouter>{ui}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

let objectUrls = 0;
beforeEach(() => {
  objectUrls = 0;
  URL.createObjectURL = () => `blob:test/${++objectUrls}`;
  URL.revokeObjectURL = () => undefined;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

// antd renders slowly in jsdom on a loaded machine: generous waits (they end as soon as the element is there).
vi.setConfig({ testTimeout: 120_000 });
configure({ asyncUtilTimeout: 15_000 });

/** The open dialog (antd modal) whose title is `title`. */
async function dialogTitled(title: string | RegExp): Promise<HTMLElement> {
  const el = await screen.findByText(title);
  return el.closest('.ant-modal-content') as HTMLElement;
}

describe('MerchantsPage', () => {
  it('compliance: the PENDING queue, the drawer with deposit and stats, approve', async () => {
    const calls = stubApi({ 'admin/otc/merchants': page([merchantAlicePending]) });
    renderAs('compliance', <MerchantsPage />);
    expect(await screen.findByText('alice@example.com')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/admin/otc/merchants?state=PENDING&page=1');
    expect(screen.getByText('1,000')).toBeTruthy();
    fireEvent.click(screen.getByText('alice@example.com'));
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('王小丽')).toBeTruthy();
    expect(within(drawer).getByText('1000.00000000 USDT')).toBeTruthy();
    expect(within(drawer).getByText('98.50%')).toBeTruthy();
    expect(within(drawer).getByText('2 min 5 s')).toBeTruthy();
    expect(within(drawer).getByText('42')).toBeTruthy();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Approve' }));
    const dialog = await dialogTitled('Approve AliceOTC as a merchant?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/admin/otc/reviewMerchant')?.body).toEqual({ userId: '10000001', approve: true, reason: '' }));
  });

  it('compliance rejects only with a reason', async () => {
    const calls = stubApi({ 'admin/otc/merchants': page([merchantAlicePending]) });
    renderAs('compliance', <MerchantsPage />);
    fireEvent.click(await screen.findByText('alice@example.com'));
    const drawer = await screen.findByRole('dialog');
    fireEvent.click(within(drawer).getByRole('button', { name: 'Reject' }));
    const dialog = await dialogTitled(/Reject the application of AliceOTC\? The deposit of 1000.00000000 USDT is released/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await within(dialog).findByText('Required');
    expect(calls.some((c) => c.url.includes('reviewMerchant'))).toBe(false);
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: '  Deposit source unclear  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/admin/otc/reviewMerchant')?.body).toEqual({
        userId: '10000001',
        approve: false,
        reason: 'Deposit source unclear',
      }),
    );
  });

  it('compliance suspends an active merchant; support cannot decide', async () => {
    const calls = stubApi({ 'admin/otc/merchants': page([{ ...merchantAlicePending, state: 'ACTIVE' }]) });
    const first = renderAs('compliance', <MerchantsPage />);
    fireEvent.click(await screen.findByText('alice@example.com'));
    let drawer = await screen.findByRole('dialog');
    expect(within(drawer).queryByRole('button', { name: 'Approve' })).toBeNull();
    fireEvent.click(within(drawer).getByRole('button', { name: 'Suspend' }));
    const dialog = await dialogTitled('Suspend merchant AliceOTC? Their ads go offline.');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Complaints' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/admin/otc/setMerchantStatus')?.body).toEqual({ userId: '10000001', status: 'SUSPENDED', reason: 'Complaints' }),
    );
    first.unmount();

    stubApi({ 'admin/otc/merchants': page([merchantAlicePending]) });
    renderAs('support', <MerchantsPage />);
    fireEvent.click(await screen.findByText('alice@example.com'));
    drawer = await screen.findByRole('dialog');
    expect(within(drawer).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(drawer).getByText('Your role can view but not decide')).toBeTruthy();
  });
});

describe('AppealsPage', () => {
  const routes = {
    'admin/otc/orders': page([{ ...orderBob100Appeal }]),
    'admin/otc/orderDetail': orderBob100Appeal,
    'admin/otc/resolveAppeal': null,
  };

  it('shows the order, both sides, evidence and chat, and resolves with the exact dialog', async () => {
    const calls = stubApi(routes);
    renderAs('finance', <AppealsPage />);
    expect(await screen.findByText('Bob (10000002)')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/admin/otc/orders?state=APPEAL&page=1');
    expect(screen.getByText('100 USDT')).toBeTruthy();
    expect(screen.getByText('720.00 CNY')).toBeTruthy();
    fireEvent.click(screen.getByText('Bob (10000002)'));
    const drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('李大伟')).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/admin/otc/orderDetail?orderId=77')).toBe(true);
    expect(within(drawer).getAllByText('王小丽').length).toBeGreaterThan(0);
    expect(within(drawer).getByText('100.00000000 USDT')).toBeTruthy();
    expect(within(drawer).getAllByText(/ICBC · Shanghai · 6222020000001234/).length).toBe(2); // listed, and as paid-with
    expect(within(drawer).getByText('I paid 720 CNY 20 minutes ago')).toBeTruthy();
    expect(within(drawer).getByText('Paid, coin not released')).toBeTruthy();
    expect(within(drawer).getByText('Nothing arrived yet')).toBeTruthy();
    expect(within(drawer).getByText('Paid, please release')).toBeTruthy();
    // Proof and evidence: fetched with the operator's token, shown as object URLs.
    await waitFor(() => expect(within(drawer).getByAltText('Evidence 1').getAttribute('src')).toMatch(/^blob:test\//));
    expect(within(drawer).getByAltText('Payment proof').getAttribute('src')).toMatch(/^blob:test\//);
    expect(
      calls
        .filter((c) => c.url.startsWith('/api/otc/otc/image'))
        .map((c) => [c.url, c.token])
        .sort(),
    ).toEqual([
      ['/api/otc/otc/image?id=ev1', 'op-token'],
      ['/api/otc/otc/image?id=proof1', 'op-token'],
    ]);

    // No reason: nothing is asked or sent.
    fireEvent.click(within(drawer).getByRole('button', { name: 'Release to buyer' }));
    expect(within(drawer).getByText('Required')).toBeTruthy();
    expect(screen.queryByText(/Release 100.00000000 USDT/)).toBeNull();

    fireEvent.change(within(drawer).getByLabelText('Resolution reason'), { target: { value: 'Bank statement shows the payment' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Release to buyer' }));
    // (antd writes a confirm's title twice: the visible title and the dialog's accessible name.)
    expect((await screen.findAllByText('Release 100.00000000 USDT to buyer Bob (10000002)')).length).toBeGreaterThan(0);
    expect(screen.getByText('Reason shown to both sides: Bank statement shows the payment')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Release' }));
    await waitFor(() =>
      expect(calls.find((c) => c.url === '/api/admin/otc/resolveAppeal')?.body).toEqual({
        orderId: '77',
        outcome: 'RELEASE',
        reason: 'Bank statement shows the payment',
      }),
    );
  });

  it('the return dialog names the seller; compliance views without deciding', async () => {
    stubApi(routes);
    const first = renderAs('admin', <AppealsPage />);
    fireEvent.click(await screen.findByText('Bob (10000002)'));
    let drawer = await screen.findByRole('dialog');
    fireEvent.change(await within(drawer).findByLabelText('Resolution reason'), { target: { value: 'No payment' } });
    fireEvent.click(within(drawer).getByRole('button', { name: 'Return to seller' }));
    expect((await screen.findAllByText('Return 100.00000000 USDT to seller AliceOTC (10000001)')).length).toBeGreaterThan(0);
    first.unmount();

    stubApi(routes);
    renderAs('compliance', <AppealsPage />);
    fireEvent.click(await screen.findByText('Bob (10000002)'));
    drawer = await screen.findByRole('dialog');
    expect(await within(drawer).findByText('Your role can view but not decide')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Release to buyer' })).toBeNull();
  });

  it('an order id opens that order; a non-numeric one is refused', async () => {
    const calls = stubApi({ ...routes, 'admin/otc/orders': page([]) });
    renderAs('support', <AppealsPage />);
    const search = await screen.findByLabelText('Order id');
    fireEvent.change(search, { target: { value: 'x77' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('An order id is digits only')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('orderDetail'))).toBe(false);
    fireEvent.change(search, { target: { value: '77' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('OTC order 77')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/otc/orderDetail?orderId=77')).toBe(true));
  });
});

describe('AdsPage', () => {
  it('lists online ads and closes one with a reason; finance has no Close', async () => {
    const calls = stubApi({ 'admin/otc/ads': page([adAliceSell]), 'admin/otc/closeAd': null });
    const first = renderAs('compliance', <AdsPage />);
    expect(await screen.findByText('2,500 / 3,000')).toBeTruthy();
    expect(calls[0]!.url).toBe('/api/admin/otc/ads?status=ONLINE&page=1');
    expect(screen.getByText('100 - 20,000')).toBeTruthy();
    expect(screen.getByText('AliceOTC (10000001)')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close ad' }));
    const dialog = await dialogTitled('Close ad 5 of AliceOTC (10000001)?');
    fireEvent.change(within(dialog).getByLabelText('Reason'), { target: { value: 'Misleading terms' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close ad' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/api/admin/otc/closeAd')?.body).toEqual({ adId: '5', reason: 'Misleading terms' }));
    first.unmount();

    stubApi({ 'admin/otc/ads': page([adAliceSell]) });
    renderAs('finance', <AdsPage />);
    expect(await screen.findByText('2,500 / 3,000')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close ad' })).toBeNull();
  });

  it('filters by merchant', async () => {
    const calls = stubApi({ 'admin/otc/ads': page([adAliceSell]) });
    renderAs('support', <AdsPage />);
    const box = await screen.findByLabelText('User id');
    fireEvent.change(box, { target: { value: '10000001' } });
    fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.some((c) => c.url === '/api/admin/otc/ads?status=ONLINE&userId=10000001&page=1')).toBe(true));
  });
});

describe('otc-format', () => {
  it('states what a resolution moves, in en and zh; durations; API image paths', async () => {
    setLang('en');
    expect(resolutionText(i18n.t, orderBob100Appeal, 'RELEASE')).toBe('Release 100.00000000 USDT to buyer Bob (10000002)');
    expect(resolutionText(i18n.t, { ...orderBob100Appeal, sellerNickName: '' }, 'RETURN')).toBe('Return 100.00000000 USDT to seller 10000001');
    expect(formatSeconds(i18n.t, 0)).toBe('-');
    expect(formatSeconds(i18n.t, 59)).toBe('59 s');
    expect(formatSeconds(i18n.t, 3600)).toBe('60 min 0 s');
    setLang('zh');
    await waitFor(() => expect(i18n.language).toBe('zh'));
    expect(resolutionText(i18n.t, orderBob100Appeal, 'RELEASE')).toBe('将 100.00000000 USDT 放给买家 Bob (10000002)');
    expect(formatSeconds(i18n.t, 125)).toBe('2 分 5 秒');
    expect(apiPathOf('/api/otc/otc/image?id=1')).toBe('otc/otc/image?id=1');
    expect(apiPathOf('http://127.0.0.1:8790/api/uploads/x')).toBe('uploads/x');
    expect(apiPathOf('https://cdn.example.com/x.png')).toBeNull();
  });
});
