// Component test of the adjust-margin sheet, opened from the pencil beside an isolated position's margin (the server's
// API-test position: 50x long of 0.020 at 50,000 with 25 USDT margin, est. liq. 48,945.79): the most that may be added
// (the available balance) and removed (perp/math at the mark: 5), the margin and the liquidation price after the change
// (20 -> 49,196.79 when 5 are removed), the signed amount sent, an amount beyond the limit refused under the field
// before any request, the server's refusal shown there in the user's language, en and zh; a cross position has no pencil.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { ContractAccount, ContractPosition } from '@exchange/api';
import { i18n } from '../../../shared/i18n';
import { useAppStore } from '../../../shared/storage';
import { mockApi } from '../../../test/mock-api';
import type { ContractRules } from '../lib/contract-form';
import { PositionCard } from './PositionCard';

const RULES: ContractRules = {
  symbol: 'TSTP/USDT',
  base: 'TSTP',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  settleScale: 8,
  tickSize: '0.01',
  stepSize: '0.001',
  minQty: '0.001',
  lotNotional: '1000',
  takerFeePpm: 500,
  makerFeePpm: 200,
  brackets: [
    { notionalCap: '50000', maxLeverage: 125, maintMarginPpm: 4000 },
    { notionalCap: '250000', maxLeverage: 100, maintMarginPpm: 5000 },
  ],
  priceBandPpm: 500_000,
};

const position = (p: Partial<ContractPosition> = {}): ContractPosition => ({
  symbol: 'TSTP/USDT',
  base: 'TSTP',
  quote: 'USDT',
  priceDecimals: 2,
  qtyDecimals: 3,
  side: 'LONG',
  marginMode: 'ISOLATED',
  leverage: 50,
  quantity: '0.020',
  lots: 1,
  avgPrice: '50000.00',
  markPrice: '50000.00',
  positionValue: '1000.00000000',
  unrealizedPnl: '0.00000000',
  yieldRate: '0.00',
  margin: '25.00000000',
  maxRemovableMargin: '5.00000000',
  maintMargin: '4.00000000',
  liquidationPrice: '48945.79',
  takeProfit: '',
  stopLoss: '',
  realizedPnl: '0.00000000',
  funding: '0.00000000',
  fees: '0.50000000',
  riskLevel: '16.00',
  openTime: 1,
  updateTime: 1,
  ...p,
});
const account = (available: string): ContractAccount => ({
  coin: 'USDT',
  available,
  frozen: '25',
  walletBalance: available,
  crossWalletBalance: available,
  crossUnrealizedPnl: '0',
  crossMarginBalance: available,
  crossMaintMargin: '0',
  unrealizedPnl: '0',
  marginBalance: available,
  positionMargin: '25',
  orderMargin: '0',
  availableBalance: available,
  maxWithdrawAmount: available,
  riskLevel: '0.00',
  riskLevelPpm: 0,
});

let client: QueryClient | null = null;

