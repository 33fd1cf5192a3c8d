// Component test of the leverage sheet with a position open (stubbed API, test/mock-api), at the server's API-test
// figures: a 10x isolated long with 5,000 USDT margin. The sheet shows the margin effect of the chosen leverage from
// leveragePreview: unchanged at 10x, "5,000.00 → 2,384.00 USDT (releases 2,616.00)" at 125x, "holds 500.00 more" at 9x;
// a run of quick taps asks once (debounced); a decrease the account cannot fund (5x, leverage_margin_insufficient)
// shows the server's message and its Confirm is disabled, so nothing is posted; zh shows the same in Chinese; without
// a position the sheet asks nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import type { ContractAccount, ContractMarket, ContractPosition, ContractSettings, LeveragePreview } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import { ContractOrderForm } from './ContractOrderForm';

const brackets = [{ notionalFloor: '0', notionalCap: '50000', maxLeverage: 125, maintMarginRate: '0.4000' }];
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
  lastPrice: '49000.00',
  markPrice: '49000.00',
  indexPrice: '49000.00',
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
const settings10xIsolated: ContractSettings = {
  symbol: 'BTC/USDT',
  leverage: 10,
  marginMode: 'ISOLATED',
  maxLeverage: 125,
  maxNotional: '50000',
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
const account17p5: ContractAccount = {
  coin: 'USDT',
  available: '17.5',
  frozen: '5000',
  walletBalance: '5017.5',
  crossWalletBalance: '17.5',
  crossUnrealizedPnl: '0',
  crossMarginBalance: '17.5',
  crossMaintMargin: '0',
  unrealizedPnl: '-1000',
  marginBalance: '4017.5',
  positionMargin: '5000',
  orderMargin: '0',
  availableBalance: '17.5',
  maxWithdrawAmount: '17.5',
  riskLevel: '0.00',
  riskLevelPpm: 0,
};
const longBtc10xIsolatedMargin5000: ContractPosition = {
  symbol: 'BTC/USDT',
  base: 'BTC',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  side: 'LONG',
  marginMode: 'ISOLATED',
  leverage: 10,
  quantity: '1.000',
  lots: 49,
  avgPrice: '50000.00',
  markPrice: '49000.00',
  positionValue: '49000.00000000',
  unrealizedPnl: '-1000.00000000',
  yieldRate: '-20.00',
  margin: '5000.00000000',
  maxRemovableMargin: '0.00000000',
  maintMargin: '196.00000000',
  liquidationPrice: '45180.73',
  takeProfit: '',
  stopLoss: '',
  realizedPnl: '0.00000000',
  funding: '0.00000000',
  fees: '25.00000000',
  riskLevel: '4.90',
  openTime: 1,
  updateTime: 1,
};

/** The server's answer for `leverage` on the 5,000 USDT isolated position with 17.5 USDT withdrawable. */
function previewOf(leverage: number): LeveragePreview {
  const base = {
    symbol: 'BTC/USDT',
    leverage,
    hasPosition: true,
    marginMode: 'ISOLATED' as const,
    margin: '5000.00000000',
    maxWithdrawAmount: '17.50000000',
    code: '',
    message: '',
  };
  if (leverage === 125) return { ...base, marginAfter: '2384.00000000', marginChange: '-2616.00000000', allowed: true };
  if (leverage === 9) return { ...base, marginAfter: '5500.00000000', marginChange: '500.00000000', allowed: true };
  if (leverage === 5) {
    const message =
      i18n.language === 'zh'
        ? '将杠杆降至 5x 需追加 5000 USDT 保证金，可用仅 17.5 USDT'
        : 'Lowering the leverage to 5x holds 5000 USDT more margin, but only 17.5 USDT is available';
    return { ...base, marginAfter: '10000.00000000', marginChange: '5000.00000000', allowed: false, code: 'leverage_margin_insufficient', message };
  }
  return { ...base, marginAfter: '5000.00000000', marginChange: '0.00000000', allowed: true };
}

function setup(position: ContractPosition | undefined, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: lang });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  qc.setQueryData(['contract', '1', 'account'], account17p5);
  qc.setQueryData(['contract', '1', 'settings', 'BTC/USDT'], settings10xIsolated);
  const calls = mockApi({
    'contract/contract/leveragePreview': (f: Record<string, string>) => previewOf(Number.parseInt(f.leverage ?? '0', 10)),
    'contract/contract/setLeverage': { ...settings10xIsolated, leverage: 125 },
  });
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={['/contract']}>
          <ContractOrderForm market={market} position={position} priceFill={null} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  fireEvent.click(screen.getByTestId('leverage'));
  return { calls, sheet: screen.getByRole('dialog', { name: lang === 'zh' ? '杠杆' : 'Leverage' }) };
}

