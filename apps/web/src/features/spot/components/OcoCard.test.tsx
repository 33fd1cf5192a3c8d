// Proves how an OCO list shows in the order lists, in en and zh: its two legs (Limit, the take-profit leg; Stop-limit,
// the stop-loss leg with its trigger "≥ 108.00" for a BUY) under one head tagged OCO, with one Cancel that cancels
// the list by its id while it is open; an ended list shows its outcome instead (the limit leg filled, the stop
// triggered, or cancelled) and no Cancel.
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Entrust } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { NO_TRIGGER } from '../lib/conditional-order';
import { OcoCard } from './OcoCard';

const limitLeg: Entrust = {
  id: '11',
  clientOrderId: '',
  pairsName: 'BTC/USDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'POST_ONLY',
  price: '100.00',
  amount: '0.50000',
  total: '',
  dealAmount: '0.00000',
  dealTotal: '0.00000000',
  avgPrice: '',
  fee: '0.00000000',
  feeCur: 'BTC',
  status: 'NEW',
  createTime: 1,
  updateTime: 1,
  ...NO_TRIGGER,
  orderListId: '10',
  listLeg: 'TAKE_PROFIT',
};
const stopLeg: Entrust = {
  ...limitLeg,
  id: '12',
  timeInForce: 'GTC',
  price: '109.00',
  stopType: 'STOP_LOSS',
  stopPrice: '108.00',
  triggerState: 'PENDING',
  listLeg: 'STOP_LOSS',
};

function show(legs: Entrust[], lang: 'en' | 'zh', onCancel?: (id: string) => void) {
  void i18n.changeLanguage(lang);
  render(
    <I18nextProvider i18n={i18n}>
      <ul>
        <OcoCard orderListId="10" legs={legs} onCancel={onCancel} />
      </ul>
    </I18nextProvider>,
  );
}

describe('OcoCard', () => {
  it('an open list: both legs under one head, one Cancel that cancels the list', () => {
    const onCancel = vi.fn();
    show([limitLeg, stopLeg], 'en', onCancel);
    const card = screen.getByRole('listitem', { name: 'BTC/USDT Buy OCO' });
    const limit = within(card).getByRole('listitem', { name: 'Limit' });
    expect(limit).toHaveTextContent('100.00');
    expect(limit).toHaveTextContent('Pending');
    const stop = within(card).getByRole('listitem', { name: 'Stop-limit' });
    expect(stop).toHaveTextContent('≥ 108.00');
    expect(stop).toHaveTextContent('109.00');
    const cancels = within(card).getAllByRole('button', { name: 'Cancel' });
    expect(cancels).toHaveLength(1);
    fireEvent.click(cancels[0]!);
    expect(onCancel).toHaveBeenCalledWith('10');
  });

  it.each([
    [
      'en',
      [
        { ...limitLeg, status: 'FILLED', dealAmount: '0.50000' },
        { ...stopLeg, status: 'CANCELED' },
      ],
      'Limit filled',
    ],
    [
      'en',
      [
        { ...limitLeg, status: 'CANCELED' },
        { ...stopLeg, status: 'FILLED', triggerState: 'TRIGGERED' as const },
      ],
      'Stop triggered',
    ],
    [
      'zh',
      [
        { ...limitLeg, status: 'CANCELED' },
        { ...stopLeg, status: 'CANCELED' },
      ],
      '已撤销',
    ],
    [
      'zh',
      [
        { ...limitLeg, status: 'FILLED', dealAmount: '0.50000' },
        { ...stopLeg, status: 'CANCELED' },
      ],
      '限价单已成交',
    ],
  ] as const)('an ended list shows its outcome and no Cancel (%s: %s)', (lang, legs, outcome) => {
    show([...legs], lang, vi.fn());
    expect(screen.getByTestId('oco-outcome')).toHaveTextContent(outcome);
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
