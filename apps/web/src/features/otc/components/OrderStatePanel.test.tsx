// Component test of the order detail's state machine rendering (spec section 2's fiat order screens): one order of
// 720.00 CNY at 7.20 for 100 USDT seen by the buyer and the seller in each state: pending payment (countdown to the
// deadline, the seller's real name and payment methods with copy buttons, "I have paid" enabled once a method is
// chosen and sending that method, cancel), pending release (the buyer waits; the seller's release with the warning
// naming the amount and the buyer's real name; the appeal button from appealableAt, a countdown before), under
// appeal (the appellant may withdraw), completed, cancelled with its end reason; en and zh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { OtcOrderDetail } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { countsAsUnread, orderView } from '../lib/order-view';
import { OrderStatePanel } from './OrderStatePanel';

const T0 = 1_800_000_000_000;
const bank = {
  id: '11',
  payType: 'BANK' as const,
  realName: '张三',
  bankName: 'Bank of China',
  branch: 'Haidian',
  cardNo: '6222020200001234',
  account: '',
  qrImageUrl: '',
};
const alipay = { id: '12', payType: 'ALIPAY' as const, realName: '张三', bankName: '', branch: '', cardNo: '', account: 'zhang@example.com', qrImageUrl: '' };

const order = (p: Partial<OtcOrderDetail> = {}): OtcOrderDetail => ({
  orderId: '900001',
  adId: '5',
  mySide: 'BUY',
  myRole: 'TAKER',
  coin: 'USDT',
  fiat: 'CNY',
  price: '7.20',
  quantity: '100.00000000',
  fiatAmount: '720.00',
  state: 'PENDING_PAYMENT',
  endReason: '',
  counterparty: 'merchantZ',
  createdAt: T0,
  deadline: T0 + 15 * 60_000,
  paidAt: 0,
  appealableAt: 0,
  updatedAt: T0,
  unread: 0,
  buyerNickName: 'buyerB',
  sellerNickName: 'merchantZ',
  sellerRealName: '张三',
  sellerPhone: '138****0000',
  buyerRealName: '李四',
  paymentMethods: [bank, alipay],
  paidWith: '',
  proofImageUrl: '',
  remarks: 'Pay within 15 minutes.',
  appeal: null,
  ...p,
});

function show(o: OtcOrderDetail, now: number, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  const h = { onMarkPaid: vi.fn(), onCancel: vi.fn(), onRelease: vi.fn(), onAppeal: vi.fn(), onCancelAppeal: vi.fn() };
  render(
    <I18nextProvider i18n={i18n}>
      <OrderStatePanel order={o} now={now} {...h} />
    </I18nextProvider>,
  );
  return h;
}

afterEach(() => cleanup());

describe('order view', () => {
  it('decides the screen and the actions for each side and state', () => {
    expect(orderView(order(), T0)).toMatchObject({
      iAmBuyer: true,
      screen: 'PAY',
      canPay: true,
      canCancel: true,
      canRelease: false,
      counterpartyRealName: '张三',
    });
    expect(orderView(order(), T0 + 15 * 60_000)).toMatchObject({ screen: 'PAY', canPay: false, canCancel: false, expired: true });
    expect(orderView(order({ mySide: 'SELL', myRole: 'MAKER' }), T0)).toMatchObject({
      screen: 'WAIT_PAY',
      canPay: false,
      canCancel: false,
      counterpartyRealName: '李四',
    });
    const paid = order({ state: 'PAID', paidAt: T0 + 60_000, appealableAt: T0 + 11 * 60_000 });
    expect(orderView(paid, T0 + 2 * 60_000)).toMatchObject({ screen: 'WAIT_RELEASE', canAppeal: false, appealIn: 9 * 60_000, canCancel: true });
    expect(orderView({ ...paid, mySide: 'SELL' }, T0 + 11 * 60_000)).toMatchObject({ screen: 'RELEASE', canRelease: true, canAppeal: true, appealIn: 0 });
    const appeal = {
      by: 'SELLER' as const,
      reason: 'NOT_RECEIVED',
      description: 'x',
      images: [],
      createdAt: T0,
      outcome: '' as const,
      resolution: '',
      resolvedAt: 0,
    };
    expect(orderView(order({ state: 'APPEAL', appeal }), T0).canCancelAppeal).toBe(false);
    expect(orderView(order({ state: 'APPEAL', appeal, mySide: 'SELL' }), T0).canCancelAppeal).toBe(true);
  });
});

describe('unread chat messages', () => {
  it("counts the other side's and operators' messages, not my own nor the SYSTEM notes (as the server does)", () => {
    expect(countsAsUnread({ mine: false, from: 'SELLER' })).toBe(true);
    expect(countsAsUnread({ mine: false, from: 'OPERATOR' })).toBe(true);
    expect(countsAsUnread({ mine: true, from: 'BUYER' })).toBe(false);
    expect(countsAsUnread({ mine: false, from: 'SYSTEM' })).toBe(false);
  });
});