const previewsAsked = (calls: { path: string; form: Record<string, string> }[]) =>
  calls.filter((c) => c.path === 'contract/contract/leveragePreview').map((c) => c.form.leverage);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('leverage sheet with a position', () => {
  it('shows the margin effect as the leverage changes, asking once for a run of taps', async () => {
    const { calls, sheet } = setup(longBtc10xIsolatedMargin5000);
    expect(await within(sheet).findByTestId('leverage-effect')).toHaveTextContent('Position margin 5,000.00 USDT (unchanged)');
    fireEvent.click(within(sheet).getByRole('button', { name: '5x' }));
    fireEvent.click(within(sheet).getByRole('button', { name: '20x' }));
    fireEvent.click(within(sheet).getByRole('button', { name: '125x' }));
    await waitFor(() => expect(within(sheet).getByTestId('leverage-effect')).toHaveTextContent('Position margin 5,000.00 → 2,384.00 USDT (releases 2,616.00)'));
    expect(previewsAsked(calls)).toEqual(['10', '125']);
    expect(within(sheet).queryByTestId('leverage-refused')).toBeNull();

    fireEvent.change(within(sheet).getByRole('textbox', { name: 'Leverage' }), { target: { value: '9' } });
    await waitFor(() => expect(within(sheet).getByTestId('leverage-effect')).toHaveTextContent('Position margin 5,000.00 → 5,500.00 USDT (holds 500.00 more)'));
    expect(within(sheet).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });

  it('shows the refusal and disables Confirm for a decrease the account cannot fund', async () => {
    const { calls, sheet } = setup(longBtc10xIsolatedMargin5000);
    fireEvent.click(within(sheet).getByRole('button', { name: '5x' }));
    expect(await within(sheet).findByTestId('leverage-refused')).toHaveTextContent(
      'Lowering the leverage to 5x holds 5000 USDT more margin, but only 17.5 USDT is available',
    );
    expect(within(sheet).getByTestId('leverage-effect')).toHaveTextContent('Position margin 5,000.00 → 10,000.00 USDT (holds 5,000.00 more)');
    const confirm = within(sheet).getByRole('button', { name: 'Confirm' });
    expect(confirm).toBeDisabled();
    fireEvent.click(confirm);
    expect(calls.some((c) => c.path === 'contract/contract/setLeverage')).toBe(false);

    fireEvent.click(within(sheet).getByRole('button', { name: '125x' }));
    await waitFor(() => expect(within(sheet).getByRole('button', { name: 'Confirm' })).toBeEnabled());
    expect(within(sheet).queryByTestId('leverage-refused')).toBeNull();
    fireEvent.click(within(sheet).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'contract/contract/setLeverage')?.form).toMatchObject({ symbol: 'BTC/USDT', leverage: '125' }));
  });

  it('says the same in Chinese', async () => {
    const { sheet } = setup(longBtc10xIsolatedMargin5000, 'zh');
    fireEvent.click(within(sheet).getByRole('button', { name: '5倍' }));
    expect(await within(sheet).findByTestId('leverage-refused')).toHaveTextContent('将杠杆降至 5x 需追加 5000 USDT 保证金，可用仅 17.5 USDT');
    expect(within(sheet).getByTestId('leverage-effect')).toHaveTextContent('仓位保证金 5,000.00 → 10,000.00 USDT（需追加 5,000.00）');
    expect(within(sheet).getByRole('button', { name: '确认' })).toBeDisabled();
  });

  it('asks nothing without a position', async () => {
    const { calls, sheet } = setup(undefined);
    fireEvent.click(within(sheet).getByRole('button', { name: '5x' }));
    await new Promise((r) => setTimeout(r, 400));
    expect(previewsAsked(calls)).toEqual([]);
    expect(within(sheet).queryByTestId('leverage-effect')).toBeNull();
    expect(within(sheet).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });
});
