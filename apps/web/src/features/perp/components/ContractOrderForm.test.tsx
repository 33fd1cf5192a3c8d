// Component test of the contract order form: the rule "1 lot = 1000 USDT", the available balance and the maximum lots,
// the cost and liquidation price previews at the exact figures of perp/math (isolated 10x long of 2 lots at 50,000:
// cost 201.00, est. liq. 45,180.73), the TP/SL messages of spec section 5 under their fields (en and zh), the 50%
// band, the insufficient-balance dialog (contract variant) leading to the transfer into the contract account, the
// login guard for visitors, and the body sent to placeOrder (lots, not a quantity, with a client order id).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { ContractAccount, ContractMarket, ContractSettings, Member } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { ContractOrderForm } from './ContractOrderForm';

const brackets = [
  { notionalFloor: '0', notionalCap: '50000', maxLeverage: 125, maintMarginRate: '0.4000' },
  { notionalFloor: '50000', notionalCap: '250000', maxLeverage: 100, maintMarginRate: '0.5000' },
];
const market: ContractMarket = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  status: 'TRADING',
  priceDecimals: 2,
  qtyDecimals: 3,
  tickSize: '0.10',
  stepSize: '0.001',
  minQty: '0.001',
  lotNotional: '1000.00000000',
  makerFeeRate: '0.0200',
  takerFeeRate: '0.0500',
  priceBandRate: '50.0000',
  maxLeverage: 125,
  brackets,
  lastPrice: '50000.00',
  markPrice: '50000.00',
  indexPrice: '50000.00',
  change24h: '0.00',
  high24h: '',
  low24h: '',
  volume24h: '0',
  quoteVolume24h: '0',
  fundingRate: '0.010000',
  lastFundingRate: '0.000000',
  nextFundingTime: 0,
  fundingIntervalMs: 28_800_000,
  interestRate: '0.0100',
  fundingCap: '0.3000',
  demoData: false,
  time: 1,
};
const settings: ContractSettings = {
  symbol: 'BTC/USDT',
  leverage: 10,
  marginMode: 'ISOLATED',
  maxLeverage: 125,
  maxNotional: '250000',
  brackets,
  makerFeeRate: '0.0200',
  takerFeeRate: '0.0500',
  lotNotional: '1000',
  priceDecimals: 2,
  qtyDecimals: 3,
  tickSize: '0.10',
  stepSize: '0.001',
  minQty: '0.001',
  priceBand: '50',
  locked: false,
};
const account = (available: string): ContractAccount => ({
  coin: 'USDT',
  available,
  frozen: '0',
  walletBalance: available,
  crossWalletBalance: available,
  crossUnrealizedPnl: '0',
  crossMarginBalance: available,
  crossMaintMargin: '0',
  unrealizedPnl: '0',
  marginBalance: available,
  positionMargin: '0',
  orderMargin: '0',
  availableBalance: available,
  maxWithdrawAmount: available,
  riskLevel: '0.00',
  riskLevelPpm: 0,
});
const member: Member = { userId: '1', uuid: 'u1', nickName: 'alice', phone: '', mail: 'a@b.c', areaCode: '86', cardNo: '', cardState: '' };

function Where() {
  const l = useLocation();
  return <div data-testid="where">{l.pathname + l.search}</div>;
}

