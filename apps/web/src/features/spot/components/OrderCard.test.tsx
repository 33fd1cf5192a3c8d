// Proves how an order card shows a conditional order (docs/conditional-orders.md), in en and zh: its type as the tag
// (Stop-limit, Trailing stop), the trigger with the kind's condition (a SELL stop-loss "≤ 95,000.00"), the trailing
// delta in percent from BIPS, and the trigger state: waiting for trigger with a Cancel that cancels this order,
// triggered, expired at trigger with its reason; a plain order shows none of these cells.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Entrust } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { NO_TRIGGER } from '../lib/conditional-order';
import { OrderCard } from './OrderCard';

const plain: Entrust = {
  id: '7',
  clientOrderId: '',
  pairsName: 'BTC/USDT',
  side: 'SELL',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: '94900.00',
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
const pendingStopLoss: Entrust = { ...plain, stopType: 'STOP_LOSS', stopPrice: '95000.00', triggerState: 'PENDING' };

function show(order: Entrust, lang: 'en' | 'zh', onCancel?: (o: Entrust) => void) {
  void i18n.changeLanguage(lang);
  render(
    <I18nextProvider i18n={i18n}>
      <ul>
        <OrderCard order={order} onCancel={onCancel} />
      </ul>
    </I18nextProvider>,
  );
  const item = screen.getByRole('listitem');
  const cells = Object.fromEntries([...item.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
  return { item, cells };
}

describe('OrderCard of a conditional order', () => {
  it('pending stop-limit SELL: tag, trigger "≤ 95,000.00", waiting for trigger, Cancel cancels it (en)', () => {
    const onCancel = vi.fn();
    const { item, cells } = show(pendingStopLoss, 'en', onCancel);
    expect(item).toHaveTextContent('Stop-limit');
    expect(cells['Trigger (USDT)']).toBe('≤ 95,000.00');
    expect(cells['Trigger state']).toBe('Waiting for trigger');
    expect(cells['Trailing delta']).toBeUndefined();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledWith(pendingStopLoss);
  });

  it('a BUY take-profit triggers at or below: "≤"; a BUY stop-loss at or above: "≥" (zh)', () => {
    const { cells } = show({ ...pendingStopLoss, side: 'BUY', stopType: 'TAKE_PROFIT' }, 'zh');
    expect(cells['触发条件 (USDT)']).toBe('≤ 95,000.00');
    expect(cells['触发状态']).toBe('待触发');
  });

  it('trailing stop at market with activation price, triggered (zh)', () => {
    const { item, cells } = show(
      {
        ...pendingStopLoss,
        orderType: 'MARKET',
        price: '',
        stopType: 'TAKE_PROFIT',
        stopPrice: '99000.00',
        trailingDelta: 150,
        triggerState: 'TRIGGERED',
        workingTime: 5,
        status: 'FILLED',
      },
      'zh',
    );
    expect(item).toHaveTextContent('跟踪委托');
    expect(cells['激活价格 (USDT)']).toBe('≥ 99,000.00');
    expect(cells['回调幅度']).toBe('1.5%');
    expect(cells['触发状态']).toBe('已触发');
  });

  it('expired at trigger says the reason (en and zh)', () => {
    const expired: Entrust = {
      ...pendingStopLoss,
      status: 'EXPIRED',
      triggerState: 'EXPIRED_AT_TRIGGER',
      workingTime: 5,
      expireReason: 'insufficient_balance',
    };
    expect(show(expired, 'en').cells['Trigger state']).toBe('Expired at trigger (insufficient balance)');
  });

  it('expired at trigger in zh', () => {
    const expired: Entrust = { ...pendingStopLoss, status: 'EXPIRED', triggerState: 'EXPIRED_AT_TRIGGER', workingTime: 5, expireReason: 'no_liquidity' };
    expect(show(expired, 'zh').cells['触发状态']).toBe('触发后失效（无可成交的挂单）');
  });

  it('a plain order has no trigger cells and its type as tag', () => {
    const { item, cells } = show(plain, 'en');
    expect(item).toHaveTextContent('Limit');
    expect(cells['Trigger state']).toBeUndefined();
    expect(Object.keys(cells)).toHaveLength(6);
  });
});