describe('OrderStatePanel', () => {
  it('pending payment (buyer): countdown, amounts, the seller\'s methods, "I have paid" with the chosen method', () => {
    const h = show(order(), T0 + 65_000);
    expect(screen.getByRole('status')).toHaveTextContent('Pending payment');
    expect(screen.getByRole('status')).toHaveTextContent('Pay the seller within 13:55');
    expect(screen.getByTestId('order-fiat')).toHaveTextContent('¥720.00');
    expect(screen.getByTestId('order-quantity')).toHaveTextContent('100.00 USDT');
    expect(screen.getByText('900001')).toBeInTheDocument();
    expect(screen.getByText('6222020200001234')).toBeInTheDocument();
    expect(screen.getByText('zhang@example.com')).toBeInTheDocument();
    expect(screen.getByText(/Pay from an account in your own verified name to 张三/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy Card number' })).toBeInTheDocument();
    const paidBtn = screen.getByRole('button', { name: 'I have paid' });
    expect(paidBtn).toBeDisabled();
    fireEvent.click(screen.getByRole('radio', { name: 'Paid with Alipay' }));
    expect(paidBtn).toBeEnabled();
    fireEvent.click(paidBtn);
    expect(h.onMarkPaid).toHaveBeenCalledWith('12', undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel order' }));
    expect(h.onCancel).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Payment received, release' })).toBeNull();
  });

  it('pending payment (seller): waits, no pay, release or cancel', () => {
    show(order({ mySide: 'SELL', myRole: 'MAKER' }), T0 + 14 * 60_000 + 30_000);
    expect(screen.getByRole('status')).toHaveTextContent("Waiting for the buyer's payment");
    expect(screen.getByRole('status')).toHaveTextContent('The buyer has 00:30 left to pay');
    expect(screen.queryByRole('button', { name: 'I have paid' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Payment received, release' })).toBeNull();
  });

  it('pending release: the buyer waits (appeal after the wait), the seller releases after the warning', () => {
    const paid = order({ state: 'PAID', paidAt: T0 + 60_000, appealableAt: T0 + 11 * 60_000, paidWith: '11' });
    show(paid, T0 + 2 * 60_000);
    expect(screen.getByRole('status')).toHaveTextContent('Pending release');
    expect(screen.getByText('Appeal available in 09:00')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Appeal' })).toBeNull();
    expect(screen.getByText('Paid with')).toBeInTheDocument();
    cleanup();
    const h = show({ ...paid, mySide: 'SELL', myRole: 'MAKER' }, T0 + 11 * 60_000);
    expect(screen.getByRole('status')).toHaveTextContent('Buyer has paid: confirm and release');
    expect(screen.getByRole('note')).toHaveTextContent('check that ¥720.00 from 李四 has arrived');
    fireEvent.click(screen.getByRole('button', { name: 'Payment received, release' }));
    expect(h.onRelease).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Appeal' }));
    expect(h.onAppeal).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Cancel order' })).toBeNull();
  });

  it('under appeal, completed, cancelled with the end reason (zh)', () => {
    const appeal = {
      by: 'BUYER' as const,
      reason: 'PAID_NOT_RELEASED',
      description: '已付款未放币',
      images: [],
      createdAt: T0,
      outcome: '' as const,
      resolution: '',
      resolvedAt: 0,
    };
    const h = show(order({ state: 'APPEAL', appeal, paidWith: '11' }), T0, 'zh');
    expect(screen.getByRole('status')).toHaveTextContent('申诉中');
    expect(screen.getByText('我已付款，卖家未放币')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '取消申诉' }));
    expect(h.onCancelAppeal).toHaveBeenCalledTimes(1);
    cleanup();
    show(order({ state: 'COMPLETED', endReason: 'RELEASED' }), T0, 'zh');
    expect(screen.getByRole('status')).toHaveTextContent('已完成');
    expect(screen.getByRole('status')).toHaveTextContent('100.00 USDT 已转入您的法币账户');
    expect(screen.queryAllByRole('button').filter((b) => !/复制/.test(b.textContent ?? ''))).toHaveLength(0);
    cleanup();
    show(order({ state: 'CANCELLED', endReason: 'TIMEOUT' }), T0, 'en');
    expect(screen.getByRole('status')).toHaveTextContent('Cancelled');
    expect(screen.getByRole('status')).toHaveTextContent('Cancelled: not paid within the time limit');
    cleanup();
    show(order({ state: 'CANCELLED', endReason: 'APPEAL_RETURNED', appeal: { ...appeal, outcome: 'RETURN', resolution: 'No payment found' } }), T0, 'en');
    expect(screen.getByRole('status')).toHaveTextContent('Appeal resolved: returned to the seller');
    expect(screen.getByText(/Resolved: returned to the seller: No payment found/)).toBeInTheDocument();
  });
});