function setup(login: boolean, lang: 'en' | 'zh' = 'en', available = '1000', m: ContractMarket = market) {
  void i18n.changeLanguage(lang);
  useAppStore.setState(
    login ? { token: 'tok', userId: '1', isLogin: true, currentLangue: lang } : { token: '', userId: '', isLogin: false, currentLangue: lang },
  );
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(['contract', '1', 'account'], account(available));
  qc.setQueryData(['contract', '1', 'settings', 'BTC/USDT'], settings);
  qc.setQueryData(['member', '1'], member);
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/contract']}>
          <Routes>
            <Route path="/contract" element={<ContractOrderForm market={m} priceFill={null} />} />
            <Route path="/login" element={<Where />} />
            <Route path="/assets/transfer" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('ContractOrderForm', () => {
  it('shows the lot rule, the available balance, max lots, and the previews of perp/math', async () => {
    mockApi({});
    setup(true);
    expect(screen.getByTestId('lot-rule')).toHaveTextContent('1 lot = 1,000 USDT face value at the order price');
    expect(screen.getByTestId('available')).toHaveTextContent('1,000.00 USDT');
    expect(screen.getByTestId('leverage')).toHaveTextContent('10x');
    expect(screen.getByTestId('margin-mode')).toHaveTextContent('Isolated');
    expect(screen.getByTestId('max-lots')).toHaveTextContent('9 lots');
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '2' } });
    expect(screen.getByTestId('cost')).toHaveTextContent('201.00 USDT');
    expect(screen.getByTestId('est-liq')).toHaveTextContent('45,180.73');
    expect(screen.getByText('0.040 BTC')).toBeInTheDocument();
  });

  it.each([
    [
      'en',
      'Take profit',
      'Stop loss',
      'Take profit must be above the current market price for a long',
      'Stop loss must be below the current market price for a long',
    ],
    ['zh', '止盈', '止损', '做多时止盈价须高于当前市场价格', '做多时止损价须低于当前市场价格'],
  ] as const)('says the TP/SL rules of a long under their fields (%s)', async (lang, tp, sl, tpText, slText) => {
    mockApi({});
    setup(true, lang);
    fireEvent.change(screen.getByLabelText(lang === 'en' ? 'Lots' : '手数'), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText(lang === 'en' ? 'TP/SL' : '止盈/止损'));
    fireEvent.change(screen.getByLabelText(tp), { target: { value: '49000' } });
    expect(screen.getByRole('alert')).toHaveTextContent(tpText);
    fireEvent.change(screen.getByLabelText(tp), { target: { value: '51000' } });
    fireEvent.change(screen.getByLabelText(sl), { target: { value: '51000' } });
    expect(screen.getByRole('alert')).toHaveTextContent(slText);
    fireEvent.change(screen.getByLabelText(sl), { target: { value: '49000' } });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('refuses a limit price more than 50% from the mark price', () => {
    mockApi({});
    setup(true);
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '75000.1' } });
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '1' } });
    expect(screen.getByRole('alert')).toHaveTextContent('The limit price may not deviate more than 50% from the current price');
  });

  it('offers the transfer into the contract account when the balance is short, without a request', async () => {
    const calls = mockApi({});
    setup(true, 'en', '100');
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '2' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Insufficient balance in the contract account');
    fireEvent.click(screen.getByRole('button', { name: 'Open long' }));
    await screen.findByText('Insufficient balance in the contract account. Transfer USDT in?');
    // The dialog's button (the form's own Transfer link comes first in the document).
    fireEvent.click(screen.getAllByRole('button', { name: 'Transfer' }).at(-1)!);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/assets/transfer?from=SPOT&to=CONTRACT&coin=USDT'));
    expect(calls.filter((c) => c.path.includes('placeOrder'))).toHaveLength(0);
  });

  it('asks a visitor to log in', async () => {
    mockApi({});
    setup(false);
    fireEvent.click(screen.getByRole('button', { name: 'Open long' }));
    await screen.findByText('You are not logged in, log in?');
  });

  it('sends lots (not a quantity), TP/SL and a client order id', async () => {
    const calls = mockApi({ 'contract/contract/placeOrder': { status: 'NEW' } });
    setup(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Short' }));
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '3' } });
    fireEvent.click(screen.getByLabelText('TP/SL'));
    fireEvent.change(screen.getByLabelText('Take profit'), { target: { value: '45000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open short' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/placeOrder')).toBe(true));
    const body = calls.find((c) => c.path === 'contract/contract/placeOrder')!.form;
    expect(body).toMatchObject({ symbol: 'BTC/USDT', side: 'SELL', orderType: 'LIMIT', price: '50000.00', lots: '3', takeProfit: '45000' });
    expect(body.quantity).toBeUndefined();
    expect(body.clientOrderId).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
  });

  it('disables the open button while the contract is paused on a stale index', () => {
    setup(true, 'en', '1000', { ...market, paused: true, pauseReason: 'index_stale', pausedSince: 1 });
    const open = screen.getByRole('button', { name: 'Open long' });
    expect(open).toHaveProperty('disabled', true);
    expect(open.getAttribute('title')).toBe('Paused: opening orders are not accepted');
  });
});
