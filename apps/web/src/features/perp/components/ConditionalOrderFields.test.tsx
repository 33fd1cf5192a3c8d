// Component test of the conditional part of the contract order form (ConditionalOrderFields inside
// ContractOrderForm): the type selector Limit | Market | Stop-limit | Stop-market | Trailing stop, the trigger price with
// its working price (Mark / Last), a refused trigger said under its field in en and zh, the confirm repeating the
// order (stop or take profit from the side and the trigger), the body sent (lots, reduce-only, close position), and
// nothing sent when the confirm is cancelled.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { ContractAccount, ContractMarket, ContractPosition, ContractSettings, Member } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { reduceMotion, restoreMotion } from 'antd-mobile/es/utils/reduce-and-restore-motion';
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

function setup(login: boolean, lang: 'en' | 'zh' = 'en', available = '1000', position?: ContractPosition, m: ContractMarket = market) {
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
            <Route path="/contract" element={<ContractOrderForm market={m} position={position} priceFill={null} />} />
            <Route path="/login" element={<Where />} />
            <Route path="/assets/transfer" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
}

const long: ContractPosition = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  side: 'LONG',
  marginMode: 'ISOLATED',
  leverage: 10,
  quantity: '0.040',
  lots: 2,
  avgPrice: '50000.00',
  markPrice: '50000.00',
  positionValue: '2000',
  unrealizedPnl: '0',
  yieldRate: '0.00',
  margin: '200',
  maxRemovableMargin: '0',
  maintMargin: '8',
  liquidationPrice: '45180.73',
  takeProfit: '',
  stopLoss: '',
  realizedPnl: '0',
  funding: '0',
  fees: '1',
  riskLevel: '0.08',
  openTime: 1,
  updateTime: 1,
};

afterEach(() => {
  vi.unstubAllGlobals();
});

// The confirmation dialog's open and close animations end at once here (antd-mobile's reduceMotion): on CI's loaded
// machine a Dialog.confirm cancelled by a test was still in the document, at its closed style, 5 s later. Not set for
// every web test: set in the shared setup, SlideCaptcha.test.tsx never finished (its worker grew to the 4 GB heap
// limit on CI).
beforeAll(() => reduceMotion());
afterAll(() => restoreMotion());

