// Proves the fill dialog follows shared/format's one rule: the filled quantity at the market's qtyDecimals and the
// average price at its priceDecimals, both grouped ("1,234.5000 ETH", "2,000.01 USDT"), the total at the quote asset's
// display precision ("499.77 USDT", not the raw "499.7773746"), the fee with every digit ("0.4997773 USDT").
import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import type { Entrust, Pair } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { NO_TRIGGER } from '../lib/conditional-order';
import { OrderResultDialog } from './OrderResultDialog';

const pair: Pair = {
  pairsName: 'ETH/USDT',
  tokenCur: 'ETH',
  mainCur: 'USDT',
  type: 'SPOT',
  price: '2000.00',
  chPrice: '14200.00',
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
const filled: Entrust = {
  id: '9',
  clientOrderId: '',
  pairsName: 'ETH/USDT',
  side: 'BUY',
  orderType: 'MARKET',
  timeInForce: 'GTC',
  price: '',
  amount: '',
  total: '499.7773746',
  dealAmount: '0.2499',
  dealTotal: '499.7773746',
  avgPrice: '1999.91',
  fee: '0.4997773',
  feeCur: 'USDT',
  status: 'FILLED',
  createTime: 1,
  updateTime: 1,
  ...NO_TRIGGER,
};

function cells(order: Entrust): Record<string, string> {
  void i18n.changeLanguage('en');
  render(
    <I18nextProvider i18n={i18n}>
      <OrderResultDialog order={order} pair={pair} onClose={() => {}} />
    </I18nextProvider>,
  );
  const dl = screen.getByTestId('order-result');
  return Object.fromEntries([...dl.querySelectorAll('div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent!]));
}

describe('OrderResultDialog amounts', () => {
  it('shows the total at the display precision, grouped, and the fee exactly', () => {
    const c = cells({ ...filled, dealAmount: '1234.5', dealTotal: '2469012.3456789', total: '2469012.3456789', avgPrice: '2000.01' });
    expect(c['Filled']).toBe('1,234.5000 ETH');
    expect(c['Avg. price']).toBe('2,000.01 USDT');
    expect(c['Total']).toBe('2,469,012.34 USDT');
    expect(c['Fee']).toBe('0.4997773 USDT');
  });
  it('never shows the raw total of the engine', () => {
    const c = cells(filled);
    expect(c['Total']).toBe('499.77 USDT');
    expect(c['Total']).not.toBe('499.7773746 USDT');
  });
});