function setup(p: ContractPosition, lang: 'en' | 'zh' = 'en') {
  void i18n.changeLanguage(lang);
  useAppStore.setState({ token: 'tok', userId: '1', isLogin: true, currentLangue: lang });
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client = qc;
  qc.setQueryData(['contract', '1', 'account'], account('74.5'));
  qc.setQueryData(['contract', '1', 'positions'], [p]);
  render(
    <QueryClientProvider client={qc}>
      <I18nextProvider i18n={i18n}>
        <ul>
          <PositionCard position={p} rules={RULES} />
        </ul>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return qc;
}

afterEach(async () => {
  // The mutation re-reads the contract data when it settles: let that end before the environment goes.
  const qc = client;
  if (qc) await waitFor(() => expect(qc.isFetching() + qc.isMutating()).toBe(0));
  cleanup();
  await new Promise((r) => setTimeout(r, 50));
  vi.unstubAllGlobals();
});

describe('AdjustMarginSheet', () => {
  it('the card shows its amounts in the one number format: USDT grouped and rounded down, the quantity at the market precision', () => {
    setup(position({ margin: '1234.56789', positionValue: '12345.679', quantity: '1234.5' }));
    expect(screen.getByTestId('margin')).toHaveTextContent(/^1,234\.56$/);
    expect(screen.getByText('12,345.67')).toBeInTheDocument();
    expect(screen.getByText('1,234.500')).toBeInTheDocument();
  });

  it('adds margin: max addable is the available balance; the margin and liquidation price after; the amount sent', async () => {
    const calls = mockApi({ 'contract/contract/adjustMargin': position({ margin: '35.00000000', liquidationPrice: '48443.83' }) });
    setup(position());
    expect(screen.getByTestId('margin')).toHaveTextContent('25.00');
    fireEvent.click(screen.getByRole('button', { name: 'Adjust margin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Adjust margin of TSTP/USDT' });
    expect(dialog).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Add margin' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('margin-max')).toHaveTextContent('74.50 USDT');
    expect(screen.getByTestId('margin-now')).toHaveTextContent('25.00 USDT');
    expect(screen.getByTestId('liq-now')).toHaveTextContent('48,945.79');
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '10' } });
    expect(screen.getByTestId('margin-after')).toHaveTextContent('35.00 USDT');
    // (1000 - 35) / (0.02 x 0.996) = 48,443.775... rounded up
    expect(screen.getByTestId('liq-after')).toHaveTextContent('48,443.78');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'contract/contract/adjustMargin')).toBe(true));
    expect(calls.find((c) => c.path === 'contract/contract/adjustMargin')!.form).toEqual({ symbol: 'TSTP/USDT', amount: '10' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('removes margin: max removable 5 (the engine rule), Max fills it, a negative amount is sent', async () => {
    const calls = mockApi({
      'contract/contract/adjustMargin': position({ margin: '20.00000000', maxRemovableMargin: '0.00000000', liquidationPrice: '49196.79' }),
    });
    setup(position());
    fireEvent.click(screen.getByRole('button', { name: 'Adjust margin' }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Remove margin' }));
    expect(screen.getByTestId('margin-max')).toHaveTextContent('5.00 USDT');
    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect(screen.getByLabelText('Amount')).toHaveValue('5');
    expect(screen.getByTestId('margin-after')).toHaveTextContent('20.00 USDT');
    expect(screen.getByTestId('liq-after')).toHaveTextContent('49,196.79');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(calls.find((c) => c.path === 'contract/contract/adjustMargin')?.form).toEqual({ symbol: 'TSTP/USDT', amount: '-5' }));
  });

  it.each([
    ['en', 'Adjust margin', 'Remove margin', 'Amount', 'Confirm', 'At most 5.00 USDT can be removed', 'Please enter the amount'],
    ['zh', '调整保证金', '减少保证金', '金额', '确认', '最多可减少 5.00 USDT', '请输入金额'],
  ] as const)('refuses too much before sending (%s)', async (lang, open, removeTab, amountLabel, confirm, tooMuch, required) => {
    const calls = mockApi({});
    setup(position(), lang);
    fireEvent.click(screen.getByRole('button', { name: open }));
    fireEvent.click(await screen.findByRole('tab', { name: removeTab }));
    fireEvent.click(screen.getByRole('button', { name: confirm }));
    expect(screen.getByRole('alert')).toHaveTextContent(required);
    fireEvent.change(screen.getByLabelText(amountLabel), { target: { value: '5.01' } });
    fireEvent.click(screen.getByRole('button', { name: confirm }));
    expect(screen.getByRole('alert')).toHaveTextContent(tooMuch);
    expect(calls.filter((c) => c.path.includes('adjustMargin'))).toHaveLength(0);
  });

  it("shows the server's refusal under the amount (a removal the mark price no longer allows: the removable maximum)", async () => {
    mockApi({ 'contract/contract/adjustMargin': { errorCode: 'margin_remove_exceeded', errorMessage: 'At most 5.00000000 USDT of margin can be removed' } });
    setup(position());
    fireEvent.click(screen.getByRole('button', { name: 'Adjust margin' }));
    fireEvent.click(await screen.findByRole('tab', { name: 'Remove margin' }));
    fireEvent.change(screen.getByLabelText('Amount'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('At most 5.00 USDT can be removed');
  });

  it('shows another refusal of the server as the server words it (zh)', async () => {
    mockApi({ 'contract/contract/adjustMargin': { errorCode: 'margin_mode_invalid', errorMessage: '仅逐仓仓位可调整保证金' } });
    setup(position(), 'zh');
    fireEvent.click(screen.getByRole('button', { name: '调整保证金' }));
    fireEvent.change(await screen.findByLabelText('金额'), { target: { value: '1' } });
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('仅逐仓仓位可调整保证金');
  });

  it('has no pencil for a cross position', () => {
    mockApi({});
    setup(position({ marginMode: 'CROSS', maxRemovableMargin: '' }));
    expect(screen.queryByRole('button', { name: 'Adjust margin' })).not.toBeInTheDocument();
  });
});