describe('ContractOrderForm conditional orders', () => {
  it('offers the five types and, for a stop-market, the trigger price with Mark / Last', () => {
    mockApi({});
    setup(true);
    const kinds = screen.getByRole('tablist', { name: 'Order type' });
    expect(
      within(kinds)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Limit', 'Market', 'Stop-limit', 'Stop-market', 'Trailing stop']);
    fireEvent.click(within(kinds).getByRole('tab', { name: 'Stop-market' }));
    expect(screen.getByLabelText('Trigger price')).toBeInTheDocument();
    const by = screen.getByRole('tablist', { name: 'Trigger by' });
    expect(within(by).getByRole('tab', { name: 'Last' })).toHaveAttribute('aria-selected', 'true');
    fireEvent.click(within(by).getByRole('tab', { name: 'Mark' }));
    expect(screen.getByTestId('working-price')).toHaveTextContent('50,000.00');
    expect(screen.queryByLabelText('Take profit')).not.toBeInTheDocument();
  });

  it.each([
    ['en', 'Trigger price', 'The trigger price equals the current price: the order would trigger at once'],
    ['zh', '触发价', '触发价等于当前价格，委托会立即触发'],
  ] as const)('says a trigger at the current price under its field (%s)', (lang, label, text) => {
    mockApi({});
    setup(true, lang);
    fireEvent.click(screen.getByRole('tab', { name: lang === 'en' ? 'Stop-market' : '市价止盈止损' }));
    fireEvent.change(screen.getByLabelText(label), { target: { value: '50000' } });
    expect(screen.getByRole('alert')).toHaveTextContent(text);
  });

  it('confirms and sends a reduce-only stop-market on the mark price in lots', async () => {
    const calls = mockApi({ 'contract/contract/placeConditionalOrder': { state: 'PENDING' } });
    setup(true, 'en', '1000', long);
    fireEvent.click(screen.getByRole('tab', { name: 'Short' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Stop-market' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Mark' }));
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '49000' } });
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '2' } });
    fireEvent.click(screen.getByLabelText('Reduce-only'));
    fireEvent.click(screen.getByRole('button', { name: 'Close long' }));
    const confirm = await screen.findByTestId('cond-confirm');
    expect(confirm).toHaveTextContent('Stop-market');
    expect(confirm).toHaveTextContent('49,000.00');
    expect(confirm).toHaveTextContent('Mark');
    expect(confirm).toHaveTextContent('Lots2');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/placeConditionalOrder')).toBe(true));
    const body = calls.find((c) => c.path === 'contract/contract/placeConditionalOrder')!.form;
    expect(body).toMatchObject({
      symbol: 'BTC/USDT',
      side: 'SELL',
      type: 'STOP_MARKET',
      stopPrice: '49000',
      workingType: 'MARK_PRICE',
      lots: '2',
      reduceOnly: 'true',
    });
    expect(body.clientOrderId).toMatch(/^[A-Za-z0-9_-]{1,36}$/);
    expect(calls.some((c) => c.path === 'contract/contract/placeOrder')).toBe(false);
  });

  it('names a stop above the price of a short a take profit, sends close position alone, and nothing when cancelled', async () => {
    const calls = mockApi({ 'contract/contract/placeConditionalOrder': { state: 'PENDING' } });
    setup(true, 'en', '1000', long);
    fireEvent.click(screen.getByRole('tab', { name: 'Short' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Stop-market' }));
    fireEvent.change(screen.getByLabelText('Trigger price'), { target: { value: '55000' } });
    fireEvent.click(screen.getByLabelText('Close position'));
    expect(screen.queryByLabelText('Lots')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close long' }));
    expect(await screen.findByTestId('cond-confirm')).toHaveTextContent('Take-profit market');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('cond-confirm')).not.toBeInTheDocument());
    expect(calls.some((c) => c.path === 'contract/contract/placeConditionalOrder')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Close long' }));
    await screen.findByTestId('cond-confirm');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/placeConditionalOrder')).toBe(true));
    const body = calls.find((c) => c.path === 'contract/contract/placeConditionalOrder')!.form;
    expect(body).toMatchObject({ side: 'SELL', type: 'TAKE_PROFIT_MARKET', stopPrice: '55000', closePosition: 'true', workingType: 'CONTRACT_PRICE' });
    expect(body.lots).toBeUndefined();
    expect(body.reduceOnly).toBeUndefined();
  });

  it('while the contract is paused, takes only a reduce-only or close-position order', () => {
    mockApi({});
    setup(true, 'en', '1000', long, { ...market, paused: true, pauseReason: 'index_stale', pausedSince: 1 });
    fireEvent.click(screen.getByRole('tab', { name: 'Short' }));
    fireEvent.click(screen.getByRole('tab', { name: 'Stop-market' }));
    const submit = screen.getByRole('button', { name: 'Open short' });
    expect(submit).toHaveProperty('disabled', true);
    expect(submit.getAttribute('title')).toBe('Paused: opening orders are not accepted');
    fireEvent.click(screen.getByLabelText('Reduce-only'));
    expect(submit).toHaveTextContent('Close long');
    expect(submit).toHaveProperty('disabled', false);
    expect(submit.getAttribute('title')).toBe(null);
    fireEvent.click(screen.getByLabelText('Reduce-only'));
    expect(submit).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByLabelText('Close position'));
    expect(submit).toHaveProperty('disabled', false);
  });

  it('sends a trailing stop with its callback rate', async () => {
    const calls = mockApi({ 'contract/contract/placeConditionalOrder': { state: 'PENDING' } });
    setup(true);
    fireEvent.click(screen.getByRole('tab', { name: 'Trailing stop' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Callback rate' }), { target: { value: '10.5' } });
    expect(screen.getByRole('alert')).toHaveTextContent('The callback rate must be 0.1% to 10% in steps of 0.1%');
    fireEvent.click(screen.getByRole('button', { name: '1%' }));
    fireEvent.change(screen.getByLabelText('Lots'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open long' }));
    await screen.findByTestId('cond-confirm');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/placeConditionalOrder')).toBe(true));
    expect(calls.find((c) => c.path === 'contract/contract/placeConditionalOrder')!.form).toMatchObject({
      side: 'BUY',
      type: 'TRAILING_STOP',
      callbackRate: '1',
      lots: '1',
    });
  });
});
